package io.tailstream.analysis.change;

/**
 * How {@link ChangePointDetector} decides that a series changed. Immutable; validated when built.
 *
 * @param maxPValue    a change point is kept only while the two-sample t-test of the segments on either side gives a
 *                     p-value below this (default 0.001)
 * @param minMagnitude a change point is kept only if the larger of {@code after / before - 1} and
 *                     {@code before / after - 1} (in absolute value) exceeds this fraction (default 0: any size)
 * @param minSegment   fewest points a segment between change points may hold (default 3): a change needs that many
 *                     runs on each side, so a single outlier, or two, is never a change
 * @param windowLength points of the sliding windows the first pass searches (default 50; at least 2)
 * @param perLength    divide {@code maxPValue} by {@code n / windowLength} for a series of {@code n} points longer
 *                     than a window (default on). Each window is another chance of a false change point: without
 *                     this, the share of unchanged series with one grows with their length (at the other defaults,
 *                     simulated: 1.9% of 50 runs, 4.3% of 100, 6.4% of 200); with it, it stays near the 50-run
 *                     figure (2.0% and 1.6%). Off gives Apache Otava's
 *                     results.
 */
public record ChangePointSettings(double maxPValue, double minMagnitude, int minSegment, int windowLength,
                                  boolean perLength) {

    /** p-value 0.001, no minimum magnitude, segments of at least 3 points, windows of 50, threshold per length. */
    public static final ChangePointSettings DEFAULTS = new ChangePointSettings(0.001, 0, 3, 50, true);

    /** Apache Otava's {@code compute_change_points} with these settings (no minimum segment, no length scaling). */
    public static ChangePointSettings otava(int windowLength, double maxPValue, double minMagnitude) {
        return new ChangePointSettings(maxPValue, minMagnitude, 1, windowLength, false);
    }

    public ChangePointSettings {
        if (!(maxPValue > 0 && maxPValue <= 1)) {
            throw new IllegalArgumentException("max p-value must be in (0, 1], was " + maxPValue);
        }
        if (!(minMagnitude >= 0) || Double.isInfinite(minMagnitude)) {
            throw new IllegalArgumentException("minimum magnitude must be a fraction >= 0, was " + minMagnitude);
        }
        if (minSegment < 1) {
            throw new IllegalArgumentException("minimum segment must be at least 1 point, was " + minSegment);
        }
        if (windowLength < 2) {
            throw new IllegalArgumentException("window length must be at least 2 points, was " + windowLength);
        }
    }

    public ChangePointSettings withMaxPValue(double p) {
        return new ChangePointSettings(p, minMagnitude, minSegment, windowLength, perLength);
    }

    public ChangePointSettings withMinMagnitude(double magnitude) {
        return new ChangePointSettings(maxPValue, magnitude, minSegment, windowLength, perLength);
    }

    public ChangePointSettings withMinSegment(int points) {
        return new ChangePointSettings(maxPValue, minMagnitude, points, windowLength, perLength);
    }

    /**
     * The p-value threshold for a series of {@code points}: {@code maxPValue}, divided by
     * {@code points / windowLength} when {@code perLength} and the series is longer than a window.
     */
    public double pValueThreshold(int points) {
        return perLength && points > windowLength ? maxPValue * windowLength / points : maxPValue;
    }

}
