// Source 004 (seeds/004_03293983111fb9a2.txt), lines 893-1018, transcribed as published.
// Added: the import (the post shows none). Repaired, where marked: the leaf's unseeded
// Random draws from Seeded.RANDOM, which a harness can seed.
import java.util.*;

/**
 * 混合AI：Expectimax搜索 + 蒙特卡洛评估叶节点
 */
class HybridAI {
    private Game2048 game;
    private int searchDepth;       // Expectimax搜索深度
    private int simulationsPerLeaf;  // 每个叶节点的模拟次数

    public HybridAI(Game2048 game, int searchDepth, int simulationsPerLeaf) {
        this.game = game;
        this.searchDepth = searchDepth;
        this.simulationsPerLeaf = simulationsPerLeaf;
    }

    /**
     * 选择最佳移动方向
     */
    public Game2048.Direction findBestMove() {
        double bestValue = Double.NEGATIVE_INFINITY;
        Game2048.Direction bestDir = Game2048.Direction.LEFT;

        for (Game2048.Direction dir : Game2048.Direction.values()) {
            Game2048 copy = game.copy();
            if (copy.move(dir)) {
                double value = expectimaxMC(copy, searchDepth - 1, false);
                if (value > bestValue) {
                    bestValue = value;
                    bestDir = dir;
                }
            }
        }

        return bestDir;
    }

    /**
     * Expectimax搜索，叶节点用蒙特卡洛模拟评估
     */
    private double expectimaxMC(Game2048 game, int depth, boolean isMaxPlayer) {
        if (depth == 0 || game.isGameOver()) {
            // 到达叶节点，用蒙特卡洛模拟评估
            return monteCarloEvaluate(game);
        }

        if (isMaxPlayer) {
            double maxValue = Double.NEGATIVE_INFINITY;
            boolean hasValidMove = false;

            for (Game2048.Direction dir : Game2048.Direction.values()) {
                Game2048 copy = game.copy();
                if (copy.move(dir)) {
                    hasValidMove = true;
                    double value = expectimaxMC(copy, depth - 1, false);
                    maxValue = Math.max(maxValue, value);
                }
            }

            return hasValidMove ? maxValue : monteCarloEvaluate(game);
        } else {
            // CHANCE层
            List<int[]> emptyCells = game.getEmptyCells();
            if (emptyCells.isEmpty()) {
                return expectimaxMC(game, depth - 1, true);
            }

            double expectedValue = 0;
            double prob2 = 0.9 / emptyCells.size();
            double prob4 = 0.1 / emptyCells.size();

            for (int[] cell : emptyCells) {
                // 生成2
                Game2048 copy2 = game.copy();
                copy2.getBoard()[cell[0]][cell[1]] = 1;
                expectedValue += prob2 * expectimaxMC(copy2, depth - 1, true);

                // 生成4
                Game2048 copy4 = game.copy();
                copy4.getBoard()[cell[0]][cell[1]] = 2;
                expectedValue += prob4 * expectimaxMC(copy4, depth - 1, true);
            }

            return expectedValue;
        }
    }

    /**
     * 蒙特卡洛评估
     */
    private double monteCarloEvaluate(Game2048 state) {
        long totalScore = 0;
        Random random = Seeded.RANDOM;  // repaired: was new Random(), unseedable

        for (int i = 0; i < simulationsPerLeaf; i++) {
            Game2048 sim = state.copy();
            totalScore += randomPlayout(sim, random);
        }

        return (double) totalScore / simulationsPerLeaf;
    }

    /**
     * 随机走子到结束
     */
    private int randomPlayout(Game2048 sim, Random random) {
        Game2048.Direction[] dirs = Game2048.Direction.values();

        while (!sim.isGameOver()) {
            // 随机选择可行方向
            List<Game2048.Direction> validDirs = new ArrayList<>();
            for (Game2048.Direction dir : dirs) {
                Game2048 test = sim.copy();
                if (test.move(dir)) {
                    validDirs.add(dir);
                }
            }

            if (validDirs.isEmpty()) break;

            Game2048.Direction randomDir = validDirs.get(random.nextInt(validDirs.size()));
            sim.move(randomDir);
            sim.addRandomTile();
        }

        return sim.getScore();
    }
}
