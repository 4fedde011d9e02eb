package io.tailstream.reporter.history;

import com.fasterxml.jackson.core.type.TypeReference;
import io.tailstream.analysis.change.ChangePointDetector;
import io.tailstream.reporter.archive.ArchiveLayout;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.reporter.query.RunCatalog;
import io.tailstream.reporter.query.RunFilter;
import io.tailstream.reporter.query.RunListing;
import io.tailstream.reporter.query.StepFigure;
import io.tailstream.reporter.query.StepFigureQuery;
import io.tailstream.reporter.report.FairnessProfile;
import io.tailstream.schemas.event.Json;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The series of an archive: its completed steps grouped by {@link SeriesKey}, one point per run (the run's completed
 * steps of the key pooled, figures exact from the raw samples), each with the run's {@link Fingerprint}, and the
 * change points of each series. Runs whose steps of a series did not complete, or that have no value for the metric
 * (a latency with no successful transaction), are not points of it. Stateless and thread safe; the
 * {@link ArchiveDatabase} it reads is not.
 */
public final class TrendQuery {

    private TrendQuery() {}

    private static final TypeReference<TreeMap<String, String>> STRINGS = new TypeReference<>() { };

    // One row per completed step of the runs given (%s: their ids as literals), with what its fingerprint needs.
    private static final String STEPS = """
            SELECT s.run_id, s.target, s.product, s.version, s.url, s.workload, s.options, s.threads,
                   %s AS variables, s.warmup_ms, s.measure_ms,
                   json_extract_string(r.client, '$.host'), json_extract_string(r.settings, '$.loop'),
                   json_extract_string(r.settings, '$.rate')
            FROM steps s JOIN runs r ON r.run_id = s.run_id
            WHERE s.outcome = 'completed' AND s.run_id IN (%s)
            ORDER BY s.run_id, s.step_id""";

    /** The series matching {@code filter}, ordered by workload, target, product and threads. */
    public static List<Series> of(ArchiveDatabase db, TrendFilter filter, Metric metric,
                                  ChangePointDetector detector) throws SQLException {
        if (!db.has(ArchiveLayout.STEPS) || !db.has(ArchiveLayout.RUNS)) {
            return List.of();
        }
        List<RunListing> runs = RunCatalog.list(db, new RunFilter(filter.target(), filter.workload(), null,
                filter.since()));
        if (runs.isEmpty()) {
            return List.of();
        }
        Map<String, Map<StepFigure.Key, Described>> described = describe(db, runs);
        Map<String, Map<StepFigure.Key, StepFigure>> figures = new HashMap<>();
        for (StepFigure f : StepFigureQuery.of(db, runs.stream().map(RunListing::runId).toList())) {
            if (f.completed()) {
                figures.computeIfAbsent(f.runId(), r -> new HashMap<>()).put(f.key(), f);
            }
        }
        Map<SeriesKey, List<SeriesPoint>> bySeries = new TreeMap<>();
        for (RunListing run : runs) {
            Map<StepFigure.Key, StepFigure> ofRun = figures.getOrDefault(run.runId(), Map.of());
            described.getOrDefault(run.runId(), Map.of()).forEach((stepKey, d) -> {
                StepFigure f = ofRun.get(stepKey);
                double value = f == null ? Double.NaN : metric.of(f);
                if (filter.matches(d.key) && !Double.isNaN(value)) {
                    bySeries.computeIfAbsent(d.key, k -> new ArrayList<>()).add(new SeriesPoint(run.runId(),
                            run.startedAtMs(), value, f.rounds(), f, d.fingerprint()));
                }
            });
        }
        List<Series> out = new ArrayList<>();
        bySeries.forEach((key, points) -> out.add(Series.analyse(key, metric, points, detector)));
        return out;
    }

    /** A run's completed steps of one (target, workload, threads): their series and the fingerprint's values. */
    private static final class Described {
        final SeriesKey key;
        final Map<String, Set<String>> values = new TreeMap<>();

        Described(SeriesKey key) {
            this.key = key;
        }

        void add(String attribute, String value) {
            if (value != null) {
                values.computeIfAbsent(attribute, a -> new LinkedHashSet<>()).add(value);
            }
        }

        Fingerprint fingerprint() {
            Map<String, String> joined = new LinkedHashMap<>();
            values.forEach((a, v) -> joined.put(a, String.join(" | ", v)));
            return Fingerprint.of(joined);
        }
    }

    private static Map<String, Map<StepFigure.Key, Described>> describe(ArchiveDatabase db, List<RunListing> runs)
            throws SQLException {
        String ids = runs.stream().map(r -> ArchiveDatabase.sqlString(r.runId())).collect(Collectors.joining(", "));
        String variables = db.hasColumn(ArchiveLayout.STEPS, "target_variables") ? "s.target_variables" : "NULL";
        Map<String, Map<StepFigure.Key, Described>> out = new HashMap<>();
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery(STEPS.formatted(variables, ids))) {
            while (rs.next()) {
                String run = rs.getString(1);
                String target = rs.getString(2);
                String workload = rs.getString(6);
                int threads = rs.getInt(8);
                SeriesKey series = new SeriesKey(target, java.util.Objects.requireNonNullElse(rs.getString(3), ""), workload,
                        canonical(rs.getString(7)), threads);
                Described d = out.computeIfAbsent(run, r -> new HashMap<>()).computeIfAbsent(
                        new StepFigure.Key(target, workload, threads), k -> new Described(series));
                d.add("version", rs.getString(4));
                d.add("driver", driver(rs.getString(5)));
                d.add("url", rs.getString(5));
                // every captured variable but the data size, which is measured at each step, not set
                parse(rs.getString(9)).forEach((name, value) -> {
                    if (!name.equals(FairnessProfile.DATA_BYTES)) {
                        d.add(Fingerprint.variable(name), value);
                    }
                });
                d.add("warmup ms", rs.getString(10));
                d.add("measure ms", rs.getString(11));
                d.add("client host", rs.getString(12));
                d.add("loop", rs.getString(13));
                d.add("rate", rs.getString(14));
            }
        }
        return out;
    }

    /** The JDBC driver a URL selects: its subprotocol ({@code jdbc:mariadb:...} is {@code mariadb}). */
    static String driver(String url) {
        if (url == null || !url.startsWith("jdbc:")) {
            return null;
        }
        int end = url.indexOf(':', 5);
        return end < 0 ? null : url.substring(5, end);
    }

    private static String canonical(String json) {
        return Json.writeString(parse(json));
    }

    private static TreeMap<String, String> parse(String json) {
        if (json == null || json.isBlank()) {
            return new TreeMap<>();
        }
        return Json.MAPPER.convertValue(Json.read(json, com.fasterxml.jackson.databind.JsonNode.class), STRINGS);
    }
}
