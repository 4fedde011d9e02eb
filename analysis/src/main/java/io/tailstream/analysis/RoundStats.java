package io.tailstream.analysis;

import java.util.List;

/**
 * A figure over the rounds of one (target, workload, threads) group, each round computed alone: mean, sample
 * standard deviation, min, max and spread, in the figure's own unit (QPS, µs, ms, currency per 1,000 QPS). The
 * aggregator's run summary reports the first four; the report's verdicts compare spreads. Immutable and thread safe.
 *
 * @param count        rounds
 * @param mean         arithmetic mean of the rounds
 * @param sampleStdDev sample standard deviation (n - 1), or null with one round, where it is unknown
 */
public record RoundStats(int count, double mean, Double sampleStdDev, double min, double max) {

    /**
     * The statistics of {@code values}, one per round in round order.
     *
     * @throws IllegalArgumentException when there is no value
     */
    public static RoundStats of(double[] values) {
        int n = values.length;
        if (n == 0) {
            throw new IllegalArgumentException("round statistics need at least one round");
        }
        double sum = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double v : values) {
            sum += v;
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        double mean = sum / n;
        Double sd = null;
        if (n > 1) {
            // two passes: the squares are of deviations from the mean, never a difference of large sums
            double squares = 0;
            for (double v : values) {
                double d = v - mean;
                squares += d * d;
            }
            sd = Math.sqrt(squares / (n - 1));
        }
        return new RoundStats(n, mean, sd, min, max);
    }

    /** As {@link #of(double[])}, from a list. */
    public static RoundStats of(List<Double> values) {
        return of(values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** Round-to-round spread: max - min (0 with one round, where the spread is unknown rather than none). */
    public double spread() {
        return max - min;
    }

    /**
     * Coefficient of variation in percent: the sample standard deviation over the mean's size, the noise of a figure
     * measured in rounds. Null with one round (unknown); 0 when the mean is 0.
     */
    public Double cvPct() {
        if (sampleStdDev == null) {
            return null;
        }
        return mean == 0 ? 0.0 : sampleStdDev / Math.abs(mean) * 100;
    }
}
