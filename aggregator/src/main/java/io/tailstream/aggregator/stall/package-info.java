/**
 * Stall rules over a scope's closed, measured windows: {@link io.tailstream.aggregator.stall.StallDetector} (hard,
 * throughput and latency stalls against a rolling median baseline), its thresholds
 * ({@link io.tailstream.aggregator.stall.StallConfig}) and what it reports ({@link io.tailstream.aggregator.stall.Stall}).
 * Pure code without Kafka: stage 3 ({@code io.tailstream.aggregator.step}) keeps a detector's state per scope in a
 * change-logged store and turns the {@code "*"} scope's stalls into {@code StallEvent}s.
 */
package io.tailstream.aggregator.stall;
