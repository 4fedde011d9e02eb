package io.tailstream.reporter.history;

/**
 * One run's value in a series.
 *
 * @param runId        the run
 * @param startedAtMs  when the run started, ms since the epoch
 * @param value        the metric's value: the run's completed steps of the series pooled
 * @param rounds       completed steps pooled
 * @param fingerprint  what the steps ran on
 */
public record SeriesPoint(String runId, long startedAtMs, double value, int rounds, Fingerprint fingerprint) {}
