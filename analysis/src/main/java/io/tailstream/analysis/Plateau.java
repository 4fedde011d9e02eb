package io.tailstream.analysis;

import java.util.List;

/**
 * When a concurrency sweep stops rising: the peak-QPS method (raise the thread count until QPS no longer rises,
 * report the peak and where it was reached). In sweep order (ascending threads), a level whose QPS gains less than
 * {@code minGainPct} percent over the best QPS of the lower levels is flat; {@code patience} flat levels in a row make
 * the plateau. It began at the level that held that best QPS when the deciding run of flat levels started: the last
 * level the curve rose to (the knee). The producer stops a (target, workload) sweep there ({@link #reached}); the
 * aggregator's run summary reports where it began ({@link #begin}). Immutable and thread safe.
 *
 * @param minGainPct least QPS gain, in percent of the best lower level, that counts as still rising (e.g. 5)
 * @param patience   flat levels in a row that make the plateau (1: the first flat level)
 */
public record Plateau(double minGainPct, int patience) {

    /** The rule when a plan sets none: 5 % (the documented example), one flat level. */
    public static final Plateau DEFAULT = new Plateau(5.0, 1);

    public Plateau {
        String problem = problem(minGainPct, patience);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }

    /**
     * The rule, or null when a value is out of range: for values read from an event rather than a validated plan,
     * which a reader takes as absent.
     */
    public static Plateau ifValid(double minGainPct, int patience) {
        return problem(minGainPct, patience) == null ? new Plateau(minGainPct, patience) : null;
    }

    private static String problem(double minGainPct, int patience) {
        if (!(minGainPct >= 0 && minGainPct <= 100_000)) {
            return "plateau minGainPct must be in 0..100000, was " + minGainPct;
        }
        if (patience < 1 || patience > 100) {
            return "plateau patience must be in 1..100, was " + patience;
        }
        return null;
    }

    /**
     * Whether the levels measured so far make a plateau. The producer asks after each level of a sweep and stops at
     * the first yes, so the last level is then the one that completed the deciding run of flat levels.
     *
     * @param levelQps the mean QPS of each level's rounds, in sweep order
     */
    public boolean reached(List<Double> levelQps) {
        return begin(levelQps) >= 0;
    }

    /**
     * Index into {@code levelQps} (one QPS per level, ascending threads) of the level where the plateau began, or -1
     * if the levels never made one.
     */
    public int begin(List<Double> levelQps) {
        int flat = 0;
        int base = -1;
        double best = Double.NaN;
        int bestIndex = -1;
        for (int i = 0; i < levelQps.size(); i++) {
            double q = levelQps.get(i);
            if (bestIndex < 0) {
                best = q;
                bestIndex = i;
                continue;
            }
            if (q < best * (1 + minGainPct / 100.0)) {
                if (flat == 0) {
                    base = bestIndex;
                }
                flat++;
                if (flat >= patience) {
                    return base;
                }
            } else {
                flat = 0;
            }
            if (q > best) {
                best = q;
                bestIndex = i;
            }
        }
        return -1;
    }
}
