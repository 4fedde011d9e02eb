package io.tailstream.analysis.interval;

/**
 * A relative difference with its confidence interval, in percent: {@code candidate / base - 1}. Immutable.
 *
 * @param estimatePct the point estimate
 * @param lowPct      lower bound, or null when the interval has none (the base could be 0, or too few points)
 * @param highPct     upper bound, or null when the interval has none
 * @param confidence  the interval's confidence level, e.g. 0.95
 */
public record PercentInterval(double estimatePct, Double lowPct, Double highPct, double confidence) {

    public PercentInterval {
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence must be in (0, 1), was " + confidence);
        }
        if ((lowPct == null) != (highPct == null)) {
            throw new IllegalArgumentException("an interval has both bounds or neither, was [" + lowPct + ", "
                    + highPct + "]");
        }
        if (lowPct != null && !(lowPct <= highPct)) {
            throw new IllegalArgumentException("interval bounds out of order: [" + lowPct + ", " + highPct + "]");
        }
    }

    /** True if the interval has bounds. */
    public boolean bounded() {
        return lowPct != null;
    }

    /** True if the interval is bounded and holds 0: the data show no difference at this confidence. */
    public boolean coversZero() {
        return bounded() && lowPct <= 0 && highPct >= 0;
    }
}
