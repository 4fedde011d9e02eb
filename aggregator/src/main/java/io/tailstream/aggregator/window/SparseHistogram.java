package io.tailstream.aggregator.window;

import io.tailstream.schemas.histogram.LatencyHistograms;
import java.util.Arrays;
import org.HdrHistogram.Histogram;

/**
 * The non-empty buckets of a latency histogram: ascending bucket keys ({@link LatencyBuckets#bucketOf}) with their
 * counts. This is the form partials and window aggregates travel and rest in.
 *
 * <p>Why not an HdrHistogram: a {@link LatencyHistograms#create()} histogram is 23,552 counters (189 KB), and its
 * serde round trip costs 12-190 µs on 2 cores. A block's partial holds at most a few hundred distinct buckets and a
 * one-second window a few thousand, so a sorted sparse list serializes in O(non-empty buckets) with a handful of
 * varint bytes each, merges in one linear pass, and allocates nothing in proportion to the histogram's range. The
 * HdrHistogram is built only once per emitted window ({@link #toHistogram()}), with exactly the same counts per
 * bucket, hence exactly the same percentiles.
 *
 * <p>Immutable and thread safe.
 */
final class SparseHistogram {

    public static final SparseHistogram EMPTY = new SparseHistogram(new long[0], new long[0], 0, 0);

    private final long[] buckets;
    private final long[] counts;
    private final int size;
    private final long totalCount;

    private SparseHistogram(long[] buckets, long[] counts, int size, long totalCount) {
        this.buckets = buckets;
        this.counts = counts;
        this.size = size;
        this.totalCount = totalCount;
    }

    /**
     * Run-length encodes ascending bucket keys (one per sample, duplicates adjacent).
     *
     * @param sortedBuckets bucket keys sorted ascending; only the first {@code n} are read
     */
    public static SparseHistogram ofSortedBuckets(long[] sortedBuckets, int n) {
        if (n == 0) {
            return EMPTY;
        }
        long[] b = new long[n];
        long[] c = new long[n];
        int size = 0;
        long prev = sortedBuckets[0];
        long run = 0;
        for (int i = 0; i < n; i++) {
            long v = sortedBuckets[i];
            if (v < prev) {
                throw new IllegalArgumentException("bucket keys not ascending at index " + i + ": " + v + " after " + prev);
            }
            if (v != prev) {
                b[size] = prev;
                c[size++] = run;
                prev = v;
                run = 0;
            }
            run++;
        }
        b[size] = prev;
        c[size++] = run;
        return new SparseHistogram(b, c, size, n);
    }

    /**
     * A histogram from bucket keys and counts as stored (see {@code WindowAggregateSerde}).
     *
     * @throws IllegalArgumentException if keys are not strictly ascending or a count is not positive
     */
    public static SparseHistogram of(long[] buckets, long[] counts, int size) {
        long total = 0;
        for (int i = 0; i < size; i++) {
            if (counts[i] <= 0) {
                throw new IllegalArgumentException("bucket " + buckets[i] + " has count " + counts[i]);
            }
            if (i > 0 && buckets[i] <= buckets[i - 1]) {
                throw new IllegalArgumentException("bucket keys not strictly ascending at index " + i);
            }
            total = Math.addExact(total, counts[i]);
        }
        return size == 0 ? EMPTY : new SparseHistogram(buckets, counts, size, total);
    }

    /** The union of both histograms' counts; one linear merge. */
    public SparseHistogram merge(SparseHistogram other) {
        if (other.size == 0) {
            return this;
        }
        if (size == 0) {
            return other;
        }
        long[] b = new long[size + other.size];
        long[] c = new long[size + other.size];
        int i = 0;
        int j = 0;
        int k = 0;
        while (i < size && j < other.size) {
            long x = buckets[i];
            long y = other.buckets[j];
            if (x < y) {
                b[k] = x;
                c[k++] = counts[i++];
            } else if (y < x) {
                b[k] = y;
                c[k++] = other.counts[j++];
            } else {
                b[k] = x;
                c[k++] = counts[i++] + other.counts[j++];
            }
        }
        while (i < size) {
            b[k] = buckets[i];
            c[k++] = counts[i++];
        }
        while (j < other.size) {
            b[k] = other.buckets[j];
            c[k++] = other.counts[j++];
        }
        return new SparseHistogram(b, c, k, totalCount + other.totalCount);
    }

    /** Number of non-empty buckets. */
    public int size() {
        return size;
    }

    /** Number of recorded latencies. */
    public long totalCount() {
        return totalCount;
    }

    /** Bucket key at {@code index} (0 ≤ index < size), ascending. */
    public long bucketAt(int index) {
        return buckets[index];
    }

    /** Count at {@code index}. */
    public long countAt(int index) {
        return counts[index];
    }

    /** A new {@link LatencyHistograms#create()} histogram holding these counts (allocates ~190 KB). */
    public Histogram toHistogram() {
        Histogram h = LatencyHistograms.create();
        for (int i = 0; i < size; i++) {
            h.recordValueWithCount(buckets[i], counts[i]);
        }
        return h;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SparseHistogram s
                && size == s.size
                && Arrays.equals(buckets, 0, size, s.buckets, 0, size)
                && Arrays.equals(counts, 0, size, s.counts, 0, size);
    }

    @Override
    public int hashCode() {
        int h = size;
        for (int i = 0; i < size; i++) {
            h = 31 * h + Long.hashCode(buckets[i]);
            h = 31 * h + Long.hashCode(counts[i]);
        }
        return h;
    }

    @Override
    public String toString() {
        return "SparseHistogram{buckets=" + size + ", count=" + totalCount + "}";
    }
}
