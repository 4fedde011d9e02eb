/**
 * The step driver: N worker threads, each with its own pooled connection, running a workload's transactions for a
 * warm-up and a measurement phase, either back to back (closed loop) or at intended starts spread evenly over the
 * threads at a total rate ({@link io.tailstream.producer.driver.OpenLoopPacer}: open loop, latency also measured
 * from the intended start); the measurement ends at its duration or after a transaction budget. Each sample goes to
 * the step's emission; the driver prints sysbench-style interval lines and computes the step's result over the
 * measurement phase only. When a concurrency sweep stops is {@code io.tailstream.analysis.Plateau}'s rule, applied by
 * {@link io.tailstream.producer.BenchmarkRunner}.
 */
package io.tailstream.producer.driver;
