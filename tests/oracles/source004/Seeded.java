// Not part of the source: the one generator that the source's board copies and playouts draw
// from where the source makes an unseeded `new Random()` (repairs marked in Game2048,
// MonteCarloAI and HybridAI). A harness seeds it (setSeed) before each decision: the same
// uniform numbers as the source's fresh generators, drawn in the source's order, and
// reproducible (g2048.engine.javarng draws them in numba).
import java.util.Random;

class Seeded {
    static final Random RANDOM = new Random(0);
}
