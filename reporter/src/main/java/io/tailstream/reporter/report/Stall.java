package io.tailstream.reporter.report;

import java.util.List;

/**
 * A stall of a step ({@code kind}: hard, throughput, latency), window-aligned epoch ms, with what the server's counters
 * did around it.
 *
 * @param serverCounters the counters that moved most around the stall, most first, each as one line
 *                       ({@code state.Waiting for backup lock 0 → 8}); empty when none moved or none were read
 * @param serverNote     why the counters say nothing of this stall (none were read, too few readings around it);
 *                       null when they were judged
 */
public record Stall(String runId, int stepId, String target, String workload, int threads, String kind,
                    long startMs, long endMs, List<String> serverCounters, String serverNote) {

    public Stall {
        serverCounters = List.copyOf(serverCounters);
    }

    /** A stall whose server counters were not looked at yet. */
    public Stall(String runId, int stepId, String target, String workload, int threads, String kind, long startMs,
                 long endMs) {
        this(runId, stepId, target, workload, threads, kind, startMs, endMs, List.of(), null);
    }

    /** The same stall with what the server's counters said of it. */
    Stall withServer(List<String> counters, String note) {
        return new Stall(runId, stepId, target, workload, threads, kind, startMs, endMs, counters, note);
    }

    public double durationS() {
        return (endMs - startMs) / 1000.0;
    }
}
