package io.tailstream.aggregator.window;

import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.WindowStats;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The counters and latency buckets of one scope (run, step, op) over one window: both the partial that stage 1
 * computes from one block (or one heartbeat, or one end-of-step tick) and the aggregate stage 2 merges partials
 * into. Merging is associative and commutative, so partials from any number of producers, blocks and partitions
 * merge into the same figures in any order.
 *
 * <p>Besides samples, an aggregate counts the markers merged into it: a {@linkplain #heartbeats() heartbeat}
 * means a producer was alive in the window (so a window with count 0 is a real, reportable stall), a
 * {@linkplain #ticks() tick} only moves stream time forward at the end of a step. A window that holds nothing but
 * ticks is not {@linkplain #emittable() emitted}.
 *
 * <p>Mutable and not thread safe: an instance belongs to one stream task at a time.
 */
public final class WindowAggregate {

    private static final int STATUS_CODES = SampleStatus.MAX_CODE + 1;

    private String runId;
    private int stepId;
    private String op;
    private long errors;
    private long queries;
    private long warmupCount;
    private long lateCount;
    private long heartbeats;
    private long ticks;
    private long blocks;
    private final long[] errorsByCode;
    private SparseHistogram latencies;

    /** An empty aggregate without a scope; the scope is taken from the first partial merged into it. */
    public WindowAggregate() {
        this.errorsByCode = new long[STATUS_CODES];
        this.latencies = SparseHistogram.EMPTY;
    }

    /** An empty aggregate of a scope. */
    public WindowAggregate(String runId, int stepId, String op) {
        this();
        this.runId = Objects.requireNonNull(runId, "runId");
        this.stepId = stepId;
        this.op = Objects.requireNonNull(op, "op");
    }

    /** All fields, as read back by {@link WindowAggregateSerde}; {@code errorsByCode} has 16 entries. */
    static WindowAggregate restore(String runId, int stepId, String op, long errors, long queries, long warmupCount,
                                   long lateCount, long heartbeats, long ticks, long blocks, long[] errorsByCode,
                                   SparseHistogram latencies) {
        WindowAggregate a = runId == null ? new WindowAggregate() : new WindowAggregate(runId, stepId, op);
        a.errors = errors;
        a.queries = queries;
        a.warmupCount = warmupCount;
        a.lateCount = lateCount;
        a.heartbeats = heartbeats;
        a.ticks = ticks;
        a.blocks = blocks;
        System.arraycopy(errorsByCode, 0, a.errorsByCode, 0, STATUS_CODES);
        a.latencies = latencies;
        return a;
    }

    /** A partial that only says a producer of the step was alive in the window. */
    public static WindowAggregate heartbeat(String runId, int stepId, String op) {
        WindowAggregate a = new WindowAggregate(runId, stepId, op);
        a.heartbeats = 1;
        return a;
    }

    /** A partial that only advances stream time (end of step); never creates an output window on its own. */
    public static WindowAggregate tick(String runId, int stepId, String op) {
        WindowAggregate a = new WindowAggregate(runId, stepId, op);
        a.ticks = 1;
        return a;
    }

    /**
     * A partial of samples.
     *
     * @param errorsByCode errors per {@link SampleStatus#code()}; copied
     */
    public static WindowAggregate ofSamples(String runId, int stepId, String op, SparseHistogram latencies,
                                            long[] errorsByCode, long queries, long warmupCount) {
        WindowAggregate a = new WindowAggregate(runId, stepId, op);
        a.latencies = latencies;
        long errors = 0;
        for (int code = 0; code < STATUS_CODES; code++) {
            if (code != SampleStatus.OK.code()) {
                a.errorsByCode[code] = errorsByCode[code];
                errors += errorsByCode[code];
            }
        }
        a.errors = errors;
        a.queries = queries;
        a.warmupCount = warmupCount;
        return a;
    }

    /**
     * Adds another aggregate of the same scope into this one.
     *
     * @return this
     * @throws IllegalArgumentException if the scopes differ
     */
    public WindowAggregate mergeFrom(WindowAggregate other) {
        if (runId == null) {
            runId = other.runId;
            stepId = other.stepId;
            op = other.op;
        } else if (other.runId != null
                && (stepId != other.stepId || !runId.equals(other.runId) || !op.equals(other.op))) {
            throw new IllegalArgumentException("cannot merge scope " + other.scopeKey() + " into " + scopeKey());
        }
        return addCountsOf(other);
    }

    /**
     * Adds another aggregate's counters and latencies, whatever its scope: how an op's partial rolls up into the
     * step's "all ops" partial of the same window.
     *
     * @return this
     */
    public WindowAggregate addCountsOf(WindowAggregate other) {
        errors += other.errors;
        queries += other.queries;
        warmupCount += other.warmupCount;
        lateCount += other.lateCount;
        heartbeats += other.heartbeats;
        ticks += other.ticks;
        blocks += other.blocks;
        for (int i = 0; i < STATUS_CODES; i++) {
            errorsByCode[i] += other.errorsByCode[i];
        }
        latencies = latencies.merge(other.latencies);
        return this;
    }

    /** True if the window had samples or a heartbeat: windows made only of end-of-step ticks are not reported. */
    public boolean emittable() {
        return count() > 0 || heartbeats > 0;
    }

    /**
     * The window's stats as the contract's JSON event; builds one HdrHistogram (this is the once-per-window cost).
     */
    public WindowStats toWindowStats(long windowStartEpochMs, long windowEndEpochMs) {
        if (runId == null) {
            throw new IllegalStateException("an aggregate without scope has no window stats");
        }
        Map<String, Long> byClass = new LinkedHashMap<>();
        for (SampleStatus s : SampleStatus.values()) {
            long n = errorsByCode[s.code()];
            if (n > 0) {
                byClass.put(s.label(), n);
            }
        }
        return WindowStats.of(runId, stepId, op, windowStartEpochMs, windowEndEpochMs, latencies.toHistogram(),
                errors, byClass, queries, warmupCount, lateCount);
    }

    public String scopeKey() {
        return runId == null ? "<no scope>" : WindowStats.scopeKey(runId, stepId, op);
    }

    public String runId() {
        return runId;
    }

    public int stepId() {
        return stepId;
    }

    public String op() {
        return op;
    }

    /** Samples completed in the window. */
    public long count() {
        return latencies.totalCount();
    }

    public long errors() {
        return errors;
    }

    /** Errors of one status code; a copy-free read for tests and summaries. */
    public long errorsOf(SampleStatus status) {
        return errorsByCode[status.code()];
    }

    long[] errorsByCodeView() {
        return errorsByCode;
    }

    public long queries() {
        return queries;
    }

    public long warmupCount() {
        return warmupCount;
    }

    public long lateCount() {
        return lateCount;
    }

    public long heartbeats() {
        return heartbeats;
    }

    public long ticks() {
        return ticks;
    }

    /**
     * Sample blocks (data, heartbeat and end-of-step) received for the step, counted once per block in the step's
     * "all ops" scope: summed over a step and compared with the producers' {@code StepEnded.blocksSent}, it tells
     * how many blocks were lost.
     */
    public long blocks() {
        return blocks;
    }

    /**
     * Adds received blocks to this (partial) aggregate.
     *
     * @return this
     */
    public WindowAggregate addBlocks(long n) {
        blocks += n;
        return this;
    }

    /**
     * Marks every sample of this aggregate as late (it arrived after its window closed): its late count becomes its
     * sample count.
     *
     * @return this
     */
    public WindowAggregate markLate() {
        lateCount = count();
        return this;
    }

    public SparseHistogram latencies() {
        return latencies;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WindowAggregate a
                && Objects.equals(runId, a.runId) && stepId == a.stepId && Objects.equals(op, a.op)
                && errors == a.errors && queries == a.queries && warmupCount == a.warmupCount
                && lateCount == a.lateCount && heartbeats == a.heartbeats && ticks == a.ticks && blocks == a.blocks
                && Arrays.equals(errorsByCode, a.errorsByCode) && latencies.equals(a.latencies);
    }

    @Override
    public int hashCode() {
        return Objects.hash(runId, stepId, op, errors, queries, latencies);
    }

    @Override
    public String toString() {
        return "WindowAggregate{" + scopeKey() + ", count=" + count() + ", errors=" + errors + ", queries=" + queries
                + ", heartbeats=" + heartbeats + ", ticks=" + ticks + ", buckets=" + latencies.size() + "}";
    }
}
