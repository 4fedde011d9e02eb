package io.tailstream.reporter.report;

import io.tailstream.reporter.archive.ArchiveLayout;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.reporter.query.TpccSamples;
import io.tailstream.reporter.report.Environment.TargetEnv;
import io.tailstream.schemas.event.DataChecked;
import io.tailstream.schemas.event.Json;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Reads what {@link TpccFigures} computes from: per target and concurrency of the workload {@code tpcc}, the
 * latency counts of the completed steps' measured samples by op and outcome (the steps the summary row pools), the
 * steps' warehouses, and the consistency checks the producer ran after them ({@code data_checked} control events).
 * Stateless.
 */
final class TpccQuery {

    // %1$s: the run ids as literals (DuckDB prunes hive partitions only for constants); %2$s: the workload's name
    private static final String COUNTS = """
            SELECT st.target, st.threads, s.op, s.status = 'ok' AS ok, s.latency_us, count(*) AS n
            FROM samples s JOIN steps st ON s.run_id = st.run_id AND s.step_id = st.step_id
            WHERE s.run_id IN (%1$s) AND st.run_id IN (%1$s) AND st.workload = %2$s AND st.outcome = 'completed'
              AND NOT s.warmup
            GROUP BY ALL
            """;
    private static final String WAREHOUSES = """
            SELECT DISTINCT target, threads, CAST(json_extract_string(options, '$.warehouses') AS INTEGER),
                   coalesce(json_extract_string(options, '$.think_times') = 'true', false)
            FROM steps WHERE run_id IN (%1$s) AND workload = %2$s AND outcome = 'completed'
            ORDER BY 1, 2, 3
            """;

    // the data checks after the completed steps, oldest step first; %1$s: the run ids; %2$s: the workload's name
    private static final String CHECKS = """
            SELECT st.target, st.threads, c.run_id, c.step_id, c.event
            FROM control c JOIN steps st ON c.run_id = st.run_id AND c.step_id = st.step_id
            WHERE c.run_id IN (%1$s) AND st.run_id IN (%1$s) AND c.type = 'data_checked' AND st.workload = %2$s
              AND st.outcome = 'completed'
            ORDER BY st.started_at_ms, c.run_id, c.step_id
            """;

    private TpccQuery() {}

    /** {@code workloads} with the TPC-C figures of the {@code tpcc} one's completed rows attached. */
    static List<WorkloadSummary> attach(ArchiveDatabase db, Collection<String> runIds, List<WorkloadSummary> workloads,
                                        Map<String, TargetEnv> targets) throws SQLException {
        if (workloads.stream().noneMatch(w -> w.workload().equals(TpccSamples.WORKLOAD))
                || !db.has(ArchiveLayout.SAMPLES)) {
            return workloads;
        }
        String runs = runIds.stream().map(ArchiveDatabase::sqlString).collect(Collectors.joining(", "));
        String workload = ArchiveDatabase.sqlString(TpccSamples.WORKLOAD);
        // per (target, threads), per op and outcome
        Map<String, Map<String, TpccFigures.Counts>> counts = new TreeMap<>();
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery(COUNTS.formatted(runs, workload))) {
            while (rs.next()) {
                String op = rs.getString(3);
                boolean ok = rs.getBoolean(4);
                counts.computeIfAbsent(key(rs.getString(1), rs.getInt(2)), k -> new TreeMap<>())
                        .computeIfAbsent(key(op, ok ? 1 : 0), k -> new TpccFigures.Counts(op, ok, new TreeMap<>()))
                        .byLatencyUs().put(rs.getLong(5), rs.getLong(6));
            }
        }
        Map<String, TreeSet<Integer>> warehouses = new TreeMap<>();
        Map<String, Boolean> thinkTimes = new TreeMap<>();
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery(WAREHOUSES.formatted(runs, workload))) {
            while (rs.next()) {
                String key = key(rs.getString(1), rs.getInt(2));
                int w = rs.getInt(3);
                if (!rs.wasNull()) {
                    warehouses.computeIfAbsent(key, k -> new TreeSet<>()).add(w);
                }
                thinkTimes.merge(key, rs.getBoolean(4), Boolean::logicalAnd);
            }
        }
        Map<String, List<String[]>> checks = new TreeMap<>();
        if (db.has(ArchiveLayout.CONTROL)) {
            try (Statement st = db.connection().createStatement();
                 ResultSet rs = st.executeQuery(CHECKS.formatted(runs, workload))) {
                while (rs.next()) {
                    checks.computeIfAbsent(key(rs.getString(1), rs.getInt(2)), k -> new ArrayList<>())
                            .add(new String[] {rs.getString(3) + "#" + rs.getInt(4), rs.getString(5)});
                }
            }
        }
        List<WorkloadSummary> out = new ArrayList<>();
        for (WorkloadSummary w : workloads) {
            if (!w.workload().equals(TpccSamples.WORKLOAD)) {
                out.add(w);
                continue;
            }
            List<TpccRow> rows = new ArrayList<>();
            for (SummaryRow r : w.rows()) {
                String key = key(r.target(), r.threads());
                rows.add(TpccFigures.row(r, List.copyOf(warehouses.getOrDefault(key, new TreeSet<>())),
                        thinkTimes.getOrDefault(key, false),
                        List.copyOf(counts.getOrDefault(key, Map.of()).values()), targets.get(r.target()))
                        .withConsistency(consistency(r.rounds(), checks.getOrDefault(key, List.of()))));
            }
            out.add(w.withTpcc(rows));
        }
        return out;
    }

    /** The checks after a row's steps: each {run#step, data_checked event JSON}. */
    private static TpccRow.Consistency consistency(int steps, List<String[]> events) {
        java.util.Set<String> checkedSteps = new TreeSet<>();
        List<String> broken = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        for (String[] e : events) {
            DataChecked checked = Json.read(e[1], DataChecked.class);
            if (checked.error() != null) {
                errors.add(e[0] + ": " + checked.error());
                continue;
            }
            checkedSteps.add(e[0]);
            checked.checks().stream().filter(c -> !c.held())
                    .forEach(c -> broken.add(e[0] + " " + c.name() + ": " + c.detail()));
        }
        return new TpccRow.Consistency(steps, checkedSteps.size(), broken, errors);
    }

    private static String key(String name, int number) {
        return name + '\u0000' + number;
    }
}
