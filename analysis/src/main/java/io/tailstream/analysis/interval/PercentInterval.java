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

    /**
     * Half the interval's width, in percentage points: a difference this large or larger would have shown (its
     * interval would not hold 0), so it is the smallest difference these data can detect. Null without bounds.
     */
    public Double smallestDetectablePct() {
        return bounded() ? (highPct - lowPct) / 2 : null;
    }

    /**
     * True if the difference is shown to lie above {@code pct}: the whole interval lies above it (without bounds,
     * the estimate does), and the estimate is larger in size than the measured noise.
     *
     * @param noisePct the figure's measured noise in percent (e.g. its coefficient of variation over rounds), or
     *                 null when unknown
     */
    public boolean above(double pct, Double noisePct) {
        return (bounded() ? lowPct : estimatePct) > pct && beyond(noisePct);
    }

    /** True if the difference is shown to lie below {@code pct}: as {@link #above}, mirrored. */
    public boolean below(double pct, Double noisePct) {
        return (bounded() ? highPct : estimatePct) < pct && beyond(noisePct);
    }

    private boolean beyond(Double noisePct) {
        return noisePct == null || Math.abs(estimatePct) > noisePct;
    }
}
