/**
 * Stage 3 of the topology: per run, from closed windows, late corrections, scope ends and control events
 * ({@link io.tailstream.aggregator.step.StepInput}), the {@link io.tailstream.aggregator.step.StepProcessor} detects
 * stalls, merges roll-up windows (histograms merged bucket by bucket, never percentiles averaged), accounts for
 * blocks and emits a {@code StepSummary} per scope when the step ends. Its state
 * ({@link io.tailstream.aggregator.step.ScopeState}, {@link io.tailstream.aggregator.step.StepMeta}) is JSON in
 * change-logged in-memory stores.
 */
package io.tailstream.aggregator.step;
