package io.tailstream.reporter.report;

/** A stall of a step ({@code kind}: hard, throughput, latency), window-aligned epoch ms. */
public record Stall(String runId, int stepId, String target, String workload, int threads, String kind,
                    long startMs, long endMs) {
    public double durationS() {
        return (endMs - startMs) / 1000.0;
    }
}
