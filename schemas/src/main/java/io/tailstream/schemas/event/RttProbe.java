package io.tailstream.schemas.event;

/**
 * Round trip from the load generator to a target, measured the same way for every product just before a step
 * starts: one idle connection of its own (no worker runs yet), one minimal statement ({@code SELECT 1}) prepared
 * once on the server and executed back to back, the first executions discarded as warm-up, then many timed
 * executions. The median is the figure targets are compared by; P99 shows how steady the path is.
 *
 * @param method     how it was measured, in words ("prepared SELECT 1, idle connection, 200 timed of 220")
 * @param samples    timed round trips
 * @param minMicros  fastest round trip, µs
 * @param p50Micros  median round trip, µs
 * @param p99Micros  99th percentile round trip, µs
 * @param maxMicros  slowest round trip, µs
 */
public record RttProbe(String method, int samples, double minMicros, double p50Micros, double p99Micros,
                       double maxMicros) {}
