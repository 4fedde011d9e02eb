/**
 * SQL and history over the archive.
 *
 * <ul>
 *   <li>{@link io.tailstream.reporter.query.ArchiveDatabase} opens an in-memory DuckDB with one view per dataset
 *       ({@code samples}, {@code blocks}, {@code windows}, {@code control}, {@code steps}, {@code runs},
 *       {@code client_health}, {@code server_counters}, {@code stall_events}, {@code stalls},
 *       {@code summary_events}, {@code summaries}, {@code run_summary_events}, {@code run_summaries}; columns in {@link io.tailstream.reporter.archive}), each
 *       with the hive partition key {@code run_id} as a VARCHAR column. Every view exists with its documented
 *       columns, empty when the archive has no file of it, NULL where files predate a column. It checks every file first ({@code ParquetFiles}: magic bytes, footer) and every run's
 *       completeness; a run with an unreadable or missing file is left out of every view and reported in
 *       {@code problems()} with the file and the reason, so the other runs still report and query.</li>
 *   <li>{@link io.tailstream.reporter.query.RunCatalog}: the archived runs with filters ({@code runs}); unknown run
 *       ids are answered with the runs that exist.</li>
 *   <li>{@link io.tailstream.reporter.query.StepFigureQuery}: the exact per-(target, workload, threads) figures from
 *       raw measured samples — the computation shared by {@code compare} and the report's summary table: work done
 *       (successful statements and transactions) over the measured span, errors apart, nearest-rank percentiles
 *       to P99.99, steps that did not complete apart (docs/report.md).</li>
 *   <li>{@link io.tailstream.reporter.query.RunComparison}: per-step deltas between two runs and the regression
 *       verdict ({@code compare}).</li>
 * </ul>
 * The report and the {@code query}, {@code runs} and {@code compare} commands read the archive only through this
 * package.
 */
package io.tailstream.reporter.query;
