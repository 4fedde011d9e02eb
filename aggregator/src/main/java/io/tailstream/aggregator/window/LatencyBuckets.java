package io.tailstream.aggregator.window;

import io.tailstream.schemas.histogram.LatencyHistograms;
import org.HdrHistogram.Histogram;

/**
 * Maps a latency to its HdrHistogram bucket in the contract's configuration ({@link LatencyHistograms}: µs,
 * 3 significant digits, range one hour), without recording it anywhere.
 *
 * <p>A bucket is named by its lowest equivalent value. Recording that value into a
 * {@link LatencyHistograms#create()} histogram lands in the same bucket as recording the original latency, so
 * percentiles, mean and max computed from bucket keys are identical to those of a histogram fed the raw latencies.
 *
 * <p>Thread safe: the template histogram is only used for its (immutable) bucket arithmetic, never recorded into.
 */
public final class LatencyBuckets {

    private static final Histogram TEMPLATE = LatencyHistograms.create();

    private LatencyBuckets() {}

    /**
     * The bucket key of a latency, clamped to 0..{@link LatencyHistograms#HIGHEST_TRACKABLE_MICROS} as
     * {@link LatencyHistograms#record} does.
     */
    public static long bucketOf(long latencyMicros) {
        long clamped = Math.min(Math.max(0, latencyMicros), LatencyHistograms.HIGHEST_TRACKABLE_MICROS);
        return TEMPLATE.lowestEquivalentValue(clamped);
    }

    /** The value HdrHistogram reports for a percentile that falls in this latency's bucket. */
    public static long highestEquivalentValue(long latencyMicros) {
        long clamped = Math.min(Math.max(0, latencyMicros), LatencyHistograms.HIGHEST_TRACKABLE_MICROS);
        return TEMPLATE.highestEquivalentValue(clamped);
    }
}
