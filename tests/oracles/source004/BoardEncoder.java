// Source 004 (seeds/004_03293983111fb9a2.txt), lines 311-355, transcribed as published.

/**
 * 棋盘位运算工具类
 * 将4×4棋盘编码为一个long（64位），每个格子4位
 * 布局：行优先，从左上到右下
 */
class BoardEncoder {
    private static final int BITS_PER_CELL = 4;
    private static final int CELL_MASK = 0xF;  // 4位全1

    /**
     * 从二维数组编码为long
     */
    public static long encode(int[][] board) {
        long encoded = 0;
        for (int i = 0; i < Game2048.SIZE; i++) {
            for (int j = 0; j < Game2048.SIZE; j++) {
                int shift = (i * Game2048.SIZE + j) * BITS_PER_CELL;
                encoded |= ((long) board[i][j] & CELL_MASK) << shift;
            }
        }
        return encoded;
    }

    /**
     * 从long解码为二维数组
     */
    public static int[][] decode(long encoded) {
        int[][] board = new int[Game2048.SIZE][Game2048.SIZE];
        for (int i = 0; i < Game2048.SIZE; i++) {
            for (int j = 0; j < Game2048.SIZE; j++) {
                int shift = (i * Game2048.SIZE + j) * BITS_PER_CELL;
                board[i][j] = (int) ((encoded >>> shift) & CELL_MASK);
            }
        }
        return board;
    }

    /**
     * 获取指定格子的值
     */
    public static int getCell(long encoded, int row, int col) {
        int shift = (row * Game2048.SIZE + col) * BITS_PER_CELL;
        return (int) ((encoded >>> shift) & CELL_MASK);
    }
}
