// A harness around source 004's players (not part of the source): plays whole games and prints
// every position a move is asked for (the board as g2048's 64-bit word in hex, by the source's
// BoardEncoder). Arguments: player (expectimax, mc, hybrid), depth, rollouts, games, first seed.
// Game i draws its tiles from a Random seeded with (first seed + i), set through reflection as
// in Play.java; the players draw from Seeded.RANDOM, seeded once with the first seed.
import java.lang.reflect.Field;
import java.util.Random;

class Games {
    public static void main(String[] args) throws Exception {
        String player = args[0];
        int depth = Integer.parseInt(args[1]);
        int rollouts = Integer.parseInt(args[2]);
        int games = Integer.parseInt(args[3]);
        long first = Long.parseLong(args[4]);
        Field random = Game2048.class.getDeclaredField("random");
        random.setAccessible(true);
        Seeded.RANDOM.setSeed(first);
        for (int i = 0; i < games; i++) {
            Game2048 game = new Game2048();
            for (int[] row : game.getBoard()) {
                java.util.Arrays.fill(row, 0);  // the constructor's unseeded tiles removed
            }
            random.set(game, new Random(first + i));
            game.addRandomTile();
            game.addRandomTile();
            while (!game.isGameOver()) {
                System.out.println(Long.toHexString(BoardEncoder.encode(game.getBoard())));
                Game2048.Direction move = player.equals("expectimax")
                        ? new ExpectimaxAI(game, depth).findBestMove()
                        : player.equals("mc")
                        ? new MonteCarloAI(game, rollouts).findBestMove()
                        : new HybridAI(game, depth, rollouts).findBestMove();
                game.move(move);
                game.addRandomTile();
            }
        }
        System.out.flush();
    }
}
