// Source 000 (seeds/000_3d3305328567f9eb.txt), lines 317-383: Expectimax.java as published.
package com.example.g2048;

import java.util.Random;

/**
 * Expectimax：玩家节点取 max（4 个方向），随机节点取期望（空格上 2/4 的概率加权）。
 * 与 Minimax 的区别：对手不是"敌对"而是"随机"，所以随机节点求期望而非求最小。
 */
public final class Expectimax {

    private final double[] weights;
    private final int depth;
    private final Random rnd;

    public Expectimax(double[] weights, int depth, long seed) {
        this.weights = weights;
        this.depth = depth;
        this.rnd = new Random(seed);
    }

    /** 返回最优方向（0 上 1 下 2 左 3 右），若无可行方向返回 -1 */
    public int bestMove(Board root) {
        int bestDir = -1;
        double bestVal = Double.NEGATIVE_INFINITY;
        for (int d = 0; d < 4; d++) {
            Board b = root.copy(rnd);
            if (b.move(d) < 0) continue;          // 该方向无变化
            b.spawn();                            // 移动后必生成新块
            double v = expect(b, depth - 1);
            if (v > bestVal) { bestVal = v; bestDir = d; }
        }
        return bestDir;
    }

    /** 随机节点：在所有空格上开新块，按 0.9 / 0.1 概率加权求期望 */
    private double expect(Board b, int d) {
        if (d <= 0) return Evaluator.score(b, weights);

        int n = 0;
        int[] empties = new int[16];
        for (int i = 0; i < 16; i++) if (b.cell(i) == 0) empties[n++] = i;
        if (n == 0) return Evaluator.score(b, weights);

        double total = 0;
        for (int k = 0; k < n; k++) {
            for (int v : new int[]{1, 2}) {         // 指数 1 = 数字 2；指数 2 = 数字 4
                Board t = b.copy(rnd);
                t.board |= ((long) v) << (empties[k] * 4);
                double p = (v == 1) ? 0.9 : 0.1;
                total += p * maxNode(t, d - 1);
            }
        }
        return total / n;
    }

    /** 玩家节点：四方向取最大 */
    private double maxNode(Board b, int d) {
        if (d <= 0) return Evaluator.score(b, weights);
        double best = -1.0;
        for (int dir = 0; dir < 4; dir++) {
            Board t = b.copy(rnd);
            if (t.move(dir) < 0) continue;
            best = Math.max(best, expect(t, d - 1));
        }
        return best < 0 ? Evaluator.score(b, weights) : best;
    }
}
