// Source 004 (seeds/004_03293983111fb9a2.txt), lines 392-614, transcribed as published: the
// post's prose between its members is left out where marked. Added: the import (the post
// shows none; the class uses List).
import java.util.*;

/**
 * Expectimax AI
 */
class ExpectimaxAI {
    private Game2048 game;
    private int maxDepth;  // 最大搜索深度

    public ExpectimaxAI(Game2048 game, int maxDepth) {
        this.game = game;
        this.maxDepth = maxDepth;
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
                double value = expectimax(copy, maxDepth - 1, false);
                if (value > bestValue) {
                    bestValue = value;
                    bestDir = dir;
                }
            }
        }

        return bestDir;
    }

    /**
     * Expectimax 递归搜索
     * @param game 当前棋盘状态
     * @param depth 剩余搜索深度
     * @param isMaxPlayer 是否为玩家回合（MAX层）
     * @return 局面的期望价值
     */
    private double expectimax(Game2048 game, int depth, boolean isMaxPlayer) {
        // 终止条件：深度为0或游戏结束
        if (depth == 0 || game.isGameOver()) {
            return evaluate(game);
        }

        if (isMaxPlayer) {
            // MAX层：玩家选择最优方向
            double maxValue = Double.NEGATIVE_INFINITY;
            boolean hasValidMove = false;

            for (Game2048.Direction dir : Game2048.Direction.values()) {
                Game2048 copy = game.copy();
                if (copy.move(dir)) {
                    hasValidMove = true;
                    double value = expectimax(copy, depth - 1, false);
                    maxValue = Math.max(maxValue, value);
                }
            }

            if (!hasValidMove) {
                return evaluate(game);  // 无法移动，返回当前估值
            }

            return maxValue;
        } else {
            // CHANCE层：计算随机生成新方块的期望值
            List<int[]> emptyCells = game.getEmptyCells();
            if (emptyCells.isEmpty()) {
                return expectimax(game, depth - 1, true);
            }

            double expectedValue = 0;
            double prob2 = 0.9 / emptyCells.size();   // 每个位置生成2的概率
            double prob4 = 0.1 / emptyCells.size();   // 每个位置生成4的概率

            for (int[] cell : emptyCells) {
                int row = cell[0];
                int col = cell[1];

                // 生成2的情况（指数1）
                Game2048 copy2 = game.copy();
                copy2.getBoard()[row][col] = 1;
                expectedValue += prob2 * expectimax(copy2, depth - 1, true);

                // 生成4的情况（指数2）
                Game2048 copy4 = game.copy();
                copy4.getBoard()[row][col] = 2;
                expectedValue += prob4 * expectimax(copy4, depth - 1, true);
            }

            return expectedValue;
        }
    }

    // [the post's prose, lines 488-498, left out: a section heading and text]

    /**
     * 启发式评估函数
     * 综合考虑单调性、平滑性、最大块位置、空格数等因素
     */
    private double evaluate(Game2048 game) {
        int[][] board = game.getBoard();

        double smoothWeight = 0.1;    // 平滑性权重
        double monoWeight = 1.0;      // 单调性权重
        double emptyWeight = 2.7;     // 空格数权重
        double maxWeight = 1.0;       // 最大方块权重

        double smoothness = -calculateSmoothness(board);
        double monotonicity = calculateMonotonicity(board);
        int emptyCells = game.getEmptyCells().size();
        int maxTile = getMaxTile(board);

        return smoothWeight * smoothness
             + monoWeight * monotonicity
             + emptyWeight * Math.log(emptyCells + 1)
             + maxWeight * maxTile;
    }

    /**
     * 计算平滑性：相邻格子的数值差之和（越小越平滑）
     */
    private double calculateSmoothness(int[][] board) {
        double smoothness = 0;

        for (int i = 0; i < Game2048.SIZE; i++) {
            for (int j = 0; j < Game2048.SIZE; j++) {
                if (board[i][j] != 0) {
                    int value = board[i][j];
                    // 右边
                    if (j + 1 < Game2048.SIZE && board[i][j + 1] != 0) {
                        smoothness += Math.abs(value - board[i][j + 1]);
                    }
                    // 下边
                    if (i + 1 < Game2048.SIZE && board[i + 1][j] != 0) {
                        smoothness += Math.abs(value - board[i + 1][j]);
                    }
                }
            }
        }

        return smoothness;
    }

    /**
     * 计算单调性：检查每行每列是否单调递增或递减
     * 取四个方向中最好的单调性得分
     */
    private double calculateMonotonicity(int[][] board) {
        double[] totals = new double[4];  // 上、下、左、右四个方向的单调性

        // 左右方向（行）
        for (int i = 0; i < Game2048.SIZE; i++) {
            int current = 0;
            int next = current + 1;
            while (next < Game2048.SIZE) {
                while (next < Game2048.SIZE && board[i][next] == 0) next++;
                if (next >= Game2048.SIZE) next--;

                int currentVal = board[i][current];
                int nextVal = board[i][next];

                if (currentVal > nextVal) {
                    totals[0] += nextVal - currentVal;  // 递减（左大右小）
                } else if (nextVal > currentVal) {
                    totals[1] += currentVal - nextVal;  // 递增（左小右大）
                }

                current = next;
                next++;
            }
        }

        // 上下方向（列）
        for (int j = 0; j < Game2048.SIZE; j++) {
            int current = 0;
            int next = current + 1;
            while (next < Game2048.SIZE) {
                while (next < Game2048.SIZE && board[next][j] == 0) next++;
                if (next >= Game2048.SIZE) next--;

                int currentVal = board[current][j];
                int nextVal = board[next][j];

                if (currentVal > nextVal) {
                    totals[2] += nextVal - currentVal;  // 递减（上大下小）
                } else if (nextVal > currentVal) {
                    totals[3] += currentVal - nextVal;  // 递增（上小下大）
                }

                current = next;
                next++;
            }
        }

        // 取四个方向中最好的两个（行和列各取最好的）
        return Math.max(totals[0], totals[1]) + Math.max(totals[2], totals[3]);
    }

    /**
     * 获取最大方块的指数值
     */
    private int getMaxTile(int[][] board) {
        int max = 0;
        for (int i = 0; i < Game2048.SIZE; i++) {
            for (int j = 0; j < Game2048.SIZE; j++) {
                max = Math.max(max, board[i][j]);
            }
        }
        return max;
    }
}
