package io.tailstream.reporter.report;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Which runs a report covers, how it compares them, and in which language. Immutable; the {@code with*} methods
 * return copies.
 *
 * @param runIds      runs to include; empty means every run in the archive unless {@code latest} or {@code planName}
 * @param latest      only the run that started last (of the plan, when {@code planName} is given)
 * @param planName    only runs of this plan, or null
 * @param locale      language of the labels: {@link #ENGLISH} or {@link #SIMPLIFIED_CHINESE}
 * @param baseline    target the summary tables' deltas are relative to, or null for none
 * @param atThreads   concurrency at which P99 and cost are compared, or null for the highest concurrency every
 *                    target of a workload was measured at
 */
public record ReportOptions(List<String> runIds, boolean latest, String planName, Locale locale, String baseline,
                            Integer atThreads) {

    public static final Locale ENGLISH = Locale.ENGLISH;
    public static final Locale SIMPLIFIED_CHINESE = Locale.SIMPLIFIED_CHINESE;

    public ReportOptions {
        runIds = List.copyOf(Objects.requireNonNull(runIds, "runIds"));
        Objects.requireNonNull(locale, "locale");
        if (latest && !runIds.isEmpty()) {
            throw new IllegalArgumentException("choose either run ids " + runIds + " or latest, not both");
        }
        if (planName != null && !runIds.isEmpty()) {
            throw new IllegalArgumentException("choose either run ids " + runIds + " or plan " + planName
                    + ", not both");
        }
        if (planName != null && planName.isBlank()) {
            throw new IllegalArgumentException("plan name must not be blank");
        }
        if (baseline != null && baseline.isBlank()) {
            throw new IllegalArgumentException("baseline target must not be blank");
        }
        if (atThreads != null && atThreads < 1) {
            throw new IllegalArgumentException("atThreads must be at least 1, was " + atThreads);
        }
    }

    /** Every run in the archive (the default). */
    public static ReportOptions allRuns() {
        return new ReportOptions(List.of(), false, null, ENGLISH, null, null);
    }

    public static ReportOptions latestRun() {
        return new ReportOptions(List.of(), true, null, ENGLISH, null, null);
    }

    public static ReportOptions runs(List<String> runIds) {
        if (runIds.isEmpty()) {
            throw new IllegalArgumentException("run ids must not be empty; use allRuns() for every run");
        }
        return new ReportOptions(runIds, false, null, ENGLISH, null, null);
    }

    /** Every run of a plan (combine with {@link #latestRun()}'s flag through the constructor for its latest run). */
    public static ReportOptions plan(String planName) {
        return new ReportOptions(List.of(), false, Objects.requireNonNull(planName, "planName"), ENGLISH, null, null);
    }

    /**
     * The locale of a {@code --lang} value.
     *
     * @throws IllegalArgumentException for anything but {@code en} and {@code zh-CN}
     */
    public static Locale language(String tag) {
        return switch (tag) {
            case "en" -> ENGLISH;
            case "zh-CN" -> SIMPLIFIED_CHINESE;
            default -> throw new IllegalArgumentException("language '" + tag + "' is not supported; use en or zh-CN");
        };
    }

    public ReportOptions withLocale(Locale l) {
        return new ReportOptions(runIds, latest, planName, l, baseline, atThreads);
    }

    public ReportOptions withBaseline(String target) {
        return new ReportOptions(runIds, latest, planName, locale, target, atThreads);
    }

    public ReportOptions withAtThreads(Integer threads) {
        return new ReportOptions(runIds, latest, planName, locale, baseline, threads);
    }

    public ReportOptions withLatest(boolean onlyLatest) {
        return new ReportOptions(runIds, onlyLatest, planName, locale, baseline, atThreads);
    }
}
