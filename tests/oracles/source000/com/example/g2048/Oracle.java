// The test's harness around source 000's classes (not part of the source). Arguments: the four
// weights. Reads lines "depth board seed" (the board as g2048's 64-bit word in hex: the
// source's Board packs its cells the same way) and prints per line the direction that
// Expectimax.bestMove chooses as published (0 up, 1 down, 2 left, 3 right, as g2048 numbers
// them; it spawns a tile from new Random(seed) after each root move), then the value of each
// direction without that spawn, expect(moved board, depth - 1) through reflection (it is
// private), -Infinity where the move is illegal.
package com.example.g2048;

import java.io.*;
import java.lang.reflect.Method;
import java.util.Random;

final class Oracle {
    public static void main(String[] args) throws Exception {
        double[] weights = new double[4];
        for (int k = 0; k < 4; k++) weights[k] = Double.parseDouble(args[k]);
        Method expect = Expectimax.class.getDeclaredMethod("expect", Board.class, int.class);
        expect.setAccessible(true);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out)));
        String line;
        while ((line = in.readLine()) != null) {
            String[] parts = line.trim().split(" ");
            int depth = Integer.parseInt(parts[0]);
            long seed = Long.parseLong(parts[2]);
            Board root = new Board(Long.parseUnsignedLong(parts[1], 16), 0, new Random(seed));
            StringBuilder row = new StringBuilder();
            row.append(new Expectimax(weights, depth, seed).bestMove(root));
            Expectimax unspawned = new Expectimax(weights, depth, seed);
            for (int d = 0; d < 4; d++) {
                Board b = root.copy(root.rnd);
                double value = b.move(d) < 0
                        ? Double.NEGATIVE_INFINITY
                        : (double) expect.invoke(unspawned, b, depth - 1);
                row.append(' ').append(value);
            }
            out.println(row);
        }
        out.flush();
    }
}
