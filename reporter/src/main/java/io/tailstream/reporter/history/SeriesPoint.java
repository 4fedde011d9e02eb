package io.tailstream.reporter.history;

import io.tailstream.reporter.query.StepFigure;

/**
 * One run's value in a series.
 *
 * @param runId        the run
 * @param startedAtMs  when the run started, ms since the epoch
 * @param value        the metric's value: the run's completed steps of the series pooled
 * @param rounds       completed steps pooled
 * @param figure       the exact figures behind the value
 * @param fingerprint  what the steps ran on
 */
public record SeriesPoint(String runId, long startedAtMs, double value, int rounds, StepFigure figure,
                          Fingerprint fingerprint) {}
