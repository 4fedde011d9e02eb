package io.tailstream.schemas.histogram;

import org.HdrHistogram.Histogram;

/**
 * The latency figures tailstream reports from one histogram (µs): mean, P50 … P99.99 and max, each percentile the
 * value HdrHistogram gives for the nearest rank (the top of that value's bucket, within 10^-3). All 0 for an empty
 * histogram, never NaN. Immutable.
 */
public record LatencyFigures(double meanMicros, long p50Micros, long p90Micros, long p95Micros, long p99Micros,
                             long p999Micros, long p9999Micros, long maxMicros) {

    /** The figures of no sample. */
    public static final LatencyFigures NONE = new LatencyFigures(0, 0, 0, 0, 0, 0, 0, 0);

    public static LatencyFigures of(Histogram h) {
        if (h == null || h.getTotalCount() == 0) {
            return NONE;
        }
        return new LatencyFigures(h.getMean(), h.getValueAtPercentile(50), h.getValueAtPercentile(90),
                h.getValueAtPercentile(95), h.getValueAtPercentile(99), h.getValueAtPercentile(99.9),
                h.getValueAtPercentile(99.99), h.getMaxValue());
    }
}
