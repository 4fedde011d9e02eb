package io.tailstream.aggregator.window;

import java.util.Arrays;

/**
 * Dense latency counts indexed by {@link LatencyBuckets#indexOf} (HdrHistogram's own bucket arithmetic) plus the list
 * of indexes touched, so recording is an index computation and an increment while reading, merging and resetting cost
 * O(touched buckets), never O(all 23,221 buckets). The counts array (186 KB) is allocated once and recycled through a
 * {@link BucketPool}, never per window.
 *
 * <p>Not thread safe: one stage-1 task owns it.
 */
final class BucketCounts {

    private final long[] counts = new long[LatencyBuckets.COUNT];
    /** Indexes with a non-zero count, in first-touch order; {@code touchedSize} of them are valid. */
    private int[] touched = new int[256];
    private int touchedSize;
    private long total;

    void add(int index) {
        if (counts[index]++ == 0) {
            touch(index);
        }
        total++;
    }

    void add(int index, long n) {
        if (counts[index] == 0) {
            touch(index);
        }
        counts[index] += n;
        total += n;
    }

    /** Adds every count of {@code other}. */
    void addAll(BucketCounts other) {
        for (int i = 0; i < other.touchedSize; i++) {
            int index = other.touched[i];
            add(index, other.counts[index]);
        }
    }

    long total() {
        return total;
    }

    /** The non-empty buckets in ascending order, named by their lowest equivalent value. */
    SparseHistogram toSparse() {
        if (touchedSize == 0) {
            return SparseHistogram.EMPTY;
        }
        Arrays.sort(touched, 0, touchedSize);
        long[] buckets = new long[touchedSize];
        long[] bucketCounts = new long[touchedSize];
        for (int i = 0; i < touchedSize; i++) {
            buckets[i] = LatencyBuckets.bucketAt(touched[i]);
            bucketCounts[i] = counts[touched[i]];
        }
        return SparseHistogram.of(buckets, bucketCounts, touchedSize);
    }

    void reset() {
        for (int i = 0; i < touchedSize; i++) {
            counts[touched[i]] = 0;
        }
        touchedSize = 0;
        total = 0;
    }

    private void touch(int index) {
        if (touchedSize == touched.length) {
            touched = Arrays.copyOf(touched, touchedSize * 2);
        }
        touched[touchedSize++] = index;
    }
}
