package io.tailstream.reporter.report;

import java.util.List;

/**
 * Everything a report shows, computed from the archive; the template only lays it out. Immutable. Times are
 * epoch milliseconds, latencies milliseconds (from µs), rates per second.
 *
 * @param title         report title
 * @param generatedAtMs when the model was built
 * @param runs          the runs covered, oldest first
 * @param workloads     one summary table per workload
 * @param charts        one time series per step, in run and step order
 */
public record ReportModel(String title, long generatedAtMs, List<RunInfo> runs, List<WorkloadSummary> workloads,
                          List<StepSeries> charts) {

    public ReportModel {
        runs = List.copyOf(runs);
        workloads = List.copyOf(workloads);
        charts = List.copyOf(charts);
    }

    /** One run of the archive. {@code endedAtMs}, {@code samplesSent} and {@code outcome} are null if it never ended. */
    public record RunInfo(String runId, String planName, long startedAtMs, Long endedAtMs, Long samplesSent,
                          String outcome) {}

    /** The summary table of one workload. */
    public record WorkloadSummary(String workload, List<SummaryRow> rows) {
        public WorkloadSummary {
            rows = List.copyOf(rows);
        }
    }

    /**
     * One row: a target at one thread count, over every round of the selected runs, measurement phase only
     * (warm-up samples excluded), computed exactly from the raw samples.
     *
     * @param rounds          steps merged into the row
     * @param transactions    samples (transactions, failed ones included)
     * @param measuredSeconds sum over the steps of (last completion - first start) of their measured samples
     * @param qps             statements of all transactions / measuredSeconds
     * @param tps             successful transactions / measuredSeconds
     * @param avgMs           mean latency
     * @param p95Ms           95th percentile latency by nearest rank ({@code quantile_disc}): the smallest
     *                        latency with at least 95% of the samples at or below it, i.e. sorted[ceil(0.95 n) - 1]
     * @param p99Ms           99th percentile latency, likewise
     * @param maxMs           highest latency
     * @param errors          failed transactions
     */
    public record SummaryRow(String target, String workload, int threads, int rounds, long transactions,
                             double measuredSeconds, double qps, double tps, double avgMs, double p95Ms,
                             double p99Ms, double maxMs, long errors) {}

    /**
     * Per-second QPS and P99 of one step (warm-up included, flagged by {@code measureStartMs}).
     *
     * @param domId          element id of the chart
     * @param epochSeconds   window starts, seconds since the epoch
     * @param qps            queries per second of each window
     * @param p99Ms          P99 latency of each window, ms
     * @param measureStartMs first start of a measured (non-warm-up) sample, or null
     */
    public record StepSeries(String domId, String runId, int stepId, String target, String workload, int threads,
                             int round, long[] epochSeconds, double[] qps, double[] p99Ms, Long measureStartMs) {}
}
