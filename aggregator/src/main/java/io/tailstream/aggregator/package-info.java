/**
 * The aggregator's public API: {@link io.tailstream.aggregator.AggregatorConfig} (what to compute, how to run),
 * {@link io.tailstream.aggregator.Aggregator} (start/close the Kafka Streams application) and
 * {@link io.tailstream.aggregator.AggregationProgress} (follow the aggregator's output and wait until a run's
 * windows count exactly the samples its producers sent, and until its summaries are published).
 *
 * <p>The engine is in {@code topology} (the Streams graph, a pure function of the config: stage 1 decodes blocks,
 * stage 2 merges windows, stage 3 analyses steps), {@code window} (the partial/aggregate model and its serde),
 * {@code stall} (the stall rules, pure code) and {@code step} (stage 3: stalls, roll-ups, summaries, block
 * accounting); {@code http} is the optional live monitor (Prometheus metrics, JSON API, live page).
 */
package io.tailstream.aggregator;
