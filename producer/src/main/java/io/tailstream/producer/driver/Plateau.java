package io.tailstream.producer.driver;

import java.util.List;

/**
 * When a concurrency sweep stops: the peak-QPS method (raise the thread count until QPS no longer rises, report
 * the peak and where it was reached). After each thread count, the mean QPS of its rounds is compared with the best
 * mean QPS of the lower thread counts; a level that gains less than {@code minGainPct} percent over it counts as
 * flat, and after {@code patience} flat levels in a row the sweep of that (target, workload) stops. Immutable.
 *
 * @param minGainPct least QPS gain, in percent of the best lower level, that counts as still rising (e.g. 5)
 * @param patience   flat levels in a row that end the sweep (1: stop at the first flat level)
 */
public record Plateau(double minGainPct, int patience) {

    public Plateau {
        if (!(minGainPct >= 0 && minGainPct <= 100_000)) {
            throw new IllegalArgumentException("plateau minGainPct must be in 0..100000, was " + minGainPct);
        }
        if (patience < 1 || patience > 100) {
            throw new IllegalArgumentException("plateau patience must be in 1..100, was " + patience);
        }
    }

    /**
     * Whether a sweep whose levels so far measured {@code meanQps} (one value per thread count, in sweep order)
     * should stop.
     */
    public boolean reached(List<Double> meanQps) {
        int flat = 0;
        double best = Double.NaN;
        for (double qps : meanQps) {
            if (Double.isNaN(best)) {
                best = qps;
                continue;
            }
            if (qps < best * (1 + minGainPct / 100.0)) {
                flat++;
            } else {
                flat = 0;
            }
            best = Math.max(best, qps);
        }
        return flat >= patience;
    }

    /** Gain of {@code qps} over {@code previousBest}, percent. */
    public static double gainPct(double previousBest, double qps) {
        return previousBest > 0 ? (qps / previousBest - 1) * 100.0 : Double.POSITIVE_INFINITY;
    }
}
