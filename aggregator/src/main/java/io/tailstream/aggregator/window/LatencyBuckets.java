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

    // HdrHistogram's bucket arithmetic for the contract's configuration (lowest discernible value 1 µs, 3 significant
    // digits): 2,048 sub-buckets per power of two, the upper half of each new. Checked against TEMPLATE in tests.
    private static final int SUB_BUCKET_HALF_COUNT_MAGNITUDE = 10;
    private static final int SUB_BUCKET_HALF_COUNT = 1 << SUB_BUCKET_HALF_COUNT_MAGNITUDE;
    private static final long SUB_BUCKET_MASK = (2L << SUB_BUCKET_HALF_COUNT_MAGNITUDE) - 1;
    private static final int LEADING_ZERO_COUNT_BASE = 64 - SUB_BUCKET_HALF_COUNT_MAGNITUDE - 1;

    /** Number of bucket indexes: {@link #indexOf} returns 0 ≤ index &lt; COUNT for every latency. */
    public static final int COUNT = indexOf(LatencyHistograms.HIGHEST_TRACKABLE_MICROS) + 1;

    private LatencyBuckets() {}

    /**
     * The dense index of a latency's bucket (HdrHistogram's counts-array index), latency clamped as in
     * {@link #bucketOf}; {@code bucketAt(indexOf(v)) == bucketOf(v)}.
     */
    public static int indexOf(long latencyMicros) {
        long v = Math.min(Math.max(0, latencyMicros), LatencyHistograms.HIGHEST_TRACKABLE_MICROS);
        int bucketIndex = LEADING_ZERO_COUNT_BASE - Long.numberOfLeadingZeros(v | SUB_BUCKET_MASK);
        int subBucketIndex = (int) (v >>> bucketIndex);
        return ((bucketIndex + 1) << SUB_BUCKET_HALF_COUNT_MAGNITUDE) + (subBucketIndex - SUB_BUCKET_HALF_COUNT);
    }

    /** The bucket key (lowest equivalent value, µs) of a dense index from {@link #indexOf}. */
    public static long bucketAt(int index) {
        int bucketIndex = (index >> SUB_BUCKET_HALF_COUNT_MAGNITUDE) - 1;
        int subBucketIndex = (index & (SUB_BUCKET_HALF_COUNT - 1)) + SUB_BUCKET_HALF_COUNT;
        if (bucketIndex < 0) {
            subBucketIndex -= SUB_BUCKET_HALF_COUNT;
            bucketIndex = 0;
        }
        return (long) subBucketIndex << bucketIndex;
    }

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
