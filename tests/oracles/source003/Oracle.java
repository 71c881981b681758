// The test's harness around source 003's Board and Evaluator (not part of the source).
// Arguments: the eight weights. Reads lines "board seed" (g2048's 64-bit word in hex: cell (r, c)
// holds the rank at bit 16 r + 4 c; the source's Board holds tile values) and prints per line
// the direction that the source's greedy step chooses, as the loops of
// CrossEntropyTuner.simulate and Train.main write it (move, spawn(r), evaluate; the first best),
// with r = new Random(seed), in g2048's numbering (0 up, 1 down, 2 left, 3 right), then the value
// of each direction without the spawn (evaluate of the moved board), in g2048's order,
// -Infinity where the move is illegal.
import java.io.*;
import java.util.Random;

class Oracle {
    static final int[] G2048_DIRECTION = {2, 3, 0, 1};  // the source's 0 left 1 right 2 up 3 down

    public static void main(String[] args) throws Exception {
        double[] w = new double[8];
        for (int k = 0; k < 8; k++) w[k] = Double.parseDouble(args[k]);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out)));
        String line;
        while ((line = in.readLine()) != null) {
            String[] parts = line.trim().split(" ");
            long board = Long.parseUnsignedLong(parts[0], 16);
            Random r = new Random(Long.parseLong(parts[1]));
            Board b = new Board();
            for (int i = 0; i < 16; i++) {
                int rank = (int) ((board >>> (4 * i)) & 0xF);
                b.set(i / 4, i % 4, rank == 0 ? 0 : 1 << rank);
            }
            // the greedy step of simulate and Train, as published
            double bs = Double.NEGATIVE_INFINITY; int bd = -1;
            for (int d = 0; d < 4; d++) {
                Board nb = b.copy();
                if (!nb.move(d)) continue;
                nb.spawn(r);
                double v = Evaluator.evaluate(nb, w);
                if (v > bs) { bs = v; bd = d; }
            }
            double[] values = new double[4];
            for (int d = 0; d < 4; d++) {
                Board nb = b.copy();
                values[G2048_DIRECTION[d]] = nb.move(d)
                        ? Evaluator.evaluate(nb, w) : Double.NEGATIVE_INFINITY;
            }
            StringBuilder row = new StringBuilder().append(G2048_DIRECTION[bd]);
            for (double v : values) row.append(' ').append(v);
            out.println(row);
        }
        out.flush();
    }
}
