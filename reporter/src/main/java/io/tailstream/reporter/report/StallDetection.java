package io.tailstream.reporter.report;

/**
 * Whether the aggregator's stall detector ran for a step: it did when the archive has a step summary of the
 * step (the detector runs in the stage that publishes them). Only then does "no stall" mean none was found.
 *
 * @param detectionRan a step summary of the step is in the archive
 * @param stalls       stalls of the step in the archive
 */
public record StallDetection(String runId, int stepId, String target, String workload, int threads, int round,
                             boolean detectionRan, int stalls) {}
