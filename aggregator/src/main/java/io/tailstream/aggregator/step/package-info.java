/**
 * Stage 3 of the topology: per run, from closed windows, late corrections, scope ends and control events
 * ({@link io.tailstream.aggregator.step.StepInput}), the {@link io.tailstream.aggregator.step.StepProcessor} detects
 * stalls over whole measured windows, merges roll-up windows (histograms merged bucket by bucket, never percentiles
 * averaged), accounts for blocks and emits an exact {@code StepSummary} per scope once the step is complete. Its state
 * ({@link io.tailstream.aggregator.step.ScopeState}, {@link io.tailstream.aggregator.step.StepMeta}) is JSON in
 * change-logged in-memory stores.
 */
package io.tailstream.aggregator.step;
