package io.tailstream.aggregator.stall;

/**
 * One closed, measured window of a scope as the stall rules see it.
 *
 * @param startMs   window start, epoch ms
 * @param endMs     window end, epoch ms
 * @param count     transactions that succeeded in the window (0 while the step is active = hard stall)
 * @param qps       statements of successful transactions per second of the window
 * @param p99Micros the window's P99 latency of successful transactions, µs (0 without any)
 */
public record WindowPoint(long startMs, long endMs, long count, double qps, long p99Micros) {}
