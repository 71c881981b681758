// Source 004 (seeds/004_03293983111fb9a2.txt), lines 649-726, transcribed as published.
// Added: the import (the post shows none). Repaired, where marked: the playout's unseeded
// Random draws from Seeded.RANDOM, which a harness can seed.
import java.util.*;

/**
 * 蒙特卡洛AI
 * 结合Expectimax选择方向，用蒙特卡洛模拟评估局面
 */
class MonteCarloAI {
    private Game2048 game;
    private int numSimulations;  // 每个局面的模拟次数

    public MonteCarloAI(Game2048 game, int numSimulations) {
        this.game = game;
        this.numSimulations = numSimulations;
    }

    /**
     * 选择最佳移动方向
     * 对每个方向执行蒙特卡洛评估，选择平均得分最高的方向
     */
    public Game2048.Direction findBestMove() {
        double bestScore = Double.NEGATIVE_INFINITY;
        Game2048.Direction bestDir = Game2048.Direction.LEFT;

        for (Game2048.Direction dir : Game2048.Direction.values()) {
            Game2048 copy = game.copy();
            if (copy.move(dir)) {
                // 对移动后的局面执行蒙特卡洛评估
                double avgScore = monteCarloEvaluate(copy);
                if (avgScore > bestScore) {
                    bestScore = avgScore;
                    bestDir = dir;
                }
            }
        }

        return bestDir;
    }

    /**
     * 蒙特卡洛评估：从当前局面开始随机模拟多次，取平均得分
     */
    private double monteCarloEvaluate(Game2048 state) {
        long totalScore = 0;

        for (int i = 0; i < numSimulations; i++) {
            Game2048 sim = state.copy();
            totalScore += randomPlayout(sim);
        }

        return (double) totalScore / numSimulations;
    }

    /**
     * 随机走子到游戏结束，返回最终得分
     */
    private int randomPlayout(Game2048 sim) {
        Random random = Seeded.RANDOM;  // repaired: was new Random(), unseedable
        Game2048.Direction[] dirs = Game2048.Direction.values();

        while (!sim.isGameOver()) {
            // 随机选择一个可行方向
            List<Game2048.Direction> validDirs = new ArrayList<>();
            for (Game2048.Direction dir : dirs) {
                Game2048 test = sim.copy();
                if (test.move(dir)) {
                    validDirs.add(dir);
                }
            }

            if (validDirs.isEmpty()) break;

            // 完全随机选择（均匀分布）
            Game2048.Direction randomDir = validDirs.get(random.nextInt(validDirs.size()));
            sim.move(randomDir);
            sim.addRandomTile();
        }

        return sim.getScore();
    }
}
