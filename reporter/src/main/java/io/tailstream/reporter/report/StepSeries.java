package io.tailstream.reporter.report;

import java.util.List;

/**
 * Per-second QPS and P99 of one step (warm-up included, before {@code measureStartMs}), down-sampled for
 * display: at most about {@link Downsample#DEFAULT_BUCKETS} buckets, each keeping its lowest and highest point.
 * Definitions in {@link TimeSeries} and docs/report.md.
 *
 * @param domId          element id of the chart
 * @param epochSeconds   window starts of the QPS points, seconds since the epoch
 * @param qps            statements of successful transactions per second of each window's time inside the
 *                       step (all statements where {@code allStatements}; per second of the window's length
 *                       unless {@code normalized})
 * @param p99Seconds     window starts of the P99 points
 * @param p99Ms          P99 latency of each window, ms
 * @param windows        windows before down-sampling
 * @param measureStartMs the measurement's start: {@code steps.measure_start_us}, else the first measured
 *                       sample's start; null without measured samples
 * @param stalls         [start, end) epoch seconds of the step's stalls
 * @param measureEndMs   the measurement's end: {@code steps.measure_end_us}, else the last measured completion
 * @param startMs        the step's start ({@code steps.start_us}), or null when not recorded
 * @param normalized     each window's QPS is divided by its time inside the step, so edge windows holding part
 *                       of a second are not drawn as dips; false in archives without recorded step boundaries
 * @param allStatements  QPS counts all statements in some window: the archive's windows predate ok_queries
 * @param outcome        null for a completed step; else its outcome ({@code failed: ...}, {@code not ended})
 * @param server         the server's counters during the step, or null when none were read
 */
public record StepSeries(String domId, String runId, int stepId, String target, String workload, int threads,
                         int round, long[] epochSeconds, double[] qps, long[] p99Seconds, double[] p99Ms,
                         int windows, Long measureStartMs, List<double[]> stalls, Long measureEndMs, Long startMs,
                         boolean normalized, boolean allStatements, String outcome, ServerChart server) {}
