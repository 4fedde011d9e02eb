package io.tailstream.reporter.report;

import java.util.List;
import java.util.Locale;

/**
 * The report as summaries for scripts and wikis: {@code json} (every table figure, full precision), {@code csv}
 * (one line per workload, target and concurrency) and {@code md} (verdicts, summary tables, cost, checklist).
 * They carry the same numbers as the HTML page because all read the same {@link ReportModel}. Each is laid out by
 * a class of its own ({@link JsonReport}, {@link CsvReport}, {@link MarkdownReport}); this class chooses one and
 * holds the CSV header, the columns scripts read by name. Stateless and thread safe.
 */
final class ReportFormats {

    /** CSV columns, in order: {@link CsvReport} writes one value per column in this order. */
    public static final List<String> CSV_COLUMNS = List.of("workload", "target", "threads", "rounds", "transactions",
            "measured_s", "qps", "tps", "avg_ms", "p95_ms", "p99_ms", "max_ms", "errors", "error_pct", "ral_ms",
            "wal_ms", "qps_spread", "p99_spread_ms", "baseline", "qps_delta_pct", "tps_delta_pct", "avg_delta_pct",
            "p95_delta_pct", "p99_delta_pct", "monthly_cost", "currency", "cost_per_1000_qps", "p999_ms",
            "p9999_ms", "errors_per_s", "errors_by_class", "failed_avg_ms", "failed_p99_ms", "failed_max_ms",
            "slowest_0_1pct_share_pct", "heavy_tail", "error_limit_exceeded", "exact_span", "outcome", "steps",
            "throughput_verdict", "throughput_best", "p99_verdict", "p99_best", "cost_verdict", "cost_best",
            "verdict_reasons");

    private ReportFormats() {}

    public static String render(ReportModel model, ReportFormat format, Locale locale) {
        return switch (format) {
            case HTML -> ReportGenerator.render(model, locale);
            case JSON -> json(model, locale);
            case CSV -> csv(model, locale);
            case MD -> markdown(model, locale);
        };
    }

    static String json(ReportModel model, Locale locale) {
        return JsonReport.write(model, locale);
    }

    static String csv(ReportModel model, Locale locale) {
        return CsvReport.write(model, locale);
    }

    static String markdown(ReportModel model, Locale locale) {
        return MarkdownReport.write(model, locale);
    }
}
