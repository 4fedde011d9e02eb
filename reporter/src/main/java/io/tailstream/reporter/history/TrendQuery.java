package io.tailstream.reporter.history;

import com.fasterxml.jackson.core.type.TypeReference;
import io.tailstream.analysis.change.ChangePointDetector;
import io.tailstream.reporter.archive.ArchiveLayout;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.reporter.query.StepFigure;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.TargetInfo;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The series of an archive: its completed steps grouped by {@link SeriesKey}, one point per run (the run's completed
 * steps of the key pooled, the metric exact from the raw samples: {@link TrendFigures}), each with the run's
 * {@link Fingerprint}, and the change points of each series. Runs whose steps of a series did not complete, or that have no value for the metric
 * (a latency with no successful transaction), are not points of it. Stateless and thread safe; the
 * {@link ArchiveDatabase} it reads is not.
 */
public final class TrendQuery {

    private TrendQuery() {}

    /** The datasets a trend reads, to open the archive with: {@code ArchiveDatabase.open(archive, DATASETS)}. */
    public static final List<String> DATASETS = List.of(ArchiveLayout.SAMPLES, ArchiveLayout.STEPS, ArchiveLayout.RUNS);

    private static final TypeReference<TreeMap<String, String>> STRINGS = new TypeReference<>() { };

    /** The temporary table of the completed steps a trend follows: what their fingerprints and figures need. */
    static final String STEPS_TABLE = "trend_steps";

    // The completed steps matching the filter (%2$s: its conditions), read once from steps and runs (%1$s: the
    // variables column, where the archive has one) into the table %3$s.
    private static final String STEPS = """
            CREATE OR REPLACE TEMP TABLE %3$s AS
            SELECT s.run_id, s.step_id, s.target, s.product, s.version, s.url, s.workload, s.options, s.threads,
                   %1$s AS variables, s.warmup_ms, s.measure_ms,
                   json_extract_string(r.client, '$.host') AS client_host,
                   json_extract_string(r.settings, '$.loop') AS loop,
                   json_extract_string(r.settings, '$.rate') AS rate, r.started_at_ms,
                   CASE WHEN s.measure_end_us > s.measure_start_us THEN s.measure_end_us - s.measure_start_us END
                       AS exact_us
            FROM steps s JOIN runs r ON r.run_id = s.run_id
            WHERE s.outcome = 'completed'%2$s""";

    // Runs oldest first.
    private static final String DESCRIBE = """
            SELECT run_id, target, product, version, url, workload, options, threads, variables, warmup_ms,
                   measure_ms, client_host, loop, rate, started_at_ms
            FROM %s ORDER BY started_at_ms, run_id, step_id""".formatted(STEPS_TABLE);

    /** The series matching {@code filter}, ordered by workload, target, product and threads. */
    public static List<Series> of(ArchiveDatabase db, TrendFilter filter, Metric metric,
                                  ChangePointDetector detector) throws SQLException {
        if (!db.has(ArchiveLayout.STEPS) || !db.has(ArchiveLayout.RUNS)) {
            return List.of();
        }
        Map<String, Run> runs = describe(db, filter);
        if (runs.isEmpty()) {
            return List.of();
        }
        Map<String, Map<StepFigure.Key, TrendFigures.Value>> values = TrendFigures.of(db, metric);
        Map<SeriesKey, List<SeriesPoint>> bySeries = new TreeMap<>();
        runs.forEach((runId, run) -> {
            Map<StepFigure.Key, TrendFigures.Value> ofRun = values.getOrDefault(runId, Map.of());
            run.steps.forEach((stepKey, d) -> {
                TrendFigures.Value v = ofRun.get(stepKey);
                if (v != null) {
                    bySeries.computeIfAbsent(d.key, k -> new ArrayList<>()).add(new SeriesPoint(runId,
                            run.startedAtMs, v.value(), v.rounds(), d.fingerprint()));
                }
            });
        });
        List<Series> out = new ArrayList<>();
        bySeries.forEach((key, points) -> out.add(Series.analyse(key, metric, points, detector)));
        return out;
    }

    /** A run with completed steps of the filter's series, by (target, workload, threads). */
    private static final class Run {
        final long startedAtMs;
        final Map<StepFigure.Key, Described> steps = new LinkedHashMap<>();

        Run(long startedAtMs) {
            this.startedAtMs = startedAtMs;
        }
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

    /**
     * The runs with completed steps matching {@code filter}, oldest first, from {@link #STEPS_TABLE}, which this
     * fills (one read of steps and runs).
     */
    private static Map<String, Run> describe(ArchiveDatabase db, TrendFilter filter) throws SQLException {
        StringBuilder where = new StringBuilder();
        List<Object> params = new ArrayList<>();
        if (filter.target() != null) {
            where.append(" AND s.target = ?");
            params.add(filter.target());
        }
        if (filter.workload() != null) {
            where.append(" AND s.workload = ?");
            params.add(filter.workload());
        }
        if (filter.threads() != null) {
            where.append(" AND s.threads = ?");
            params.add(filter.threads());
        }
        if (filter.since() != null) {
            where.append(" AND r.started_at_ms >= ?");
            params.add(filter.since().toEpochMilli());
        }
        String variablesColumn = db.hasColumn(ArchiveLayout.STEPS, "target_variables") ? "s.target_variables"
                : "NULL";
        Map<String, Run> out = new LinkedHashMap<>();
        // a history repeats the same options and variables run after run: each distinct text is parsed once
        Map<String, String> options = new HashMap<>();
        Map<String, Map<String, String>> variables = new HashMap<>();
        try (PreparedStatement ps = db.connection().prepareStatement(STEPS.formatted(variablesColumn, where, STEPS_TABLE))) {
            for (int i = 0; i < params.size(); i++) {
                ps.setObject(i + 1, params.get(i));
            }
            ps.execute();
        }
        try (Statement st = db.connection().createStatement()) {
            try (ResultSet rs = st.executeQuery(DESCRIBE)) {
                while (rs.next()) {
                    String target = rs.getString(2);
                    String workload = rs.getString(6);
                    int threads = rs.getInt(8);
                    SeriesKey series = new SeriesKey(target, Objects.requireNonNullElse(rs.getString(3), ""),
                            workload, options.computeIfAbsent(rs.getString(7), TrendQuery::canonical), threads);
                    long startedAtMs = rs.getLong(15);
                    Described d = out.computeIfAbsent(rs.getString(1), r -> new Run(startedAtMs)).steps
                            .computeIfAbsent(new StepFigure.Key(target, workload, threads), k -> new Described(series));
                    d.add("version", rs.getString(4));
                    d.add("driver", driver(rs.getString(5)));
                    d.add("url", rs.getString(5));
                    // every captured variable but the data size, which is measured at each step, not set
                    variables.computeIfAbsent(rs.getString(9), TrendQuery::parse).forEach((name, value) -> {
                        if (!name.equals(TargetInfo.DATA_BYTES_VARIABLE)) {
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
