package io.tailstream.aggregator.window;

import io.tailstream.schemas.block.SampleStatus;
import java.util.Arrays;

/**
 * The mutable counters of one scope and window while stage 1 combines blocks: latency counts per HdrHistogram bucket
 * ({@link BucketCounts}) kept apart by outcome and phase — successful measured samples, failed measured samples,
 * successful warm-up samples, failed warm-up samples — and the counters of a {@link WindowAggregate}. A successful
 * measured sample, by far the most common, costs an index computation and one increment into a set the builder owns;
 * the other three sets are taken from a {@link BucketPool} only when such a sample first occurs in the window
 * (failures are rare, warm-up samples confined to the first windows of a step), so each sample still goes through
 * exactly one increment. When the combined partial is sent, {@link #build} turns it into a {@link WindowAggregate}
 * and {@link #reset} readies the builder for reuse (its 186 KB counts array is recycled, never reallocated per
 * window; the borrowed sets go back to the pool).
 *
 * <p>Not thread safe: one stage-1 task owns it.
 */
public final class PartialBuilder {

    private static final int STATUS_CODES = SampleStatus.MAX_CODE + 1;
    private static final int OK = SampleStatus.OK.code();

    private final BucketPool pool;
    private final BucketCounts measuredOk = new BucketCounts();
    /** Borrowed from the pool on first use, null until then. */
    private BucketCounts measuredFailed;
    private BucketCounts warmupOk;
    private BucketCounts warmupFailed;
    private final long[] measuredErrors = new long[STATUS_CODES];
    private final long[] warmupErrors = new long[STATUS_CODES];
    /**
     * Statements that succeeded, as sysbench's read/write/other counters count them: all of a successful sample's,
     * all but the failing last one of a failed sample's. The failing ones are counted apart, so the two add up to
     * every statement sent.
     */
    private long measuredOkQueries;
    private long measuredFailedQueries;
    private long warmupOkQueries;
    private long warmupFailedQueries;
    private long heartbeats;
    private long blocks;

    /** A builder that borrows its rarely used bucket sets from {@code pool} (shared by the task's builders). */
    public PartialBuilder(BucketPool pool) {
        this.pool = pool;
    }

    /** A builder with a pool of its own. */
    public PartialBuilder() {
        this(new BucketPool());
    }

    /** One transaction that completed in this builder's window. */
    public void record(long latencyMicros, int statusCode, int queryCount, boolean warmup) {
        int index = LatencyBuckets.indexOf(latencyMicros);
        if (statusCode == OK) {
            if (!warmup) {
                measuredOk.add(index);
                measuredOkQueries += queryCount;
            } else {
                BucketCounts set = warmupOk;
                if (set == null) {
                    warmupOk = set = pool.acquire();
                }
                set.add(index);
                warmupOkQueries += queryCount;
            }
        } else {
            recordFailed(index, statusCode, queryCount, warmup);
        }
    }

    /** A failed sample: into a bucket set of its own, borrowed when the first one occurs. */
    private void recordFailed(int index, int statusCode, int queryCount, boolean warmup) {
        if (!warmup) {
            BucketCounts set = measuredFailed;
            if (set == null) {
                measuredFailed = set = pool.acquire();
            }
            set.add(index);
            measuredErrors[statusCode]++;
            // the statements before the failing one succeeded: they count as sysbench counts them
            measuredOkQueries += Math.max(0, queryCount - 1);
            measuredFailedQueries += Math.min(queryCount, 1);
        } else {
            BucketCounts set = warmupFailed;
            if (set == null) {
                warmupFailed = set = pool.acquire();
            }
            set.add(index);
            warmupErrors[statusCode]++;
            warmupOkQueries += Math.max(0, queryCount - 1);
            warmupFailedQueries += Math.min(queryCount, 1);
        }
    }

    private BucketCounts borrowed(BucketCounts set) {
        return set != null ? set : pool.acquire();
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
     * Adds another builder's samples (latencies, errors, queries, by outcome and phase), but not its heartbeats or
     * blocks: how the ops of a window roll up into its "all ops" partial.
     */
    public void addSamplesOf(PartialBuilder op) {
        measuredOk.addAll(op.measuredOk);
        if (op.measuredFailed != null) {
            measuredFailed = borrowed(measuredFailed);
            measuredFailed.addAll(op.measuredFailed);
        }
        if (op.warmupOk != null) {
            warmupOk = borrowed(warmupOk);
            warmupOk.addAll(op.warmupOk);
        }
        if (op.warmupFailed != null) {
            warmupFailed = borrowed(warmupFailed);
            warmupFailed.addAll(op.warmupFailed);
        }
        for (int i = 0; i < STATUS_CODES; i++) {
            measuredErrors[i] += op.measuredErrors[i];
            warmupErrors[i] += op.warmupErrors[i];
        }
        measuredOkQueries += op.measuredOkQueries;
        measuredFailedQueries += op.measuredFailedQueries;
        warmupOkQueries += op.warmupOkQueries;
        warmupFailedQueries += op.warmupFailedQueries;
    }

    /** True if nothing was added since the last {@link #reset}. */
    public boolean isEmpty() {
        return measuredOk.total() == 0 && measuredFailed == null && warmupOk == null && warmupFailed == null
                && heartbeats == 0 && blocks == 0;
    }

    /** The partial of this builder's content for a scope; the builder is unchanged. */
    public WindowAggregate build(String runId, int stepId, String op) {
        PhaseSamples measured = new PhaseSamples(measuredOk.toSparse(), sparse(measuredFailed),
                measuredErrors, measuredOkQueries, measuredFailedQueries);
        PhaseSamples warmup = new PhaseSamples(sparse(warmupOk), sparse(warmupFailed),
                warmupErrors, warmupOkQueries, warmupFailedQueries);
        return WindowAggregate.restore(runId, stepId, op, measured, warmup, 0, heartbeats, 0, blocks);
    }

    /** Empties the builder for reuse; the borrowed bucket sets go back to the pool. */
    public void reset() {
        measuredOk.reset();
        measuredFailed = giveBack(measuredFailed);
        warmupOk = giveBack(warmupOk);
        warmupFailed = giveBack(warmupFailed);
        Arrays.fill(measuredErrors, 0);
        Arrays.fill(warmupErrors, 0);
        measuredOkQueries = 0;
        measuredFailedQueries = 0;
        warmupOkQueries = 0;
        warmupFailedQueries = 0;
        heartbeats = 0;
        blocks = 0;
    }

    private BucketCounts giveBack(BucketCounts set) {
        if (set != null) {
            pool.release(set);
        }
        return null;
    }

    private static SparseHistogram sparse(BucketCounts set) {
        return set == null ? SparseHistogram.EMPTY : set.toSparse();
    }
}
