package io.tailstream.analysis.change;

import org.apache.commons.statistics.distribution.TDistribution;

/**
 * Two adjacent segments of a series, {@code [from, at)} before and {@code [at, to)} after a point, compared by a
 * two-sided Student's t-test with pooled variance, as Apache Otava's t-test significance tester computes it: the
 * segments' standard deviations are population ones (divided by {@code n}), pooled with weights {@code n - 1} over
 * {@code n1 + n2 - 2} degrees of freedom. Two single points have p-value 1; two constant segments of equal means have
 * p-value 1 (no evidence of a change), of different means 0. Immutable.
 *
 * @param from       first index of the segment before
 * @param at         first index of the segment after
 * @param to         end (exclusive) of the segment after
 * @param meanBefore mean of {@code [from, at)}
 * @param meanAfter  mean of {@code [at, to)}
 * @param stdBefore  population standard deviation of {@code [from, at)} (0 for one point)
 * @param stdAfter   population standard deviation of {@code [at, to)}
 * @param pValue     two-sided p-value of "the two means are equal"
 */
public record SegmentComparison(int from, int at, int to, double meanBefore, double meanAfter, double stdBefore,
                                double stdAfter, double pValue) {

    static SegmentComparison of(double[] series, int from, int at, int to) {
        if (!(from < at && at < to && to <= series.length)) {
            throw new IllegalArgumentException("segments [" + from + ", " + at + ") and [" + at + ", " + to
                    + ") of a series of " + series.length);
        }
        int n1 = at - from;
        int n2 = to - at;
        double m1 = mean(series, from, at);
        double m2 = mean(series, at, to);
        double s1 = n1 >= 2 ? populationStd(series, from, at, m1) : 0;
        double s2 = n2 >= 2 ? populationStd(series, at, to, m2) : 0;
        double p = 1;
        if (n1 + n2 > 2) {
            double df = n1 + n2 - 2.0;
            double pooled = ((n1 - 1) * s1 * s1 + (n2 - 1) * s2 * s2) / df;
            double denom = Math.sqrt(pooled * (1.0 / n1 + 1.0 / n2));
            double d = m1 - m2;
            if (denom == 0) {
                p = d == 0 ? 1 : 0;
            } else {
                p = 2 * TDistribution.of(df).survivalProbability(Math.abs(d / denom));
            }
        }
        return new SegmentComparison(from, at, to, m1, m2, s1, s2, p);
    }

    /** {@code after / before - 1}, 0 when the mean before is 0. */
    public double forwardChange() {
        return meanBefore == 0 ? 0 : meanAfter / meanBefore - 1;
    }

    /** {@code before / after - 1}, 0 when the mean after is 0. */
    public double backwardChange() {
        return meanAfter == 0 ? 0 : meanBefore / meanAfter - 1;
    }

    /** The larger of the two relative changes in absolute value: a halving and a doubling weigh the same. */
    public double magnitude() {
        return Math.max(Math.abs(forwardChange()), Math.abs(backwardChange()));
    }

    /** Points before. */
    public int pointsBefore() {
        return at - from;
    }

    /** Points after. */
    public int pointsAfter() {
        return to - at;
    }

    private static double mean(double[] s, int from, int to) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += s[i];
        }
        return sum / (to - from);
    }

    private static double populationStd(double[] s, int from, int to, double mean) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            double d = s[i] - mean;
            sum += d * d;
        }
        return Math.sqrt(sum / (to - from));
    }
}
