package io.tailstream.aggregator.window;

import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.util.Arrays;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * The mutable counters of one scope and window while stage 1 combines blocks: a latency histogram recorded into
 * directly (one {@code recordValue} per sample, no allocation) and the counters of a {@link WindowAggregate}. When
 * the combined partial is sent, {@link #build} turns it into an immutable-histogram {@link WindowAggregate} and
 * {@link #reset} readies the builder for reuse: its 189 KB histogram ({@link LatencyHistograms#create()}) is
 * recycled, never reallocated per window.
 *
 * <p>Not thread safe: one stage-1 task owns it.
 */
public final class PartialBuilder {

    private static final int STATUS_CODES = SampleStatus.MAX_CODE + 1;
    private static final int OK = SampleStatus.OK.code();

    private final Histogram latencies = LatencyHistograms.create();
    private final long[] errorsByCode = new long[STATUS_CODES];
    private long queries;
    private long warmupCount;
    private long heartbeats;
    private long blocks;
    /** Reused by {@link #sparse()}; grows to the largest bucket count seen. */
    private long[] scratchBuckets = new long[256];
    private long[] scratchCounts = new long[256];

    /** One transaction that completed in this builder's window. */
    public void record(long latencyMicros, int statusCode, int queryCount, boolean warmup) {
        latencies.recordValue(Math.min(Math.max(0, latencyMicros), LatencyHistograms.HIGHEST_TRACKABLE_MICROS));
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
     * Adds another builder's samples (histogram, errors, queries, warm-up), but not its heartbeats or blocks: how the
     * ops of a window roll up into its "all ops" partial.
     */
    public void addSamplesOf(PartialBuilder op) {
        if (op.latencies.getTotalCount() > 0) {
            latencies.add(op.latencies);
        }
        for (int i = 0; i < STATUS_CODES; i++) {
            errorsByCode[i] += op.errorsByCode[i];
        }
        queries += op.queries;
        warmupCount += op.warmupCount;
    }

    /** True if nothing was added since the last {@link #reset}. */
    public boolean isEmpty() {
        return latencies.getTotalCount() == 0 && heartbeats == 0 && blocks == 0;
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
        latencies.reset();
        Arrays.fill(errorsByCode, 0);
        queries = 0;
        warmupCount = 0;
        heartbeats = 0;
        blocks = 0;
    }

    /** The non-empty buckets, named by their lowest equivalent value as {@link LatencyBuckets#bucketOf} names them. */
    private SparseHistogram sparse() {
        long total = latencies.getTotalCount();
        if (total == 0) {
            return SparseHistogram.EMPTY;
        }
        int n = 0;
        for (HistogramIterationValue v : latencies.recordedValues()) {
            if (n == scratchBuckets.length) {
                scratchBuckets = Arrays.copyOf(scratchBuckets, n * 2);
                scratchCounts = Arrays.copyOf(scratchCounts, n * 2);
            }
            scratchBuckets[n] = latencies.lowestEquivalentValue(v.getValueIteratedTo());
            scratchCounts[n++] = v.getCountAtValueIteratedTo();
        }
        return SparseHistogram.of(Arrays.copyOf(scratchBuckets, n), Arrays.copyOf(scratchCounts, n), n);
    }
}
