package io.tailstream.aggregator.step;

import io.tailstream.aggregator.stall.StallDetector;
import java.util.List;

/**
 * What stage 3 remembers about one scope (run, step, op) of a step; JSON in a change-logged store.
 *
 * @param measureStartMs start of the first measured window (first non-empty window without warm-up samples),
 *                       -1 before it
 * @param measureEndMs   end of the last measured window, -1 before the first
 * @param measured       merged figures of the measured windows (and late corrections of measured windows)
 * @param lateCount      late samples of the scope, measured or not
 * @param trend          QPS series sums of the measured windows
 * @param detector       stall rules' state
 * @param rollups        open roll-up windows, one per configured size
 * @param ended          the scope's end-of-step ticks have closed its last window
 */
public record ScopeState(String runId, int stepId, String op, long measureStartMs, long measureEndMs,
                         WindowAccumulator measured, long lateCount, QpsTrend trend, StallDetector.State detector,
                         List<Rollup> rollups, boolean ended) {

    public ScopeState {
        rollups = rollups == null ? List.of() : List.copyOf(rollups);
    }

    public static ScopeState start(String runId, int stepId, String op) {
        return new ScopeState(runId, stepId, op, -1, -1, WindowAccumulator.empty(), 0, QpsTrend.empty(),
                StallDetector.State.empty(), List.of(), false);
    }

    /**
     * An open roll-up window.
     *
     * @param sizeMs  roll-up size
     * @param startMs start, aligned to the epoch
     */
    public record Rollup(long sizeMs, long startMs, WindowAccumulator acc) {}
}
