package io.tailstream.aggregator.step;

import io.tailstream.schemas.event.RunSummary;
import io.tailstream.schemas.event.StallEvent;
import io.tailstream.schemas.event.StepSummary;
import io.tailstream.schemas.event.WindowStats;

/** What stage 3 emits: stall events, step summaries, run summaries and roll-up windows, each to its topic. */
public sealed interface StepOutput permits StepOutput.Stall, StepOutput.Summary, StepOutput.RunSummaryOut,
        StepOutput.Rollup {

    record Stall(StallEvent event) implements StepOutput {}

    record Summary(StepSummary summary) implements StepOutput {}

    record RunSummaryOut(RunSummary summary) implements StepOutput {}

    record Rollup(WindowStats window) implements StepOutput {}
}
