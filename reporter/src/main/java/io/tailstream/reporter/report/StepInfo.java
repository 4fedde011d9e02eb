package io.tailstream.reporter.report;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * One step as run: for reproduction. {@code options} is the workload's options as JSON. {@code threads} counts
 * every producer's threads; {@code producerThreads} has each producer's, by producer id (empty in archives written
 * before it was kept).
 */
public record StepInfo(String runId, int stepId, String target, String url, String workload, int threads,
                       int round, long warmupMs, long measureMs, String options, String outcome,
                       long startedAtMs, Long endedAtMs, Map<String, Integer> producerThreads) {

    public StepInfo {
        producerThreads = producerThreads == null ? Map.of() : Collections.unmodifiableMap(
                new TreeMap<>(producerThreads));
    }

    /** A step without its producers' threads. */
    public StepInfo(String runId, int stepId, String target, String url, String workload, int threads, int round,
                    long warmupMs, long measureMs, String options, String outcome, long startedAtMs,
                    Long endedAtMs) {
        this(runId, stepId, target, url, workload, threads, round, warmupMs, measureMs, options, outcome,
                startedAtMs, endedAtMs, Map.of());
    }
}
