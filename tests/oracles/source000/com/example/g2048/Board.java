// Source 000 (seeds/000_3d3305328567f9eb.txt), lines 51-281: Board.java as published.
package com.example.g2048;

import java.util.Random;

/**
 * 2048 位棋盘引擎。
 * 每格 4 bit 存数字的指数（0 = 空，1 = 2，2 = 4 ... 11 = 2048）。
 * 一行 4 格 = 16 bit，整盘 4 行 = 64 bit，用一个 long 表示。
 */
public final class Board {

    /** 行左移合并查找表：每种 16 bit 行状态的结果行 */
    static final int[] ROW_LEFT = new int[65536];
    /** 行左移合并的得分表 */
    static final int[] ROW_SCORE = new int[65536];

    static {
        for (int row = 0; row < 65536; row++) {
            int[] line = new int[4];
            for (int i = 0; i < 4; i++) line[i] = (row >>> (i * 4)) & 0xF;

            // ① 把所有非零元素压到左边
            int[] packed = new int[4];
            int p = 0;
            for (int i = 0; i < 4; i++) if (line[i] != 0) packed[p++] = line[i];

            // ② 相邻同值合并（一次移动中每个格子最多参与一次合并）
            int score = 0;
            int[] merged = new int[4];
            int m = 0;
            for (int i = 0; i < 4; i++) {
                if (i + 1 < 4 && packed[i] != 0 && packed[i] == packed[i + 1]) {
                    int v = packed[i] + 1;              // 指数 +1 = 数字翻倍
                    merged[m++] = v;
                    score += 1 << v;                    // 得分 = 合并后的面值
                    i++;                                // 跳过配对的那一个
                } else if (packed[i] != 0) {
                    merged[m++] = packed[i];
                }
            }

            int out = 0;
            for (int i = 0; i < 4; i++) out |= (merged[i] & 0xF) << (i * 4);
            ROW_LEFT[row] = out;
            ROW_SCORE[row] = score;
        }
    }

    long board;       // 64 位棋盘
    int score;        // 累计得分
    final Random rnd;

    public Board(long seed) { this.rnd = new Random(seed); }

    Board(long board, int score, Random rnd) {
        this.board = board; this.score = score; this.rnd = rnd;
    }

    /** 提取第 i 行（0 = 最上）的 16 bit */
    private int row(int i) { return (int) ((board >>> (i * 16)) & 0xFFFFL); }

    /** 写回第 i 行 */
    private void setRow(int i, int v) {
        board = (board & ~(0xFFFFL << (i * 16))) | (((long) v & 0xFFFFL) << (i * 16));
    }

    /** 提取第 j 列的 16 bit（列压扁成一行表示） */
    private int col(int j) {
        int v = 0;
        for (int i = 0; i < 4; i++) v |= ((row(i) >>> (j * 4)) & 0xF) << (i * 4);
        return v;
    }

    private void setCol(int j, int v) {
        for (int i = 0; i < 4; i++) {
            int cur = row(i);
            int cell = (v >>> (i * 4)) & 0xF;
            cur = (cur & ~(0xF << (j * 4))) | (cell << (j * 4));
            setRow(i, cur);
        }
    }

    /** 向左移动，返回得分增量；-1 表示无变化（非法方向） */
    int moveLeft() {
        int delta = 0; boolean changed = false;
        for (int i = 0; i < 4; i++) {
            int r = row(i);
            int nr = ROW_LEFT[r];
            delta += ROW_SCORE[r];
            if (nr != r) { setRow(i, nr); changed = true; }
        }
        if (changed) score += delta;
        return changed ? delta : -1;
    }

    int moveRight() {
        int delta = 0; boolean changed = false;
        for (int i = 0; i < 4; i++) {
            int r = reverse16(row(i));
            int nr = ROW_LEFT[r];
            delta += ROW_SCORE[r];
            int rev = reverse16(nr);
            if (rev != row(i)) { setRow(i, rev); changed = true; }
        }
        if (changed) score += delta;
        return changed ? delta : -1;
    }

    int moveUp() {
        int delta = 0; boolean changed = false;
        for (int j = 0; j < 4; j++) {
            int c = col(j);
            int nc = ROW_LEFT[c];
            delta += ROW_SCORE[c];
            if (nc != c) { setCol(j, nc); changed = true; }
        }
        if (changed) score += delta;
        return changed ? delta : -1;
    }

    int moveDown() {
        int delta = 0; boolean changed = false;
        for (int j = 0; j < 4; j++) {
            int c = reverse16(col(j));
            int nc = ROW_LEFT[c];
            delta += ROW_SCORE[c];
            int back = reverse16(nc);
            if (back != col(j)) { setCol(j, back); changed = true; }
        }
        if (changed) score += delta;
        return changed ? delta : -1;
    }

    /** 把一行 16 bit 逆序（4 个 4 bit 块整体反转） */
    private static int reverse16(int v) {
        return ((v & 0xF) << 12) | ((v & 0xF0) << 4)
             | ((v & 0xF00) >>> 4) | ((v & 0xF000) >>> 12);
    }

    /** 在空格中随机放一个 2（90%）或 4（10%） */
    void spawn() {
        int[] empties = new int[16];
        int n = 0;
        for (int i = 0; i < 16; i++)
            if (((board >>> (i * 4)) & 0xF) == 0) empties[n++] = i;
        if (n == 0) return;
        int pos = empties[rnd.nextInt(n)];
        int val = rnd.nextInt(10) == 9 ? 2 : 1;   // 指数：2 = 数字 4
        board |= ((long) val) << (pos * 4);
    }

    /** 新开局：两个随机格 */
    static Board newGame(long seed) {
        Board b = new Board(seed);
        b.spawn(); b.spawn();
        return b;
    }

    Board copy(Random r) { return new Board(board, score, r); }

    boolean canMove() {
        for (int dir = 0; dir < 4; dir++) {
            Board t = copy(rnd);
            if (t.move(dir) >= 0) return true;
        }
        return false;
    }

    int move(int dir) {
        switch (dir) {
            case 0: return moveUp();
            case 1: return moveDown();
            case 2: return moveLeft();
            default: return moveRight();
        }
    }

    // ---------------- 四维特征 ----------------
    int cell(int i) { return (int) ((board >>> (i * 4)) & 0xF); }

    int emptyCount() {
        int z = 0;
        for (int i = 0; i < 16; i++) if (cell(i) == 0) z++;
        return z;
    }

    /** 单调性：每行每列两个方向分别累加"逆序差值"，取两方向较大者 */
    double monotonicity() {
        double[] totals = new double[4];  // 0:左→右 1:右→左 2:上→下 3:下→上
        for (int i = 0; i < 4; i++) {
            for (int k = 0; k < 3; k++) {
                int a = cell(i * 4 + k), b = cell(i * 4 + k + 1);
                if (a > b) totals[0] += Math.pow(4, a) - Math.pow(4, b);
                else if (b > a) totals[1] += Math.pow(4, b) - Math.pow(4, a);
            }
        }
        for (int j = 0; j < 4; j++) {
            for (int k = 0; k < 3; k++) {
                int a = cell(k * 4 + j), b = cell((k + 1) * 4 + j);
                if (a > b) totals[2] += Math.pow(4, a) - Math.pow(4, b);
                else if (b > a) totals[3] += Math.pow(4, b) - Math.pow(4, a);
            }
        }
        return Math.max(totals[0], totals[1]) + Math.max(totals[2], totals[3]);
    }

    /** 可合并对数（含未来一步可合并的同值相邻对） */
    int mergeCount() {
        int cnt = 0;
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 3; j++)
                if (cell(i * 4 + j) != 0 && cell(i * 4 + j) == cell(i * 4 + j + 1)) cnt++;
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 3; i++)
                if (cell(i * 4 + j) != 0 && cell(i * 4 + j) == cell((i + 1) * 4 + j)) cnt++;
        return cnt;
    }

    /** 最大数是否在四角之一 */
    boolean maxAtCorner() {
        int mx = 0, mi = 0;
        for (int i = 0; i < 16; i++) if (cell(i) > mx) { mx = cell(i); mi = i; }
        return mi == 0 || mi == 3 || mi == 12 || mi == 15;
    }

    int maxTile() {
        int mx = 0;
        for (int i = 0; i < 16; i++) mx = Math.max(mx, cell(i));
        return mx;
    }
}
