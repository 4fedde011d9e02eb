/**
 * Selection-evaluation reports from the archive: one self-contained HTML page, or json/csv/md summaries.
 *
 * <p>{@link io.tailstream.reporter.report.ReportGenerator#generate} reads the selected runs ({@link
 * io.tailstream.reporter.report.ReportOptions}: every run, the latest, by id or by plan; an unknown id, plan or
 * baseline target fails with the list of what exists) through {@link io.tailstream.reporter.query.ArchiveDatabase}
 * into a {@link io.tailstream.reporter.report.ReportModel} ({@code ReportLoader}), then lays it out in a {@link
 * io.tailstream.reporter.report.ReportFormat}: {@code report.ftlh} (Freemarker, HTML auto-escaping, labels from
 * {@code messages[_zh_CN].properties}) or {@link io.tailstream.reporter.report.ReportFormats}. Every format reads the
 * same model, so they carry the same numbers.
 *
 * <p>Sections: verdict per workload (best on peak throughput, on P99 at a concurrency every candidate was measured
 * at, on monthly cost per 1,000 peak QPS; each a win, a tie, indicative, or no verdict with the checks the evidence
 * failed, and a count of the comparisons that have one at the top: {@link
 * io.tailstream.reporter.report.ReportAnalysis}); environment and fairness (targets, each target's {@link
 * io.tailstream.reporter.report.FairnessProfile} with its RTT probe and client CPU side by side, server variables
 * with durability settings first and differences highlighted, warm-up, measurement, rounds); per workload the summary table with deltas to a baseline target, the concurrency sweep with
 * each target's peak, and cost; scale-out (1 vs N nodes of one product); stalls (from a {@code stalls} dataset when
 * the archive has one); soak figures of steps measured for 30 min or more (macro trend, jitter, stall-time share,
 * from every measured window); time series per step; the methodology checklist ({@link
 * io.tailstream.reporter.report.ReportChecks}, each item pass/flag/n/a from the data, from the same findings the
 * verdicts cite); what was run.
 *
 * <p>Numbers: the summary table (per workload, one row per target x threads, all rounds merged) is computed from
 * raw samples of the measurement phase in one DuckDB scan: QPS = statements / measured seconds, TPS = successful
 * transactions / measured seconds, where measured seconds sum, over the steps, last completion minus first start
 * of the measured samples; avg, P95, P99 (nearest rank) and max over every measured sample, failed ones included;
 * RAL/WAL = average latency of read ops and of write ops (update, insert, write, read_modify_write); each round's
 * QPS and P99 alone give the spread. Time series come from the aggregator's all-ops windows (repeated rows of a
 * window merged through their HdrHistograms), or from raw samples per completion second when a step has no
 * windows, and are down-sampled for display only ({@link io.tailstream.reporter.report.Downsample}: min/max per
 * bucket, so stalls and spikes stay visible).
 *
 * <p>The page is self-contained: uPlot's JS and CSS are read from the {@code org.webjars.npm:uplot} jar and
 * inlined, chart data is JSON inside the page ({@code <}, {@code >}, {@code &} escaped); it opens offline, loads
 * nothing from the network, and prints (print stylesheet: one workload per page, tables unbroken).
 */
package io.tailstream.reporter.report;
