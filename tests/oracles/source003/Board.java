// Source 003 (seeds/003_36d42016eb695257.txt), lines 13-99: Board as published.
public class Board {
    private final int[][] grid = new int[4][4];
    private long score;

    public Board copy() {
        Board b = new Board();
        for (int i = 0; i < 4; i++) System.arraycopy(grid[i], 0, b.grid[i], 0, 4);
        b.score = score;
        return b;
    }

    /** 向左压缩+合并一行，返回合并得分；in 长度 4 */
    private int slideLeft(int[] in, int[] out) {
        java.util.Arrays.fill(out, 0, 4, 0);          // 先清空，避免残留旧值
        int idx = 0, gained = 0;
        for (int v : in) if (v != 0) out[idx++] = v;   // 压缩
        for (int i = 0; i + 1 < 4; i++) {
            if (out[i] != 0 && out[i] == out[i + 1]) {  // 相邻相同则合并
                out[i] *= 2;
                out[i + 1] = 0;
                gained += out[i];
                i++;                                    // 跳过已合并的块
            }
        }
        // 再次压缩填平合并产生的空洞
        int j = 0;
        for (int v : out) if (v != 0) out[j++] = v;
        for (int k = j; k < 4; k++) out[k] = 0;
        return gained;
    }

    /** dir: 0=左 1=右 2=上 3=下；返回是否发生了移动 */
    public boolean move(int dir) {
        int[] line = new int[4], res = new int[4];
        boolean moved = false;
        int total = 0;
        for (int k = 0; k < 4; k++) {
            // 按方向抽取第 k 条线
            for (int i = 0; i < 4; i++) {
                switch (dir) {
                    case 0: line[i] = grid[k][i];        break;
                    case 1: line[i] = grid[k][3 - i];    break;
                    case 2: line[i] = grid[i][k];        break;
                    default: line[i] = grid[3 - i][k];   break;
                }
            }
            int gained = slideLeft(line, res);           // line -> res
            total += gained;
            for (int i = 0; i < 4; i++) if (line[i] != res[i]) moved = true;
            // 写回
            for (int i = 0; i < 4; i++) {
                switch (dir) {
                    case 0: grid[k][i]   = res[i]; break;
                    case 1: grid[k][3 - i] = res[i]; break;
                    case 2: grid[i][k]   = res[i]; break;
                    default: grid[3 - i][k] = res[i]; break;
                }
            }
        }
        if (moved) score += total;
        return moved;
    }

    /** 在空格中随机放一个 2（90%）或 4（10%） */
    public void spawn(java.util.Random rnd) {
        int cnt = 0;
        for (int i = 0; i < 4; i++) for (int j = 0; j < 4; j++) if (grid[i][j] == 0) cnt++;
        if (cnt == 0) return;
        int target = rnd.nextInt(cnt);
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                if (grid[i][j] == 0 && target-- == 0) {
                    grid[i][j] = rnd.nextDouble() < 0.9 ? 2 : 4;
                    return;
                }
    }

    public boolean canMove(int dir) {
        Board b = copy();
        return b.move(dir);
    }

    public int value(int r, int c) { return grid[r][c]; }

    /** 直接写入某格（供前瞻搜索模拟随机方块落点） */
    public void set(int r, int c, int v) { grid[r][c] = v; }
}
