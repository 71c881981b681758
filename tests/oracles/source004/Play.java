// The driver that plays whole games with source 004's players (not part of the source, which
// publishes no program: no main, and every Game2048 draws from an unseeded Random).
// Arguments: depth, games, first seed, and optionally the player (expectimax, the default; mc;
// hybrid) and its rollouts. Game i starts from an empty board whose Random is seeded with
// (first seed + i) through reflection, gets the source's two start tiles (addRandomTile
// twice), and then, until isGameOver, moves by a new ExpectimaxAI(game, depth) (MonteCarloAI(game,
// rollouts), HybridAI(game, depth, rollouts)).findBestMove() and adds a tile (addRandomTile)
// after each move that changed the board: the loop the post describes, its own methods only.
// The Monte Carlo players draw from Seeded.RANDOM, seeded with the first seed. Prints per game
// "seed score max_tile moves", max_tile as a tile value (the source stores exponents).
import java.lang.reflect.Field;
import java.util.Random;

class Play {
    public static void main(String[] args) throws Exception {
        int depth = Integer.parseInt(args[0]);
        int games = Integer.parseInt(args[1]);
        long first = Long.parseLong(args[2]);
        String player = args.length > 3 ? args[3] : "expectimax";
        int rollouts = args.length > 4 ? Integer.parseInt(args[4]) : 0;
        Seeded.RANDOM.setSeed(first);
        Field random = Game2048.class.getDeclaredField("random");
        random.setAccessible(true);
        for (int i = 0; i < games; i++) {
            Game2048 game = new Game2048();
            for (int[] row : game.getBoard()) {
                java.util.Arrays.fill(row, 0);  // the constructor's unseeded tiles removed
            }
            random.set(game, new Random(first + i));
            game.addRandomTile();
            game.addRandomTile();
            int moves = 0;
            while (!game.isGameOver()) {
                Game2048.Direction move = player.equals("expectimax")
                        ? new ExpectimaxAI(game, depth).findBestMove()
                        : player.equals("mc")
                        ? new MonteCarloAI(game, rollouts).findBestMove()
                        : new HybridAI(game, depth, rollouts).findBestMove();
                if (game.move(move)) {
                    game.addRandomTile();
                    moves++;
                } else {
                    break;  // never: a game not over has a legal move, and findBestMove finds it
                }
            }
            int top = 0;
            for (int[] row : game.getBoard()) {
                for (int v : row) {
                    top = Math.max(top, v);
                }
            }
            System.out.println((first + i) + " " + game.getScore() + " " + (1 << top) + " " + moves);
            System.out.flush();
        }
    }
}
