package io.tailstream.aggregator.window;

import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.WindowPart;
import io.tailstream.schemas.event.WindowStats;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The counters and latency buckets of one scope (run, step, op) over one window: both the partial that stage 1
 * computes from the blocks it combined (or one heartbeat, or one end-of-step tick) and the aggregate stage 2 merges
 * partials into. Merging is associative and commutative, so partials from any number of producers, blocks and
 * partitions merge into the same figures in any order.
 *
 * <p>Samples are kept in two phases ({@link PhaseSamples}), measured (warm-up flag clear) and warm-up, each with
 * successful and failed samples' latencies apart, so the window's {@link WindowStats} (version 2) describes successful
 * work and carries the measured samples of a window that mixes both phases exactly.
 *
 * <p>Besides samples, an aggregate counts the markers merged into it: a {@linkplain #heartbeats() heartbeat}
 * means a producer was alive in the window (so a window with count 0 is a real, reportable stall), a
 * {@linkplain #ticks() tick} only moves stream time forward at the end of a step. A window that holds nothing but
 * ticks is not {@linkplain #emittable() emitted}.
 *
 * <p>Mutable and not thread safe: an instance belongs to one stream task at a time.
 */
public final class WindowAggregate {

    private String runId;
    private int stepId;
    private String op;
    private final PhaseSamples measured;
    private final PhaseSamples warmup;
    private long lateCount;
    private long heartbeats;
    private long ticks;
    private long blocks;
    /** Producers whose blocks (data, heartbeats, end-of-step markers) went into this partial; never null. */
    private Set<String> producers = Set.of();

    /** An empty aggregate without a scope; the scope is taken from the first partial merged into it. */
    public WindowAggregate() {
        this(null, 0, null, new PhaseSamples(), new PhaseSamples(), 0, 0, 0, 0);
    }

    /** An empty aggregate of a scope. */
    public WindowAggregate(String runId, int stepId, String op) {
        this(Objects.requireNonNull(runId, "runId"), stepId, Objects.requireNonNull(op, "op"), new PhaseSamples(),
                new PhaseSamples(), 0, 0, 0, 0);
    }

    private WindowAggregate(String runId, int stepId, String op, PhaseSamples measured, PhaseSamples warmup,
                            long lateCount, long heartbeats, long ticks, long blocks) {
        this.runId = runId;
        this.stepId = stepId;
        this.op = op;
        this.measured = measured;
        this.warmup = warmup;
        this.lateCount = lateCount;
        this.heartbeats = heartbeats;
        this.ticks = ticks;
        this.blocks = blocks;
    }

    /** All fields, as built by {@link PartialBuilder} or read back by {@link WindowAggregateSerde}. */
    static WindowAggregate restore(String runId, int stepId, String op, PhaseSamples measured, PhaseSamples warmup,
                                   long lateCount, long heartbeats, long ticks, long blocks) {
        if (runId != null) {
            Objects.requireNonNull(op, "op");
        }
        return new WindowAggregate(runId, stepId, op, measured, warmup, lateCount, heartbeats, ticks, blocks);
    }

    /** A partial that only says a producer of the step was alive in the window. */
    public static WindowAggregate heartbeat(String runId, int stepId, String op) {
        return markers(runId, stepId, op, 1, 0);
    }

    /** A partial that only advances stream time (end of step); never creates an output window on its own. */
    public static WindowAggregate tick(String runId, int stepId, String op) {
        return markers(runId, stepId, op, 0, 1);
    }

    /** An end-of-step tick that carries the end of the given producers. */
    public static WindowAggregate tick(String runId, int stepId, String op, Set<String> producers) {
        return tick(runId, stepId, op).withProducers(producers);
    }

    /** A partial of a scope without samples: only heartbeats and end-of-step ticks. */
    private static WindowAggregate markers(String runId, int stepId, String op, long heartbeats, long ticks) {
        return restore(Objects.requireNonNull(runId, "runId"), stepId, op, new PhaseSamples(), new PhaseSamples(), 0,
                heartbeats, ticks, 0);
    }

    /**
     * A partial of samples of one phase.
     *
     * @param successful    successful samples' latencies
     * @param failed        failed samples' latencies
     * @param errorsByCode  errors per {@link SampleStatus#code()}; copied
     * @param okQueries     statements of the successful samples
     * @param failedQueries statements of the failed samples
     * @param warmup        the samples are warm-up samples (else measured)
     */
    public static WindowAggregate ofSamples(String runId, int stepId, String op, SparseHistogram successful,
                                            SparseHistogram failed, long[] errorsByCode, long okQueries,
                                            long failedQueries, boolean warmup) {
        PhaseSamples samples = new PhaseSamples(successful, failed, errorsByCode, okQueries, failedQueries);
        Objects.requireNonNull(runId, "runId");
        return restore(runId, stepId, op, warmup ? new PhaseSamples() : samples, warmup ? samples : new PhaseSamples(),
                0, 0, 0, 0);
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
        measured.add(other.measured);
        warmup.add(other.warmup);
        lateCount += other.lateCount;
        heartbeats += other.heartbeats;
        ticks += other.ticks;
        blocks += other.blocks;
        if (!other.producers.isEmpty() && !producers.containsAll(other.producers)) {
            Set<String> union = new TreeSet<>(producers);
            union.addAll(other.producers);
            producers = union;
        }
        return this;
    }

    /** True if the window had samples or a heartbeat: windows made only of end-of-step ticks are not reported. */
    public boolean emittable() {
        return count() > 0 || heartbeats > 0;
    }

    /**
     * The window's stats as the contract's JSON event (version 2); builds the window's HdrHistograms (this is the
     * once-per-window cost): the successful samples', and, only when there are any, the failed samples' and the
     * measured part's of a window that mixes warm-up and measured samples.
     */
    public WindowStats toWindowStats(long windowStartEpochMs, long windowEndEpochMs) {
        if (runId == null) {
            throw new IllegalStateException("an aggregate without scope has no window stats");
        }
        SparseHistogram failed = failedLatencies();
        WindowPart measuredPart = measured.count() > 0 && warmup.count() > 0 ? measured.toPart() : null;
        return WindowStats.of(runId, stepId, op, windowStartEpochMs, windowEndEpochMs, count(), errors(),
                PhaseSamples.byClass(this::errorsOf), queries(), okQueries(), successfulLatencies().toHistogram(),
                failed.size() == 0 ? null : failed.toHistogram(), warmupCount(), lateCount, measuredPart);
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

    /** Samples completed in the window, successful and failed, both phases. */
    public long count() {
        return measured.count() + warmup.count();
    }

    /** Failed samples, both phases. */
    public long errors() {
        return measured.errors() + warmup.errors();
    }

    /** Errors of one status code, both phases. */
    public long errorsOf(SampleStatus status) {
        return measured.errorsByCode[status.code()] + warmup.errorsByCode[status.code()];
    }

    /** Statements of every sample. */
    public long queries() {
        return measured.queries() + warmup.queries();
    }

    /** Statements of the successful samples. */
    public long okQueries() {
        return measured.okQueries + warmup.okQueries;
    }

    /** Samples flagged warm-up. */
    public long warmupCount() {
        return warmup.count();
    }

    /** Samples of the measurement phase (warm-up flag clear). */
    public long measuredCount() {
        return measured.count();
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

    PhaseSamples measured() {
        return measured;
    }

    PhaseSamples warmup() {
        return warmup;
    }

    /** Successful samples' latencies, both phases. */
    public SparseHistogram successfulLatencies() {
        return measured.ok.merge(warmup.ok);
    }

    /** Failed samples' latencies, both phases. */
    public SparseHistogram failedLatencies() {
        return measured.failed.merge(warmup.failed);
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
     * Producers whose blocks went into this partial: stage 2 learns a step's producers from them, and an end-of-step
     * tick names the producers whose end it carries. Empty for aggregates written before they were carried.
     */
    public Set<String> producers() {
        return producers;
    }

    /**
     * Sets the producers whose blocks went into this partial.
     *
     * @return this
     */
    public WindowAggregate withProducers(Set<String> ids) {
        producers = ids.isEmpty() ? Set.of() : new TreeSet<>(ids);
        return this;
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

    @Override
    public boolean equals(Object o) {
        return o instanceof WindowAggregate a
                && Objects.equals(runId, a.runId) && stepId == a.stepId && Objects.equals(op, a.op)
                && measured.equals(a.measured) && warmup.equals(a.warmup)
                && lateCount == a.lateCount && heartbeats == a.heartbeats && ticks == a.ticks && blocks == a.blocks
                && producers.equals(a.producers);
    }

    @Override
    public int hashCode() {
        return Objects.hash(runId, stepId, op, measured, warmup);
    }

    @Override
    public String toString() {
        return "WindowAggregate{" + scopeKey() + ", count=" + count() + ", errors=" + errors() + ", warmup="
                + warmupCount() + ", queries=" + queries() + ", heartbeats=" + heartbeats + ", ticks=" + ticks
                + ", buckets=" + (measured.buckets() + warmup.buckets()) + "}";
    }
}
