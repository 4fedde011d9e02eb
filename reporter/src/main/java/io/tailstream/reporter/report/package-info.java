/**
 * Selection-evaluation reports from the archive: one self-contained HTML page, or json/csv/md summaries.
 *
 * <p>{@link io.tailstream.reporter.report.ReportGenerator#generate} reads the selected runs ({@link
 * io.tailstream.reporter.report.ReportOptions}: every run, the latest, by id or by plan; an unknown id, plan or
 * baseline target fails with the list of what exists) through {@link io.tailstream.reporter.query.ArchiveDatabase}
 * into a {@link io.tailstream.reporter.report.ReportModel} ({@code ReportLoader}), then lays it out in a {@link
 * io.tailstream.reporter.report.ReportFormat}: {@code report.ftlh} (Freemarker, HTML auto-escaping, labels from
 * {@code messages[_zh_CN].properties}) or the json, csv and md writers ({@code JsonReport}, {@code CsvReport},
 * {@code MarkdownReport}). Every format reads the same model, so they carry the same numbers. The model is a tree
 * of immutable records, one per section ({@code Verdict}, {@code Environment}, {@code WorkloadSummary} with its
 * {@code SummaryRow}s and {@code Cost}s, {@code ScaleOutRow}, {@code Stall}, {@code Soak}, {@code StepSeries}, {@code
 * Check}, {@code StepInfo}, ...), public because the template reads them (Freemarker calls only public methods of
 * public classes).
 *
 * <p>Sections: verdict per workload (best on peak throughput, on P99 at a concurrency every candidate was measured
 * at, on monthly cost per 1,000 peak QPS; each a win, a tie, indicative, or no verdict with the checks the evidence
 * failed, and a count of the comparisons that have one at the top: {@link
 * io.tailstream.reporter.report.ReportAnalysis}); environment and fairness (targets, each target's {@link
 * io.tailstream.reporter.report.FairnessProfile} with its RTT probe and client CPU side by side, server variables
 * with durability settings first and differences highlighted, warm-up, measurement, rounds); per workload the
 * summary table with deltas to a baseline target, the concurrency sweep with each target's peak, and cost;
 * scale-out (1 vs N nodes of one product); stalls (from the {@code stalls} view, and per step whether the stall
 * detector ran); soak figures of steps measured for 30 min or more (macro trend, jitter, stall-time share,
 * from every measured window); time series per step; the methodology checklist ({@link
 * io.tailstream.reporter.report.Checklist}, each item pass/flag/n/a from the data, from the same findings the
 * verdicts cite: {@link io.tailstream.reporter.report.ValidityChecks}, judged on the {@link
 * io.tailstream.reporter.report.Evidence} of each step); what was run.
 *
 * <p>Numbers (docs/report.md defines each): the summary table (per workload, one row per target x threads, the
 * completed rounds merged) is computed from raw samples of the measurement phase by {@link
 * io.tailstream.reporter.query.StepFigureQuery}, the computation {@code compare} uses too: QPS = statements of
 * successful transactions / measured seconds, TPS = successful transactions / measured seconds, err/s = failed
 * transactions / measured seconds, where measured seconds sum the steps' recorded spans ({@code measure_end_us -
 * measure_start_us}; in older archives the span of their measured samples, with a note); avg, P95, P99, P99.9,
 * P99.99 (nearest rank) and max of the successful transactions, the failed ones' latencies apart; a heavy-tail note
 * where the mean exceeds P99 or the slowest 0.1% carry most latency time; RAL/WAL = average latency of successful
 * read ops and write ops; each round's QPS and P99 alone give the spread. A step that did not complete stands apart
 * with its outcome. Time series ({@link io.tailstream.reporter.report.TimeSeries}) come from the aggregator's all-ops
 * base windows (repeated rows of a window merged through their HdrHistograms), or from raw samples per completion
 * second when a step has no windows, each window's QPS over its time inside the step, and are down-sampled for
 * display only ({@link io.tailstream.reporter.report.Downsample}: min/max per bucket, so stalls and spikes stay
 * visible). Stall detection ran for a step when the archive has its step summary.
 *
 * <p>The page is self-contained: uPlot's JS and CSS are read from the {@code org.webjars.npm:uplot} jar and
 * inlined, chart data is JSON inside the page ({@code <}, {@code >}, {@code &} escaped); it opens offline, loads
 * nothing from the network, and prints (print stylesheet: one workload per page, tables unbroken).
 */
package io.tailstream.reporter.report;
