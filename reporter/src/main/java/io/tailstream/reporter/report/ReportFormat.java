package io.tailstream.reporter.report;

import java.util.Locale;

/**
 * Output formats of {@code report}: the HTML page ({@link ReportGenerator#render}), or summaries for scripts and
 * wikis: {@code json} (every table figure, full precision; {@link JsonReport}), {@code csv} (one line per workload,
 * target and concurrency; {@link CsvReport}) and {@code md} (verdicts, summary tables, cost, checklist; {@link
 * MarkdownReport}). They carry the same numbers as the HTML page because all read the same {@link ReportModel}.
 * Thread safe.
 */
public enum ReportFormat {
    HTML, JSON, CSV, MD;

    /**
     * @throws IllegalArgumentException naming the value and the formats there are
     */
    public static ReportFormat parse(String s) {
        try {
            return valueOf(s.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("format '" + s + "' is not supported; use html, json, csv or md", e);
        }
    }

    public String extension() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The model laid out in this format. */
    String render(ReportModel model, Locale locale) {
        return switch (this) {
            case HTML -> ReportGenerator.render(model, locale);
            case JSON -> JsonReport.write(model, locale);
            case CSV -> CsvReport.write(model, locale);
            case MD -> MarkdownReport.write(model, locale);
        };
    }
}
