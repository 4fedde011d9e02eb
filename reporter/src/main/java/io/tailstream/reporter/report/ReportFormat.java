package io.tailstream.reporter.report;

import java.util.Locale;

/** Output formats of {@code report}: the HTML page, or summaries for scripts (json, csv) and wikis (md). */
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
}
