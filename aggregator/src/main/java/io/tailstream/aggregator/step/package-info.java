/**
 * Stage 3 of the topology: per run, from closed windows, late corrections, scope ends and control events
 * ({@link io.tailstream.aggregator.step.StepInput}): stalls over whole measured windows ({@code StallSeries}), roll-up
 * windows (histograms merged bucket by bucket, never percentiles averaged; {@code Rollups}), block accounting and an
 * exact {@code StepSummary} per scope once the step is complete ({@code StepSummaries}), and a {@code RunSummary} per
 * run ({@code RunSummaries}). These rules are functions of values; the
 * {@link io.tailstream.aggregator.step.StepProcessor} keeps their state
 * ({@link io.tailstream.aggregator.step.ScopeState}, {@link io.tailstream.aggregator.step.StepMeta},
 * {@link io.tailstream.aggregator.step.RunState}) as JSON in change-logged in-memory stores, runs the punctuations and
 * forwards what the rules give.
 */
package io.tailstream.aggregator.step;
