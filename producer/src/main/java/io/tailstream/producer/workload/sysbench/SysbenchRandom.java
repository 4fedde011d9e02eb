package io.tailstream.producer.workload.sysbench;

import java.util.SplittableRandom;

/**
 * sysbench 1.0.20's random numbers ({@code sb_rand.c}): the uniform, gaussian, special and Pareto distributions
 * over {@code [a, b]} with the same floating-point formulas and truncations, and {@code sysbench.rand.string}
 * templates. Only the uniform source differs (sysbench uses xoroshiro128+, this uses {@link SplittableRandom}):
 * both give doubles uniform in [0, 1).
 *
 * <p>Owned by one worker thread; not thread safe.
 */
final class SysbenchRandom {

    /** Doubles uniform in [0, 1). */
    @FunctionalInterface
    public interface UniformSource {
        double nextDouble();
    }

    private enum Kind { UNIFORM, GAUSSIAN, SPECIAL, PARETO }

    private final UniformSource rnd;
    private final Kind kind;
    private final int iter;
    private final double iterMult;
    private final double pctMult;
    private final double pct2Mult;
    private final double resMult;
    private final double paretoPower;

    public SysbenchRandom(SysbenchOptions o, UniformSource source) {
        this.rnd = source;
        this.kind = Kind.valueOf(o.randType().toUpperCase(java.util.Locale.ROOT));
        this.iter = o.randSpecIter();
        this.iterMult = 1.0 / o.randSpecIter();
        this.pctMult = o.randSpecPct() / 100.0;
        this.pct2Mult = o.randSpecPct() / 200.0;
        this.resMult = 100.0 / (100.0 - o.randSpecRes());
        this.paretoPower = Math.log(o.randParetoH()) / Math.log(1.0 - o.randParetoH());
    }

    /** A generator seeded deterministically. */
    public static SysbenchRandom seeded(SysbenchOptions o, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        return new SysbenchRandom(o, r::nextDouble);
    }

    /** {@code sysbench.rand.default(a, b)}: the distribution chosen by {@code rand_type}. */
    public long next(long a, long b) {
        switch (kind) {
            case SPECIAL:
                return special(a, b);
            case UNIFORM:
                return uniform(a, b);
            case GAUSSIAN:
                return gaussian(a, b);
            default:
                return pareto(a, b);
        }
    }

    /** {@code sb_rand_uniform}: {@code a + rnd * (b - a + 1)}, truncated. */
    public long uniform(long a, long b) {
        return a + (long) (rnd.nextDouble() * (b - a + 1));
    }

    /** {@code sb_rand_gaussian}: the mean of {@code rand_spec_iter} uniform draws over the range. */
    public long gaussian(long a, long b) {
        double t = b - a + 1;
        double sum = 0;
        for (int i = 0; i < iter; i++) {
            sum += rnd.nextDouble() * t;
        }
        return a + (long) (sum * iterMult);
    }

    /**
     * {@code sb_rand_special}: with probability {@code (100 - rand_spec_res)%} a gaussian value over the range;
     * otherwise a value in the {@code rand_spec_pct}% of the range around its centre. Like sysbench, the second
     * case reuses the first uniform draw, so only its upper part of the special range is reachable.
     */
    public long special(long a, long b) {
        double t = b - a;
        double rangeSize = t * resMult;
        double u = rnd.nextDouble();
        double res = u * rangeSize;
        if (res < t) {
            double sum = 0;
            for (int i = 0; i < iter; i++) {
                sum += rnd.nextDouble();
            }
            return a + (long) (sum * t * iterMult);
        }
        double d = t * pctMult;
        res = u * (d + 1);
        res += t / 2 - t * pct2Mult;
        return a + (long) res;
    }

    /** {@code sb_rand_pareto}: {@code a + (b - a + 1) * rnd^(log h / log(1 - h))}, truncated. */
    public long pareto(long a, long b) {
        return a + (long) ((b - a + 1) * Math.pow(rnd.nextDouble(), paretoPower));
    }

    /** {@code sysbench.rand.string}: every {@code #} becomes a random digit, every {@code @} a random letter. */
    public String string(String template) {
        char[] out = new char[template.length()];
        for (int i = 0; i < out.length; i++) {
            char ch = template.charAt(i);
            if (ch == '#') {
                out[i] = (char) uniform('0', '9');
            } else if (ch == '@') {
                out[i] = (char) uniform('a', 'z');
            } else {
                out[i] = ch;
            }
        }
        return new String(out);
    }
}
