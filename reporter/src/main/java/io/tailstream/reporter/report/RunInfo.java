package io.tailstream.reporter.report;

/** One run of the archive. {@code endedAtMs}, {@code samplesSent} and {@code outcome} are null if it never ended. */
public record RunInfo(String runId, String planName, long startedAtMs, Long endedAtMs, Long samplesSent,
                      String outcome, String client, String settings) {}
