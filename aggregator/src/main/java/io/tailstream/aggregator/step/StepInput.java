package io.tailstream.aggregator.step;

import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.WindowStats;

/**
 * What stage 3 (per-run step analysis: stalls, roll-ups, summaries) reads, keyed by run id on the internal topic
 * {@value io.tailstream.aggregator.topology.AggregatorTopology#STEP_INPUT_REPARTITION}: a closed window (or a late correction) of one scope, the end of
 * a scope (its end-of-step ticks closed its last window), or a control event. JSON; low volume (one record per scope
 * and window).
 *
 * @param kind    {@link #WINDOW}, {@link #END} or {@link #CONTROL}
 * @param window  for {@link #WINDOW}: the window's stats (a late correction has {@code lateCount == count > 0})
 * @param blocks  sample blocks counted in this record (see {@code WindowAggregate#blocks()})
 * @param control for {@link #CONTROL}: the event
 * @param publish for {@link #WINDOW}: the window also goes to the windows topic (false for a window that only
 *                carries block counts, e.g. a late heartbeat)
 * @param late    for {@link #WINDOW}: a late correction (samples that arrived after the window closed)
 * @param firstEndAtMs for {@link #END}: wall clock when the first producer's end-of-step tick reached the scope
 *                (stage 2 then waited for the others); 0 when not known (records of older aggregators)
 * @param reason  for {@link #DEAD_LETTER}: the reason code of an input record of the run sent to the dead-letter
 *                topic ({@code io.tailstream.aggregator.topology.DeadLetters})
 */
public record StepInput(String kind, String runId, int stepId, String op, WindowStats window, long blocks,
                        ControlEvent control, boolean publish, boolean late, long firstEndAtMs, String reason) {

    public static final String WINDOW = "window";
    public static final String END = "end";
    public static final String CONTROL = "control";
    public static final String DEAD_LETTER = "dead_letter";

    public static StepInput window(WindowStats w, long blocks, boolean publish, boolean late) {
        return new StepInput(WINDOW, w.runId(), w.stepId(), w.op(), w, blocks, null, publish, late, 0, null);
    }

    public static StepInput end(String runId, int stepId, String op, long blocks, long firstEndAtMs) {
        return new StepInput(END, runId, stepId, op, null, blocks, null, false, false, firstEndAtMs, null);
    }

    public static StepInput control(ControlEvent e) {
        return new StepInput(CONTROL, e.runId(), -1, null, null, 0, e, false, false, 0, null);
    }

    public static StepInput deadLetter(String runId, String reason) {
        return new StepInput(DEAD_LETTER, runId, -1, null, null, 0, null, false, false, 0, reason);
    }
}
