// The test's harness around source 004's Monte Carlo players (not part of the source). Reads
// lines "player depth rollouts seed board" (player "mc": MonteCarloAI(game, rollouts), depth 1;
// "hybrid": HybridAI(game, depth, rollouts); the board as g2048's 64-bit word in hex, decoded by
// the source's BoardEncoder) and prints per line the direction findBestMove chooses (its
// Direction ordinal: UP, DOWN, LEFT, RIGHT) and each direction's value as findBestMove computes
// it (reflection: the methods are private), -Infinity where the move is illegal. Seeded.RANDOM
// is seeded with `seed` before the choice and again before the values, so both draw the same
// numbers. The game's score is 0.
import java.io.*;
import java.lang.reflect.Method;

class OracleRollouts {
    public static void main(String[] args) throws Exception {
        Method mc = MonteCarloAI.class.getDeclaredMethod("monteCarloEvaluate", Game2048.class);
        Method hybrid = HybridAI.class.getDeclaredMethod(
                "expectimaxMC", Game2048.class, int.class, boolean.class);
        mc.setAccessible(true);
        hybrid.setAccessible(true);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out)));
        String line;
        while ((line = in.readLine()) != null) {
            String[] parts = line.trim().split(" ");
            boolean isMc = parts[0].equals("mc");
            int depth = Integer.parseInt(parts[1]);
            int rollouts = Integer.parseInt(parts[2]);
            long seed = Long.parseLong(parts[3]);
            int[][] cells = BoardEncoder.decode(Long.parseUnsignedLong(parts[4], 16));
            Game2048 game = new Game2048();  // starts with two random tiles: all cells overwritten
            for (int i = 0; i < Game2048.SIZE; i++) {
                System.arraycopy(cells[i], 0, game.getBoard()[i], 0, Game2048.SIZE);
            }
            MonteCarloAI mcAi = new MonteCarloAI(game, rollouts);
            HybridAI hybridAi = new HybridAI(game, depth, rollouts);
            Seeded.RANDOM.setSeed(seed);
            Game2048.Direction move = isMc ? mcAi.findBestMove() : hybridAi.findBestMove();
            StringBuilder row = new StringBuilder().append(move.ordinal());
            Seeded.RANDOM.setSeed(seed);
            for (Game2048.Direction dir : Game2048.Direction.values()) {
                Game2048 copy = game.copy();
                double value = Double.NEGATIVE_INFINITY;
                if (copy.move(dir)) {
                    value = isMc
                            ? (double) mc.invoke(mcAi, copy)
                            : (double) hybrid.invoke(hybridAi, copy, depth - 1, false);
                }
                row.append(' ').append(value);
            }
            out.println(row);
        }
        out.flush();
    }
}
