// Source 004 (seeds/004_03293983111fb9a2.txt), lines 52-305, transcribed as published: the
// post's prose between its members is left out where marked. Added: the import (the post
// shows none; the class uses Random, List and ArrayList). Repaired, where marked: a board copy's
// unseeded Random is Seeded.RANDOM, which a harness can seed (only playouts draw from copies).
import java.util.*;

/**
 * 2048 棋盘类
 */
class Game2048 {
    public static final int SIZE = 4;  // 4×4棋盘
    public static final int TARGET = 11;  // 2^11 = 2048 为目标

    private int[][] board;  // board[i][j] 存储指数，0表示空
    private int score;      // 当前得分
    private Random random;

    public Game2048() {
        board = new int[SIZE][SIZE];
        score = 0;
        random = new Random();
        // 初始生成两个方块
        addRandomTile();
        addRandomTile();
    }

    /**
     * 私有构造函数，用于复制棋盘
     */
    private Game2048(int[][] board, int score) {
        this.board = new int[SIZE][SIZE];
        for (int i = 0; i < SIZE; i++) {
            System.arraycopy(board[i], 0, this.board[i], 0, SIZE);
        }
        this.score = score;
        this.random = Seeded.RANDOM;  // repaired: was new Random(), unseedable
    }

    /**
     * 复制当前棋盘
     */
    public Game2048 copy() {
        return new Game2048(board, score);
    }

    /**
     * 在随机空位添加新方块
     * 90%概率生成2（指数1），10%概率生成4（指数2）
     */
    public void addRandomTile() {
        List<int[]> emptyCells = getEmptyCells();
        if (emptyCells.isEmpty()) return;

        int[] cell = emptyCells.get(random.nextInt(emptyCells.size()));
        // 90%概率为2，10%概率为4
        board[cell[0]][cell[1]] = random.nextDouble() < 0.9 ? 1 : 2;
    }

    /**
     * 获取所有空格子
     */
    public List<int[]> getEmptyCells() {
        List<int[]> empty = new ArrayList<>();
        for (int i = 0; i < SIZE; i++) {
            for (int j = 0; j < SIZE; j++) {
                if (board[i][j] == 0) {
                    empty.add(new int[]{i, j});
                }
            }
        }
        return empty;
    }

    /**
     * 方向枚举
     */
    enum Direction {
        UP, DOWN, LEFT, RIGHT
    }

    // [the post's prose, lines 127-135, left out: a section heading and text]

    /**
     * 执行滑动操作
     * @param direction 滑动方向
     * @return 是否发生了有效移动（棋盘有变化）
     */
    public boolean move(Direction direction) {
        int[][] oldBoard = new int[SIZE][SIZE];
        for (int i = 0; i < SIZE; i++) {
            System.arraycopy(board[i], 0, oldBoard[i], 0, SIZE);
        }

        int oldScore = score;

        switch (direction) {
            case LEFT:
                moveLeft();
                break;
            case RIGHT:
                moveRight();
                break;
            case UP:
                moveUp();
                break;
            case DOWN:
                moveDown();
                break;
        }

        // 检查棋盘是否发生变化
        boolean changed = false;
        for (int i = 0; i < SIZE; i++) {
            for (int j = 0; j < SIZE; j++) {
                if (board[i][j] != oldBoard[i][j]) {
                    changed = true;
                    break;
                }
            }
            if (changed) break;
        }

        return changed;
    }

    /**
     * 向左滑动
     */
    private void moveLeft() {
        for (int row = 0; row < SIZE; row++) {
            // 提取当前行的非零元素
            List<Integer> line = new ArrayList<>();
            for (int col = 0; col < SIZE; col++) {
                if (board[row][col] != 0) {
                    line.add(board[row][col]);
                }
            }

            // 合并相邻相同的元素
            List<Integer> merged = new ArrayList<>();
            int i = 0;
            while (i < line.size()) {
                if (i + 1 < line.size() && line.get(i).equals(line.get(i + 1))) {
                    // 合并：指数+1（数值翻倍）
                    int newValue = line.get(i) + 1;
                    merged.add(newValue);
                    score += (1 << newValue);  // 累加得分：2^newValue
                    i += 2;
                } else {
                    merged.add(line.get(i));
                    i++;
                }
            }

            // 写回行（后面补0）
            for (int col = 0; col < SIZE; col++) {
                board[row][col] = col < merged.size() ? merged.get(col) : 0;
            }
        }
    }

    /**
     * 向右滑动（利用向左滑动的镜像）
     */
    private void moveRight() {
        // 先水平翻转
        flipHorizontal();
        moveLeft();
        flipHorizontal();
    }

    /**
     * 向上滑动（转置后向左滑动，再转置回来）
     */
    private void moveUp() {
        transpose();
        moveLeft();
        transpose();
    }

    /**
     * 向下滑动（转置后向右滑动，再转置回来）
     */
    private void moveDown() {
        transpose();
        moveRight();
        transpose();
    }

    /**
     * 水平翻转棋盘
     */
    private void flipHorizontal() {
        for (int i = 0; i < SIZE; i++) {
            for (int j = 0; j < SIZE / 2; j++) {
                int temp = board[i][j];
                board[i][j] = board[i][SIZE - 1 - j];
                board[i][SIZE - 1 - j] = temp;
            }
        }
    }

    /**
     * 转置棋盘（行列互换）
     */
    private void transpose() {
        for (int i = 0; i < SIZE; i++) {
            for (int j = i + 1; j < SIZE; j++) {
                int temp = board[i][j];
                board[i][j] = board[j][i];
                board[j][i] = temp;
            }
        }
    }

    /**
     * 检查游戏是否结束（无法移动且无空位）
     */
    public boolean isGameOver() {
        if (!getEmptyCells().isEmpty()) return false;

        // 检查是否有相邻相同的方块
        for (int i = 0; i < SIZE; i++) {
            for (int j = 0; j < SIZE; j++) {
                int val = board[i][j];
                // 检查右边
                if (j + 1 < SIZE && board[i][j + 1] == val) return false;
                // 检查下边
                if (i + 1 < SIZE && board[i + 1][j] == val) return false;
            }
        }

        return true;
    }

    /**
     * 检查是否达到目标（2048）
     */
    public boolean hasWon() {
        for (int i = 0; i < SIZE; i++) {
            for (int j = 0; j < SIZE; j++) {
                if (board[i][j] >= TARGET) return true;
            }
        }
        return false;
    }

    // Getter方法
    public int getScore() { return score; }
    public int getTile(int row, int col) { return board[row][col]; }
    public int[][] getBoard() { return board; }
}
