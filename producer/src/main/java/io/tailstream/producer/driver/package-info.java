/**
 * The closed-loop driver: N worker threads, each with its own pooled connection, running a workload's transactions
 * back to back for a warm-up and a measurement phase, timing each with the monotonic clock, writing every sample
 * to the step's emission, printing sysbench-style interval lines, and computing the step's result over the
 * measurement phase only.
 */
package io.tailstream.producer.driver;
