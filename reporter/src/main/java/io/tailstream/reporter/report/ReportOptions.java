package io.tailstream.reporter.report;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Which runs a report covers, and in which language.
 *
 * @param runIds runs to include; empty means every run in the archive unless {@code latest}
 * @param latest only the run that started last (ignored when {@code runIds} is given)
 * @param locale language of the labels ({@code en}; {@code zh-CN} comes with issue 5)
 */
public record ReportOptions(List<String> runIds, boolean latest, Locale locale) {

    public ReportOptions {
        runIds = List.copyOf(Objects.requireNonNull(runIds, "runIds"));
        Objects.requireNonNull(locale, "locale");
        if (latest && !runIds.isEmpty()) {
            throw new IllegalArgumentException("choose either run ids " + runIds + " or latest, not both");
        }
    }

    /** Every run in the archive (the skeleton's default). */
    public static ReportOptions allRuns() {
        return new ReportOptions(List.of(), false, Locale.ENGLISH);
    }

    public static ReportOptions latestRun() {
        return new ReportOptions(List.of(), true, Locale.ENGLISH);
    }

    public static ReportOptions runs(List<String> runIds) {
        if (runIds.isEmpty()) {
            throw new IllegalArgumentException("run ids must not be empty; use allRuns() for every run");
        }
        return new ReportOptions(runIds, false, Locale.ENGLISH);
    }
}
