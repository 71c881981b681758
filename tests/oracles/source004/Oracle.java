// The test's harness around source 004's classes (not part of the source). Reads lines
// "depth board" (the board as g2048's 64-bit word in hex, decoded by the source's own
// BoardEncoder: the same row-major nibbles) and prints per line the direction that
// ExpectimaxAI.findBestMove chooses (its Direction ordinal: UP, DOWN, LEFT, RIGHT) and the value
// of each direction as findBestMove computes it, expectimax(copy, maxDepth - 1, false) through
// reflection (it is private), -Infinity where the move is illegal.
import java.io.*;
import java.lang.reflect.Method;

class Oracle {
    public static void main(String[] args) throws Exception {
        Method expectimax = ExpectimaxAI.class.getDeclaredMethod(
                "expectimax", Game2048.class, int.class, boolean.class);
        expectimax.setAccessible(true);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out)));
        String line;
        while ((line = in.readLine()) != null) {
            String[] parts = line.trim().split(" ");
            int depth = Integer.parseInt(parts[0]);
            int[][] cells = BoardEncoder.decode(Long.parseUnsignedLong(parts[1], 16));
            Game2048 game = new Game2048();  // starts with two random tiles: all cells overwritten
            for (int i = 0; i < Game2048.SIZE; i++) {
                System.arraycopy(cells[i], 0, game.getBoard()[i], 0, Game2048.SIZE);
            }
            ExpectimaxAI ai = new ExpectimaxAI(game, depth);
            StringBuilder row = new StringBuilder().append(ai.findBestMove().ordinal());
            for (Game2048.Direction dir : Game2048.Direction.values()) {
                Game2048 copy = game.copy();
                double value = copy.move(dir)
                        ? (double) expectimax.invoke(ai, copy, depth - 1, false)
                        : Double.NEGATIVE_INFINITY;
                row.append(' ').append(value);
            }
            out.println(row);
        }
        out.flush();
    }
}
