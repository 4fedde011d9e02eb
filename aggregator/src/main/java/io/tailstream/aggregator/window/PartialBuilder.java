package io.tailstream.aggregator.window;

import io.tailstream.schemas.block.SampleStatus;
import java.util.Arrays;

/**
 * The mutable counters of one scope and window while stage 1 combines blocks: dense bucket counts indexed by
 * {@link LatencyBuckets#indexOf} (HdrHistogram's own bucket arithmetic, so the figures are those of a
 * {@code LatencyHistograms} histogram fed the same latencies) plus the list of buckets touched, and the counters of
 * a {@link WindowAggregate}. Recording a sample is an index computation and an increment; building the partial,
 * merging builders and resetting cost O(touched buckets), never O(all 23,221 buckets). When the combined partial is
 * sent, {@link #build} turns it into a {@link WindowAggregate} and {@link #reset} readies the builder for reuse (its
 * 186 KB counts array is recycled, never reallocated per window).
 *
 * <p>Not thread safe: one stage-1 task owns it.
 */
public final class PartialBuilder {

    private static final int STATUS_CODES = SampleStatus.MAX_CODE + 1;
    private static final int OK = SampleStatus.OK.code();

    private final long[] counts = new long[LatencyBuckets.COUNT];
    /** Indexes with a non-zero count, in first-touch order; {@code touchedSize} of them are valid. */
    private int[] touched = new int[256];
    private int touchedSize;
    private long totalCount;
    private final long[] errorsByCode = new long[STATUS_CODES];
    private long queries;
    private long warmupCount;
    private long heartbeats;
    private long blocks;

    /** One transaction that completed in this builder's window. */
    public void record(long latencyMicros, int statusCode, int queryCount, boolean warmup) {
        add(LatencyBuckets.indexOf(latencyMicros), 1);
        if (statusCode != OK) {
            errorsByCode[statusCode]++;
        }
        queries += queryCount;
        if (warmup) {
            warmupCount++;
        }
    }

    /** A producer of the scope's step was alive in the window. */
    public void addHeartbeat() {
        heartbeats++;
    }

    /** Blocks received (only the step's "all ops" scope counts them, see {@link WindowAggregate#blocks()}). */
    public void addBlocks(long n) {
        blocks += n;
    }

    /**
     * Adds another builder's samples (latencies, errors, queries, warm-up), but not its heartbeats or blocks: how the
     * ops of a window roll up into its "all ops" partial.
     */
    public void addSamplesOf(PartialBuilder op) {
        for (int i = 0; i < op.touchedSize; i++) {
            int index = op.touched[i];
            add(index, op.counts[index]);
        }
        for (int i = 0; i < STATUS_CODES; i++) {
            errorsByCode[i] += op.errorsByCode[i];
        }
        queries += op.queries;
        warmupCount += op.warmupCount;
    }

    /** True if nothing was added since the last {@link #reset}. */
    public boolean isEmpty() {
        return totalCount == 0 && heartbeats == 0 && blocks == 0;
    }

    /** The partial of this builder's content for a scope; the builder is unchanged. */
    public WindowAggregate build(String runId, int stepId, String op) {
        long errors = 0;
        for (long n : errorsByCode) {
            errors += n; // OK samples are not counted here
        }
        return WindowAggregate.restore(runId, stepId, op, errors, queries, warmupCount, 0, heartbeats, 0, blocks,
                errorsByCode, sparse());
    }

    /** Empties the builder for reuse. */
    public void reset() {
        for (int i = 0; i < touchedSize; i++) {
            counts[touched[i]] = 0;
        }
        touchedSize = 0;
        totalCount = 0;
        Arrays.fill(errorsByCode, 0);
        queries = 0;
        warmupCount = 0;
        heartbeats = 0;
        blocks = 0;
    }

    private void add(int index, long n) {
        if (counts[index] == 0) {
            if (touchedSize == touched.length) {
                touched = Arrays.copyOf(touched, touchedSize * 2);
            }
            touched[touchedSize++] = index;
        }
        counts[index] += n;
        totalCount += n;
    }

    /** The non-empty buckets in ascending order, named by their lowest equivalent value. */
    private SparseHistogram sparse() {
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
}
