/**
 * The aggregator's public API: {@link io.tailstream.aggregator.AggregatorConfig} (what to compute, how to run),
 * {@link io.tailstream.aggregator.Aggregator} (start/close the Kafka Streams application) and
 * {@link io.tailstream.aggregator.AggregationProgress} (follow the windows topic and wait until a run's windows
 * count exactly the samples its producers sent).
 *
 * <p>The engine is in {@code topology} (the Streams graph, a pure function of the config) and {@code window} (the
 * partial/aggregate model and its serde). Issue 4 adds sibling packages by role, each fed by the same windows:
 * {@code rollup} (10 s / 60 s windows by merging {@link io.tailstream.aggregator.window.SparseHistogram}s, never by
 * averaging percentiles), {@code stall} (rules over closed windows; heartbeats already make hard stalls visible as
 * count-0 windows), {@code summary} (per step, triggered by the control topic's {@code StepEnded}), {@code http}
 * (metrics, interactive queries of {@link io.tailstream.aggregator.topology.AggregatorTopology#WINDOW_STORE}).
 */
package io.tailstream.aggregator;
