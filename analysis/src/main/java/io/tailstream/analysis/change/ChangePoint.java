package io.tailstream.analysis.change;

import io.tailstream.analysis.interval.Fieller;
import io.tailstream.analysis.interval.PercentInterval;

/**
 * A point where a series changed: {@code index} is the first point of the new segment; {@code segments} compares the
 * segment before it with the segment after it (each running to the neighbouring change point or the series' end).
 * Immutable.
 *
 * @param index    first index of the segment after the change
 * @param segments the segments on either side, their means and the t-test between them
 */
public record ChangePoint(int index, SegmentComparison segments) {

    /** Two-sided p-value of the t-test between the segments. */
    public double pValue() {
        return segments.pValue();
    }

    /** {@code meanAfter / meanBefore - 1} in percent. */
    public double changePct() {
        return segments.forwardChange() * 100;
    }

    /**
     * The change {@code meanAfter / meanBefore - 1}, in percent, with its confidence interval ({@link Fieller}:
     * the ratio of two independent means, Welch's degrees of freedom).
     */
    public PercentInterval change(double confidence) {
        SegmentComparison s = segments;
        return Fieller.ratioOfMeans(s.meanAfter(), sampleVariance(s.stdAfter(), s.pointsAfter()), s.pointsAfter(),
                s.meanBefore(), sampleVariance(s.stdBefore(), s.pointsBefore()), s.pointsBefore(), confidence);
    }

    /** The sample variance ({@code n - 1}) from a population standard deviation; NaN for one point. */
    private static double sampleVariance(double populationStd, int n) {
        return n < 2 ? Double.NaN : populationStd * populationStd * n / (n - 1);
    }
}
