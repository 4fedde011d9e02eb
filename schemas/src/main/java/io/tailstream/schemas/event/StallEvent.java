package io.tailstream.schemas.event;

import java.util.List;

/**
 * A stall the aggregator detected in a step, on {@link io.tailstream.schemas.Topics#STALLS} (key
 * {@code runId/stepId/kind/startEpochMs}). An open stall is published while it lasts ({@code open = true},
 * {@code endEpochMs} = end of the last stalled window so far) and once more when it ends; consumers keep the last
 * record per key, a closing one over open ones. A closing record whose end equals its start <em>withdraws</em> the
 * stall ({@link #withdrawn()}): it was published before the step's measurement end was known, and that end, earlier
 * than planned, left its windows out.
 *
 * @param kind               {@link #HARD} (no transaction completed while the step was active),
 *                           {@link #THROUGHPUT} (QPS under a fraction of the rolling baseline for K windows) or
 *                           {@link #LATENCY} (P99 over a multiple of the baseline P99)
 * @param startEpochMs       start of the first stalled window
 * @param endEpochMs         end of the last stalled window (so far, if open)
 * @param open               the stall has not ended yet
 * @param baselineQps        rolling baseline QPS (median of preceding measured windows) when it started
 * @param minQps             lowest window QPS during the stall (depth)
 * @param baselineP99Micros  baseline P99 when it started
 * @param worstP99Micros     highest window P99 during the stall
 * @param affectedOps        ops whose windows were stalled too
 * @param atEpochMs          when the aggregator emitted this record
 */
public record StallEvent(
        String runId,
        int stepId,
        String kind,
        long startEpochMs,
        long endEpochMs,
        boolean open,
        double baselineQps,
        double minQps,
        long baselineP99Micros,
        long worstP99Micros,
        List<String> affectedOps,
        long atEpochMs) {

    public static final String HARD = "hard";
    public static final String THROUGHPUT = "throughput";
    public static final String LATENCY = "latency";

    public StallEvent {
        affectedOps = affectedOps == null ? List.of() : List.copyOf(affectedOps);
    }

    public long durationMs() {
        return endEpochMs - startEpochMs;
    }

    /** Lowest QPS as a share of the baseline, 0..1 (0 for a hard stall). */
    public double depth() {
        return baselineQps > 0 ? minQps / baselineQps : 0;
    }

    public String key() {
        return runId + "/" + stepId + "/" + kind + "/" + startEpochMs;
    }

    /** This closing record withdraws the stall: it ends where it starts (a stall is at least one window long). */
    public boolean withdrawn() {
        return !open && endEpochMs == startEpochMs;
    }
}
