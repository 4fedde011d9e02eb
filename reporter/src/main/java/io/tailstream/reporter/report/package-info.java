/**
 * HTML reports from the archive.
 *
 * <p>{@link io.tailstream.reporter.report.ReportGenerator#generate} reads the selected runs ({@link
 * io.tailstream.reporter.report.ReportOptions}: every run, the latest, or by id; an unknown id fails with the list of
 * runs that exist) through {@link io.tailstream.reporter.query.ArchiveDatabase} into a {@link
 * io.tailstream.reporter.report.ReportModel}, then renders {@code report.ftlh} (Freemarker, HTML auto-escaping;
 * labels from {@code messages*.properties}, so a {@code zh-CN} bundle is a new file, not new code).
 *
 * <p>Numbers: the summary table (per workload, one row per target x threads, all rounds merged) is computed from
 * raw samples of the measurement phase: QPS = statements / measured seconds, TPS = successful transactions /
 * measured seconds, where measured seconds sum, over the steps, last completion minus first start of the measured
 * samples; avg, P95, P99 (nearest rank) and max over every measured sample, failed ones included. Time series come
 * from the aggregator's all-ops windows (repeated rows of a window merged through their HdrHistograms), or from raw
 * samples per completion second when a step has no windows.
 *
 * <p>The page is self-contained: uPlot's JS and CSS are read from the {@code org.webjars.npm:uplot} jar and
 * inlined, chart data is JSON inside the page; it opens offline and loads nothing from the network.
 */
package io.tailstream.reporter.report;
