// Source 003 (seeds/003_36d42016eb695257.txt), lines 107-213: Evaluator as published.
public class Evaluator {
    /** 蛇形路径：从左上沿蛇形遍历 16 格的权重（越高越优先） */
    private static final double[] SNAKE = {
        15, 14, 13, 12,
         8,  9, 10, 11,
         7,  6,  5,  4,
         0,  1,  2,  3
    };

    public static double[] features(Board b) {
        double[] f = new double[8];
        int[][] g = new int[4][4];
        for (int i = 0; i < 4; i++) for (int j = 0; j < 4; j++) g[i][j] = b.value(i, j);

        // f1: 空格数
        int empty = 0;
        for (int[] row : g) for (int v : row) if (v == 0) empty++;
        f[0] = empty / 16.0;

        // f2: 平滑度（相邻非零格指数差越小越好）
        double smooth = 0;
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) {
                if (g[i][j] == 0) continue;
                int e = Integer.numberOfTrailingZeros(g[i][j]);   // log2
                if (j + 1 < 4 && g[i][j + 1] != 0)
                    smooth -= Math.abs(e - Integer.numberOfTrailingZeros(g[i][j + 1]));
                if (i + 1 < 4 && g[i + 1][j] != 0)
                    smooth -= Math.abs(e - Integer.numberOfTrailingZeros(g[i + 1][j]));
            }
        f[1] = smooth / 32.0;

        // f3: 单调性——对每种"行方向"与"列方向"组合，考察相邻指数的变化量，
        //     递增计正、递减计负，取 4 种方向组合中的最大值
        double best = Double.NEGATIVE_INFINITY;
        for (int d = 0; d < 4; d++) {
            double score = 0;
            for (int k = 0; k < 4; k++) {
                int prev = -1;
                for (int i = 0; i < 4; i++) {
                    int v = pick(g, d, k, i);      // 第 k 条线第 i 个格
                    if (v == 0) continue;
                    int e = Integer.numberOfTrailingZeros(v);
                    if (prev != -1) {
                        int diff = e - prev;
                        score += (diff >= 0) ? diff : -diff;   // 递增加分，递减扣分
                        score += (diff >= 0) ? 1 : -1;        // 轻微的"方向一致"奖励
                    }
                    prev = e;
                }
            }
            best = Math.max(best, score);
        }
        f[2] = best / 64.0;

        // f4: 最大块
        int max = 0;
        for (int[] row : g) for (int v : row) max = Math.max(max, v);
        f[3] = max < 2 ? 0.0 : Integer.numberOfTrailingZeros(max) / 15.0;

        // f5: 蛇形加权（大块越靠蛇头越好）
        double snake = 0;
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) {
                if (g[i][j] == 0) continue;
                snake += SNAKE[i * 4 + j] * Integer.numberOfTrailingZeros(g[i][j]);
            }
        f[4] = snake / 3000.0;

        // f6: 次大块是否与最大块相邻
        int second = 0;
        boolean maxSet = false;
        for (int[] row : g) for (int v : row) {
            if (v == max && !maxSet) { maxSet = true; continue; }
            second = Math.max(second, v);
        }
        f[5] = (second >= max / 2) ? 1.0 : 0.0;   // 次大块达到最大块的一半即算"就位"

        // f7: 大块靠边
        int edgeBig = 0;
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                if (g[i][j] >= max / 4 && (i == 0 || i == 3 || j == 0 || j == 3)) edgeBig++;
        f[6] = edgeBig / 8.0;

        // f8: 危险空格惩罚
        f[7] = empty <= 2 ? -1.0 : 0.0;
        return f;
    }

    private static int pick(int[][] g, int d, int k, int i) {
        switch (d) {
            case 0: return g[k][i];
            case 1: return g[k][3 - i];
            case 2: return g[i][k];
            default: return g[3 - i][k];
        }
    }

    /** 线性加权评估：w 为 8 维权重 */
    public static double evaluate(Board b, double[] w) {
        double[] f = features(b);
        double s = 0;
        for (int i = 0; i < 8; i++) s += w[i] * f[i];
        return s;
    }
}
