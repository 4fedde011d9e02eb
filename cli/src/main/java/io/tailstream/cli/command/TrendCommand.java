package io.tailstream.cli.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.tailstream.analysis.change.ChangePointDetector;
import io.tailstream.analysis.change.ChangePointSettings;
import io.tailstream.analysis.interval.PercentInterval;
import io.tailstream.cli.UserFacingException;
import io.tailstream.cli.options.ArchiveOptions;
import io.tailstream.cli.options.Percentages;
import io.tailstream.cli.options.RunFilterOptions;
import io.tailstream.reporter.history.Metric;
import io.tailstream.reporter.history.Series;
import io.tailstream.reporter.history.SeriesChange;
import io.tailstream.reporter.history.SeriesPoint;
import io.tailstream.reporter.history.TrendFilter;
import io.tailstream.reporter.history.TrendPage;
import io.tailstream.reporter.history.TrendQuery;
import io.tailstream.reporter.output.TableFormat;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.event.Json;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Series of comparable runs over time, with their change points. */
@Command(name = "trend", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Print each series of comparable archived runs in time order (same target and product,"
                + " workload and options, threads; one value per run from its completed steps, exact from the raw"
                + " samples) and the points where it changed: E-Divisive means with a t-test, each change with its 95%%"
                + " confidence interval and what differed between the runs before and after it (server version,"
                + " variables, driver, URL, client host, step durations)."})
public final class TrendCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    ArchiveOptions archiveOptions = new ArchiveOptions();

    @Mixin
    RunFilterOptions filter = new RunFilterOptions();

    @Option(names = "--threads", paramLabel = "N", description = "Only series at this concurrency.")
    Integer threads;

    @Option(names = "--metric", paramLabel = "M", defaultValue = "qps",
            description = "qps, tps, tpmc (TPC-C's New-Orders per minute), p95, p99, p999 (ms, successful"
                    + " transactions) or errors (%% of the measured transactions) (default: ${DEFAULT-VALUE}).")
    String metric;

    @Option(names = "--max-p", paramLabel = "P", defaultValue = "0.001",
            description = "A change point's t-test p-value must be below this; series longer than 50 runs divide it"
                    + " by their length in 50s (default: ${DEFAULT-VALUE}).")
    double maxP;

    @Option(names = "--min-change", paramLabel = "PCT", defaultValue = "0",
            description = "Ignore changes smaller than this, in percent (default: ${DEFAULT-VALUE}%%).")
    String minChange;

    @Option(names = "--min-runs", paramLabel = "N", defaultValue = "3",
            description = "Runs each side of a change needs: fewer is an outlier, not a change (default:"
                    + " ${DEFAULT-VALUE}).")
    int minRuns;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table",
            description = "table (for people), csv or json (for scripts), or html: a self-contained page with a chart"
                    + " of each series (default: ${DEFAULT-VALUE}).")
    String format;

    @Override
    public Integer call() {
        Path archive = archiveOptions.existing(spec);
        Metric m = parse(() -> Metric.parse(metric), "--metric");
        Instant from = filter.since(spec);
        ChangePointSettings settings = parse(() -> ChangePointSettings.DEFAULTS.withMaxPValue(maxP)
                .withMinMagnitude(Percentages.parse(spec, "--min-change", minChange) / 100)
                .withMinSegment(minRuns), "--max-p/--min-runs");
        String fmt = format.toLowerCase(Locale.ROOT);
        if (!List.of("table", "csv", "json", "html").contains(fmt)) {
            throw new ParameterException(spec.commandLine(), "--format: unknown format '" + format
                    + "'; use table, csv, json or html");
        }
        List<Series> series;
        try (ArchiveDatabase db = ArchiveDatabase.open(archive, TrendQuery.DATASETS)) {
            series = TrendQuery.of(db, new TrendFilter(filter.target, filter.workload, threads, from), m,
                    new ChangePointDetector(settings));
        } catch (SQLException e) {
            throw new UserFacingException("cannot read the runs of " + archive, e);
        }
        PrintWriter out = spec.commandLine().getOut();
        switch (fmt) {
            case "table" -> table(out, series, m);
            case "csv" -> csv(out, series);
            case "json" -> out.print(json(series, m, settings));
            default -> out.print(TrendPage.render(series, m, settings, System.currentTimeMillis()));
        }
        out.flush();
        return 0;
    }

    private <T> T parse(Supplier<T> p, String option) {
        try {
            return p.get();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), option + ": " + e.getMessage(), e);
        }
    }

    private static void table(PrintWriter out, List<Series> all, Metric m) {
        if (all.isEmpty()) {
            out.println("no series: no completed step of the archive matches");
            return;
        }
        for (Series s : all) {
            out.printf("%s — %s, %d run%s, %d change point%s%n", s.key().label(), m.id(), s.points().size(),
                    s.points().size() == 1 ? "" : "s", s.changes().size(), s.changes().size() == 1 ? "" : "s");
            try (TableFormat.RowWriter w = TableFormat.TABLE.open(out, List.of("run_id", "started", m.label(),
                    "rounds", "change"), Integer.MAX_VALUE, "run")) {
                for (int i = 0; i < s.points().size(); i++) {
                    SeriesPoint p = s.points().get(i);
                    SeriesChange c = changeAt(s, i);
                    w.row(List.of(p.runId(), RunFilterOptions.TIME.format(Instant.ofEpochMilli(p.startedAtMs())), value(p.value()),
                            String.valueOf(p.rounds()), c == null ? "" : describe(c)));
                }
            }
            out.println();
        }
    }

    /** {@code worse -9.9% (95% CI -11.0% … -8.8%, p 3.1e-12); variable x: 1 → 2}. */
    static String describe(SeriesChange c) {
        PercentInterval i = c.change();
        String interval = i.bounded() ? String.format(Locale.ROOT, "95%% CI %+.1f%% … %+.1f%%", i.lowPct(),
                i.highPct()) : "95% CI unbounded";
        String what = c.differences().isEmpty() ? "fingerprint unchanged"
                : String.join("; ", c.differences().stream().map(Object::toString).toList());
        return String.format(Locale.ROOT, "%s %+.1f%% (%s, p %.2g); %s", c.worse() ? "worse" : "better",
                i.estimatePct(), interval, c.pValue(), what);
    }

    private static SeriesChange changeAt(Series s, int index) {
        return s.changes().stream().filter(c -> c.index() == index).findFirst().orElse(null);
    }

    private static String value(double v) {
        return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.3f", v);
    }

    /** The columns of {@code --format csv}: one row per run of each series. */
    public static final List<String> CSV_COLUMNS = List.of("target", "product", "workload", "options", "threads",
            "metric", "run_id", "started", "value", "rounds", "change_pct", "change_low_pct", "change_high_pct",
            "p_value", "worse", "differences");

    private static void csv(PrintWriter out, List<Series> all) {
        try (TableFormat.RowWriter w = TableFormat.CSV.open(out, CSV_COLUMNS, 0)) {
            for (Series s : all) {
                for (int i = 0; i < s.points().size(); i++) {
                    SeriesPoint p = s.points().get(i);
                    SeriesChange c = changeAt(s, i);
                    w.row(Arrays.asList(s.key().target(), s.key().product(), s.key().workload(), s.key().options(),
                            s.key().threads(), s.metric().id(), p.runId(),
                            Instant.ofEpochMilli(p.startedAtMs()).toString(), p.value(), p.rounds(),
                            c == null ? null : finite(c.change().estimatePct()),
                            c == null ? null : c.change().lowPct(), c == null ? null : c.change().highPct(),
                            c == null ? null : c.pValue(), c == null ? null : c.worse(),
                            c == null ? null : String.join("; ", c.differences().stream().map(Object::toString)
                                    .toList())));
                }
            }
        }
    }

    private static Double finite(double d) {
        return Double.isFinite(d) ? d : null;
    }

    /** {@code {"metric", "settings", "series": [{key fields, "points": [...], "changes": [...]}]}}. */
    private static String json(List<Series> all, Metric m, ChangePointSettings settings) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("metric", m.id());
        doc.put("settings", Map.of("maxPValue", settings.maxPValue(), "minChangePct", settings.minMagnitude() * 100,
                "minRuns", settings.minSegment(), "windowRuns", settings.windowLength()));
        List<Map<String, Object>> series = new ArrayList<>();
        for (Series s : all) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("target", s.key().target());
            o.put("product", s.key().product());
            o.put("workload", s.key().workload());
            o.put("options", Json.read(s.key().options(), Map.class));
            o.put("threads", s.key().threads());
            o.put("points", s.points().stream().map(p -> {
                Map<String, Object> pt = new LinkedHashMap<>();
                pt.put("runId", p.runId());
                pt.put("startedAt", Instant.ofEpochMilli(p.startedAtMs()).toString());
                pt.put("value", p.value());
                pt.put("rounds", p.rounds());
                pt.put("fingerprint", p.fingerprint().attributes());
                return pt;
            }).toList());
            o.put("changes", s.changes().stream().map(c -> {
                Map<String, Object> ch = new LinkedHashMap<>();
                ch.put("index", c.index());
                ch.put("lastRunBefore", c.lastRunBefore());
                ch.put("firstRunAfter", c.firstRunAfter());
                ch.put("runsBefore", c.runsBefore());
                ch.put("runsAfter", c.runsAfter());
                ch.put("meanBefore", c.meanBefore());
                ch.put("meanAfter", c.meanAfter());
                ch.put("changePct", finite(c.change().estimatePct()));
                ch.put("changeLowPct", c.change().lowPct());
                ch.put("changeHighPct", c.change().highPct());
                ch.put("pValue", c.pValue());
                ch.put("worse", c.worse());
                ch.put("differences", c.differences());
                return ch;
            }).toList());
            series.add(o);
        }
        doc.put("series", series);
        try {
            return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(doc) + System.lineSeparator();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the trend as JSON", e);
        }
    }
}
