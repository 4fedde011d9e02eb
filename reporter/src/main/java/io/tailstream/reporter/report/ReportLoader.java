package io.tailstream.reporter.report;

import com.fasterxml.jackson.core.type.TypeReference;
import io.tailstream.reporter.archive.ArchiveLayout;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.reporter.query.StepFigure;
import io.tailstream.reporter.query.StepFigures;
import io.tailstream.reporter.report.ReportChecks.StepData;
import io.tailstream.reporter.report.ReportModel.Check;
import io.tailstream.reporter.report.ReportModel.Duration;
import io.tailstream.reporter.report.ReportModel.Environment;
import io.tailstream.reporter.report.ReportModel.RunInfo;
import io.tailstream.reporter.report.ReportModel.Stall;
import io.tailstream.reporter.report.ReportModel.StepInfo;
import io.tailstream.reporter.report.ReportModel.StepSeries;
import io.tailstream.reporter.report.ReportModel.SummaryRow;
import io.tailstream.reporter.report.ReportModel.TargetEnv;
import io.tailstream.reporter.report.ReportModel.VariableRow;
import io.tailstream.reporter.report.ReportModel.Verdict;
import io.tailstream.reporter.report.ReportModel.WorkloadSummary;
import io.tailstream.schemas.event.Json;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the selected runs of an archive into a {@link ReportModel} through DuckDB. Table figures come from raw
 * samples (exact); time series from the aggregator's all-ops windows (down-sampled for display only); what the
 * validity checks need of each step (client CPU, RTT probe, error share) through {@link EvidenceLoader}; stalls from
 * the {@code stalls} dataset when the archive has one.
 *
 * <p>Not thread safe while loading (one DuckDB connection); the model it returns is immutable.
 */
final class ReportLoader {

    private static final Logger LOG = LoggerFactory.getLogger(ReportLoader.class);

    /** Commit-durability settings, shown first and compared by the checklist (MySQL/MariaDB, PostgreSQL). */
    static final List<String> DURABILITY = List.of("innodb_flush_log_at_trx_commit", "sync_binlog", "log_bin",
            "innodb_doublewrite", "innodb_flush_method", "binlog_format", "rpl_semi_sync_master_enabled",
            "rpl_semi_sync_source_enabled", "rpl_semi_sync_master_wait_point", "synchronous_commit", "fsync",
            "full_page_writes", "wal_sync_method", "commit_delay", "synchronous_standby_names",
            FairnessProfile.H2_STORAGE, "WRITE_DELAY", "durability");
    /** Settings that change results by several times (methodology.md, pitfall 4), shown after durability. */
    static final List<String> KEY_VARIABLES = List.of("innodb_buffer_pool_size", "innodb_io_capacity",
            "innodb_io_capacity_max", "innodb_log_file_size", "innodb_redo_log_capacity", "max_connections",
            "shared_buffers", "effective_cache_size", "CACHE_SIZE", FairnessProfile.DATA_BYTES, "thread_handling",
            FairnessProfile.ISOLATION, "transaction_isolation", "tx_isolation", "default_transaction_isolation");
    /** Ops whose average latency is RAL (reads) and WAL (writes), for YCSB-like workloads. */
    static final List<String> READ_OPS = StepFigures.READ_OPS;
    static final List<String> WRITE_OPS = StepFigures.WRITE_OPS;

    static final String STALLS = "stalls";

    private ReportLoader() {}

    static ReportModel load(Path archive, ReportOptions options) throws SQLException {
        PhaseTimer timer = new PhaseTimer();
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            timer.lap("open");
            if (!db.has(ArchiveLayout.RUNS) || !db.has(ArchiveLayout.STEPS)) {
                throw new IllegalArgumentException("the archive " + archive + " has no runs (no runs/steps dataset)");
            }
            List<RunInfo> selected = select(runs(db), options, archive);
            String inRuns = "run_id IN (" + String.join(", ", selected.stream().map(RunInfo::runId)
                    .map(ArchiveDatabase::sqlString).toList()) + ")";
            List<String> notes = new ArrayList<>();
            List<StepInfo> steps = new ArrayList<>();
            Map<String, TargetEnv> stepTargets = new TreeMap<>();
            Map<String, Map<String, String>> variables = new TreeMap<>();
            Map<String, Map<String, String>> stepVariables = new HashMap<>();
            steps(db, inRuns, steps, stepTargets, variables, stepVariables);
            timer.lap("runs+steps");
            if (options.baseline() != null && !stepTargets.containsKey(options.baseline())) {
                throw new IllegalArgumentException("baseline target " + options.baseline()
                        + " is not in the selected runs; targets there: " + stepTargets.keySet());
            }
            boolean hasSamples = db.has(ArchiveLayout.SAMPLES);
            Map<String, SampleFacts> facts = hasSamples ? sampleFacts(db, inRuns) : Map.of();
            timer.lap("sampleFacts");
            Map<String, EvidenceLoader.StepFacts> evidence = EvidenceLoader.load(db, inRuns);
            Map<String, ReportChecks.RunSettings> settings = runSettings(selected, notes);
            Map<String, Health> health = new HashMap<>();
            for (StepInfo s : steps) {
                EvidenceLoader.StepFacts e = evidence.get(s.runId() + "/" + s.stepId());
                if (e != null) {
                    health.put(s.runId() + "/" + s.stepId(), new Health(e.cpuPct(), ReportChecks.clientBound(e.cpuPct(),
                            e.clientBound(), settings.get(s.runId()).clientCpuLimitPct())));
                }
            }
            timer.lap("evidence");
            Map<String, TargetEnv> targets = withHealth(stepTargets, steps, health, probeRttMs(steps, evidence));

            List<SummaryRow> rows = hasSamples ? summaryRows(db, selected.stream().map(RunInfo::runId).toList())
                    : List.of();
            timer.lap("summary");
            List<WorkloadSummary> workloads = workloads(rows, options, targets);
            List<Stall> stalls = stalls(db, inRuns, steps, notes);
            List<ReportModel.StallDetection> detection = stallDetection(db, inRuns, steps, stalls);
            timer.lap("stalls");
            List<StepSeries> charts = new ArrayList<>();
            List<StepData> stepData = new ArrayList<>();
            List<ReportModel.Soak> soak = new ArrayList<>();
            Map<String, TimeSeries.Bounds> bounds = new HashMap<>();
            facts.forEach((k, f) -> bounds.put(k, f.bounds()));
            Map<String, TimeSeries.StepPoints> series = TimeSeries.load(db, inRuns, steps, bounds);
            timer.lap("windows");
            int i = 0;
            for (StepInfo s : steps) {
                String key = s.runId() + "/" + s.stepId();
                TimeSeries.StepPoints ts = series.get(key);
                List<double[]> p = ts.points();
                SampleFacts f = facts.get(key);
                Long measureStart = ts.measureStartMs();
                charts.add(series("chart-" + i++, s, ts, stalls));
                ReportModel.Soak soakFigures = ReportAnalysis.soak(s, p, measureStart, stalls);
                if (soakFigures != null) {
                    soak.add(soakFigures);
                }
                Double[] settle = settle(p, measureStart);
                EvidenceLoader.StepFacts e = evidence.get(key);
                stepData.add(new StepData(s, f == null ? 0 : f.warmupSamples(), settle[0], settle[1],
                        e == null ? null : e.cpuPct(), e != null && e.clientBound(), stepVariables.get(key),
                        targets.get(s.target()).product(), e == null ? null : e.cpuSource(),
                        e == null ? null : e.measuredSamples(), e == null ? null : e.measuredErrors(),
                        e == null ? null : e.probe()));
            }
            ReportChecks.Evidence judged = new ReportChecks.Evidence(stepData, settings);
            Environment env = environment(targets, variables, steps)
                    .withFairness(ReportAnalysis.fairness(targets.keySet(), stepData));
            List<Verdict> verdicts = new ArrayList<>();
            workloads.forEach(w -> verdicts.addAll(ReportAnalysis.verdicts(w, targets, judged)));
            List<Check> checklist = ReportChecks.checks(judged, workloads);
            timer.lap("analysis");
            LOG.debug("report model of {}: {}", archive, timer);
            // language-neutral: the page and the md summary put the localized "tailstream report" before it
            String title = selected.size() == 1 ? selected.get(0).planName() + " (" + selected.get(0).runId() + ")"
                    : String.join(", ", new TreeSet<>(selected.stream().map(RunInfo::planName).toList()));
            return new ReportModel(title, System.currentTimeMillis(), options.baseline(), selected, verdicts, env,
                    workloads, charts, ReportAnalysis.scaleOut(workloads, targets), checklist, steps, stalls, soak,
                    notes, figureNotes(workloads), detection);
        }
    }

    private static List<RunInfo> runs(ArchiveDatabase db) throws SQLException {
        List<RunInfo> out = new ArrayList<>();
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT run_id, plan_name, started_at_ms, ended_at_ms, samples_sent,"
                     + " outcome, client, settings FROM runs ORDER BY started_at_ms, run_id")) {
            while (rs.next()) {
                out.add(new RunInfo(rs.getString(1), rs.getString(2), rs.getLong(3), (Long) rs.getObject(4),
                        (Long) rs.getObject(5), rs.getString(6), rs.getString(7), rs.getString(8)));
            }
        }
        return out;
    }

    static List<RunInfo> select(List<RunInfo> all, ReportOptions options, Path archive) {
        if (all.isEmpty()) {
            throw new IllegalArgumentException("the archive " + archive + " has no runs");
        }
        List<RunInfo> pool = all;
        if (options.planName() != null) {
            pool = all.stream().filter(r -> options.planName().equals(r.planName())).toList();
            if (pool.isEmpty()) {
                throw new IllegalArgumentException("plan " + options.planName() + " has no runs in the archive "
                        + archive + "; plans there: " + new TreeSet<>(all.stream().map(RunInfo::planName).toList()));
            }
        }
        if (options.latest()) {
            return List.of(pool.get(pool.size() - 1));
        }
        if (options.runIds().isEmpty()) {
            return pool;
        }
        Map<String, RunInfo> byId = new LinkedHashMap<>();
        all.forEach(r -> byId.put(r.runId(), r));
        List<RunInfo> out = new ArrayList<>();
        for (String id : options.runIds()) {
            RunInfo r = byId.get(id);
            if (r == null) {
                throw new IllegalArgumentException("run " + id + " is not in the archive " + archive
                        + "; runs there: " + byId.keySet());
            }
            out.add(r);
        }
        return out;
    }

    private static void steps(ArchiveDatabase db, String inRuns, List<StepInfo> steps, Map<String, TargetEnv> targets,
                              Map<String, Map<String, String>> variables,
                              Map<String, Map<String, String>> stepVariables) throws SQLException {
        String sql = "SELECT run_id, step_id, target, url, workload, threads, round, warmup_ms, measure_ms, options,"
                + " outcome, started_at_ms, ended_at_ms, product, version, nodes, monthly_cost, currency,"
                + " target_variables, " + optionalColumn(db, "cost_items") + ", "
                + optionalColumn(db, "producer_threads") + " FROM steps WHERE " + inRuns
                + " ORDER BY started_at_ms, run_id, step_id";
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                String target = rs.getString(3);
                steps.add(new StepInfo(rs.getString(1), rs.getInt(2), target, rs.getString(4), rs.getString(5),
                        rs.getInt(6), rs.getInt(7), rs.getLong(8), rs.getLong(9), rs.getString(10), rs.getString(11),
                        rs.getLong(12), (Long) rs.getObject(13), producerThreads(rs.getString(21))));
                Number nodes = (Number) rs.getObject(16);
                Number cost = (Number) rs.getObject(17);
                // the latest step describes the target (a re-run after a change wins)
                targets.put(target, new TargetEnv(target, rs.getString(14), rs.getString(15), rs.getString(4),
                        nodes == null ? null : nodes.intValue(), cost == null ? null : cost.doubleValue(),
                        rs.getString(18), null, null, List.of(), costItems(rs.getString(20))));
                String vars = rs.getString(19);
                Map<String, String> parsed = vars == null || vars.isBlank() ? Map.of()
                        : Json.MAPPER.convertValue(Json.MAPPER.readTree(vars),
                        new TypeReference<Map<String, String>>() { });
                variables.put(target, parsed);
                stepVariables.put(rs.getString(1) + "/" + rs.getInt(2), parsed);
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("steps dataset: target_variables, cost_items or producer_threads is not a JSON object: "
                    + e.getOriginalMessage(), e);
        }
    }

    /** How the steps run by several producers split their threads, e.g. {@code "4 = gen-a 2 + gen-b 2"}; distinct. */
    private static List<String> producerSplits(List<StepInfo> steps) {
        Set<String> out = new LinkedHashSet<>();
        for (StepInfo s : steps) {
            if (s.producerThreads().size() > 1) {
                StringBuilder b = new StringBuilder().append(s.threads()).append(" = ");
                s.producerThreads().forEach((producer, threads) -> b.append(producer).append(' ').append(threads)
                        .append(" + "));
                out.add(b.substring(0, b.length() - 3));
            }
        }
        return List.copyOf(out);
    }

    /** A column of {@code steps}, or NULL for archives written before the column existed. */
    private static String optionalColumn(ArchiveDatabase db, String column) throws SQLException {
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT * FROM steps LIMIT 0")) {
            java.sql.ResultSetMetaData md = rs.getMetaData();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                if (md.getColumnName(i).equals(column)) {
                    return column;
                }
            }
        }
        return "NULL AS " + column;
    }

    private static Map<String, Integer> producerThreads(String json)
            throws com.fasterxml.jackson.core.JsonProcessingException {
        return json == null || json.isBlank() ? Map.of() : Json.MAPPER.convertValue(Json.MAPPER.readTree(json),
                new TypeReference<Map<String, Integer>>() { });
    }

    private static Map<String, Double> costItems(String json) throws com.fasterxml.jackson.core.JsonProcessingException {
        return json == null || json.isBlank() ? null : Json.MAPPER.convertValue(Json.MAPPER.readTree(json),
                new TypeReference<java.util.LinkedHashMap<String, Double>>() { });
    }

    /** Warm-up sample count of each step (key run/step) and the bounds of its samples. */
    private record SampleFacts(long warmupSamples, TimeSeries.Bounds bounds) {}

    private static Map<String, SampleFacts> sampleFacts(ArchiveDatabase db, String inRuns) throws SQLException {
        Map<String, SampleFacts> out = new HashMap<>();
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT run_id, step_id, count(*) FILTER (WHERE warmup),"
                     + " min(start_us) FILTER (WHERE NOT warmup), max(start_us + latency_us),"
                     + " max(start_us + latency_us) FILTER (WHERE NOT warmup) FROM samples WHERE " + inRuns
                     + " GROUP BY 1, 2")) {
            while (rs.next()) {
                out.put(rs.getString(1) + "/" + rs.getInt(2), new SampleFacts(rs.getLong(3), new TimeSeries.Bounds(
                        longOrNull(rs.getObject(4)), longOrNull(rs.getObject(5)), longOrNull(rs.getObject(6)))));
            }
        }
        return out;
    }

    private static Long longOrNull(Object n) {
        return n == null ? null : ((Number) n).longValue();
    }

    /** Client health of one step: the client CPU figure the checks use, and whether the producer flagged it. */
    private record Health(Double cpuPct, boolean clientBound) {}

    /** Per target, the median over its steps of the RTT probe's median, in ms (targets without probes absent). */
    private static Map<String, Double> probeRttMs(List<StepInfo> steps, Map<String, EvidenceLoader.StepFacts> facts) {
        Map<String, List<Double>> by = new TreeMap<>();
        for (StepInfo s : steps) {
            EvidenceLoader.StepFacts f = facts.get(s.runId() + "/" + s.stepId());
            if (f != null && f.probe() != null) {
                by.computeIfAbsent(s.target(), k -> new ArrayList<>()).add(f.probe().p50Us() / 1000);
            }
        }
        Map<String, Double> out = new HashMap<>();
        by.forEach((t, v) -> out.put(t, ReportChecks.median(v)));
        return out;
    }

    /** The checks' settings of each run; names in a plan's {@code accept} that are not checks become notes. */
    private static Map<String, ReportChecks.RunSettings> runSettings(List<RunInfo> runs, List<String> notes) {
        Map<String, ReportChecks.RunSettings> out = new HashMap<>();
        for (RunInfo r : runs) {
            ReportChecks.RunSettings s = ReportChecks.RunSettings.of(r.runId(), r.settings());
            if (!s.unknownAccept().isEmpty()) {
                notes.add("run " + r.runId() + ": the plan's accept names " + s.unknownAccept()
                        + ", which are not checks a plan may waive (ignored); checks: " + ReportChecks.WAIVABLE);
            }
            out.put(r.runId(), s);
        }
        return out;
    }

    /** Targets with their median probe RTT, their highest step client CPU and their client-bound steps. */
    private static Map<String, TargetEnv> withHealth(Map<String, TargetEnv> targets, List<StepInfo> steps,
                                                     Map<String, Health> health, Map<String, Double> rtt) {
        if (health.isEmpty() && rtt.isEmpty()) {
            return targets;
        }
        Map<String, Double> cpuMax = new HashMap<>();
        Map<String, List<String>> bound = new HashMap<>();
        for (StepInfo s : steps) {
            Health h = health.get(s.runId() + "/" + s.stepId());
            if (h == null) {
                continue;
            }
            if (h.cpuPct() != null) {
                cpuMax.merge(s.target(), h.cpuPct(), Math::max);
            }
            if (h.clientBound()) {
                // the row already names the target: workload and concurrency are what tell the steps apart
                String label = s.workload() + " @" + s.threads() + (s.round() > 1 ? " r" + s.round() : "");
                List<String> labels = bound.computeIfAbsent(s.target(), k -> new ArrayList<>());
                if (!labels.contains(label)) {
                    labels.add(label);
                }
            }
        }
        Map<String, TargetEnv> out = new TreeMap<>();
        targets.forEach((name, t) -> out.put(name, new TargetEnv(t.name(), t.product(), t.version(), t.url(),
                t.nodes(), t.monthlyCost(), t.currency(), rtt.get(name), cpuMax.get(name),
                bound.getOrDefault(name, List.of()), t.costItems())));
        return out;
    }

    /**
     * Summary rows of the selected runs: per (workload, target, threads) the completed steps pooled, and each step
     * that did not complete apart (its {@code outcome} set), exactly as {@link StepFigures} computes them for
     * {@code compare}; ms from µs.
     */
    static List<SummaryRow> summaryRows(ArchiveDatabase db, List<String> runIds) throws SQLException {
        List<SummaryRow> out = new ArrayList<>();
        for (StepFigure f : StepFigures.of(db, runIds, StepFigures.Pooling.ACROSS_RUNS)) {
            out.add(summaryRow(f));
        }
        return out;
    }

    private static SummaryRow summaryRow(StepFigure f) {
        StepFigure.Latencies ok = f.ok();
        StepFigure.Latencies failed = f.failed();
        List<Double> roundQps = f.perStep().stream().map(StepFigure::qps).toList();
        List<Double> roundP99 = f.perStep().stream().map(s -> s.p99Us() / 1000.0).toList();
        return new SummaryRow(f.target(), f.workload(), f.threads(), f.rounds(), f.samples(), f.seconds(), f.qps(),
                f.tps(), ok == null ? 0 : ok.meanUs() / 1000, ok == null ? 0 : ok.p95Us() / 1000.0,
                ok == null ? 0 : ok.p99Us() / 1000.0, ok == null ? 0 : ok.maxUs() / 1000.0, f.errors(),
                f.readMeanUs() == null ? null : f.readMeanUs() / 1000,
                f.writeMeanUs() == null ? null : f.writeMeanUs() / 1000, roundQps, roundP99, null,
                ok == null ? 0 : ok.p999Us() / 1000.0, ok == null ? 0 : ok.p9999Us() / 1000.0, f.errorsPerSecond(),
                f.errorsByClass(), failed == null ? null : new ReportModel.FailedLatency(failed.count(),
                        failed.meanUs() / 1000, failed.p99Us() / 1000.0, failed.maxUs() / 1000.0),
                ok == null ? 0 : ok.slowestCount(), ok == null ? null : ok.slowestSharePct(), f.exactSpan(),
                f.outcome(), f.steps().stream().map(r -> r.runId() + "#" + r.stepId()).toList());
    }

    /** Rows by workload; only completed rows enter deltas, sweeps, costs and verdicts, the others stand apart. */
    private static List<WorkloadSummary> workloads(List<SummaryRow> rows, ReportOptions options,
                                                   Map<String, TargetEnv> targets) {
        Map<String, List<SummaryRow>> byWorkload = new TreeMap<>();
        rows.forEach(r -> byWorkload.computeIfAbsent(r.workload(), k -> new ArrayList<>()).add(r));
        List<WorkloadSummary> out = new ArrayList<>();
        for (Map.Entry<String, List<SummaryRow>> e : byWorkload.entrySet()) {
            List<SummaryRow> completed = e.getValue().stream().filter(SummaryRow::completed).toList();
            List<SummaryRow> wr = ReportAnalysis.withDeltas(completed, options.baseline());
            List<Integer> levels = ReportAnalysis.threadLevels(wr);
            Integer at = ReportAnalysis.compareThreads(wr, options.atThreads());
            boolean ralWal = e.getValue().stream().anyMatch(r -> r.ralMs() != null || r.walMs() != null);
            out.add(new WorkloadSummary(e.getKey(), wr, ralWal, levels, ReportAnalysis.sweep(wr, levels),
                    ReportAnalysis.costs(wr, targets, at), at,
                    e.getValue().stream().filter(r -> !r.completed()).toList()));
        }
        return out;
    }

    /** How the figures were computed where the archive forced a fallback. */
    static List<ReportModel.Text> figureNotes(List<WorkloadSummary> workloads) {
        List<ReportModel.Text> out = new ArrayList<>();
        Set<String> inexact = new TreeSet<>();
        for (WorkloadSummary w : workloads) {
            java.util.stream.Stream.concat(w.rows().stream(), w.incomplete().stream()).filter(r -> !r.exactSpan())
                    .forEach(r -> inexact.add(r.target() + " · " + r.workload() + " · " + r.threads() + " thr"));
        }
        if (!inexact.isEmpty()) {
            out.add(ReportModel.Text.of("figures.sampleSpan", String.join("; ", inexact)));
        }
        return out;
    }

    private static Environment environment(Map<String, TargetEnv> targets, Map<String, Map<String, String>> variables,
                                           List<StepInfo> steps) {
        Set<String> names = new TreeSet<>();
        variables.values().forEach(v -> names.addAll(v.keySet()));
        List<String> order = new ArrayList<>();
        DURABILITY.stream().filter(names::contains).forEach(order::add);
        KEY_VARIABLES.stream().filter(names::contains).forEach(order::add);
        names.stream().filter(n -> !order.contains(n)).forEach(order::add);
        List<VariableRow> rows = new ArrayList<>();
        for (String n : order) {
            Map<String, String> values = new TreeMap<>();
            variables.forEach((t, v) -> {
                if (v.containsKey(n) && v.get(n) != null) {
                    values.put(t, v.get(n));
                }
            });
            boolean differs = new TreeSet<>(values.values()).size() > 1 || values.size() < variables.size();
            rows.add(new VariableRow(n, values, DURABILITY.contains(n), differs));
        }
        Map<String, List<StepInfo>> byTw = new TreeMap<>();
        steps.forEach(s -> byTw.computeIfAbsent(s.target() + "\u0000" + s.workload(), k -> new ArrayList<>()).add(s));
        List<Duration> durations = new ArrayList<>();
        for (List<StepInfo> group : byTw.values()) {
            StepInfo f = group.get(0);
            Map<Integer, Integer> roundsByThreads = new TreeMap<>();
            group.forEach(s -> roundsByThreads.merge(s.threads(), 1, Integer::sum));
            durations.add(new Duration(f.target(), f.workload(),
                    group.stream().mapToLong(StepInfo::warmupMs).min().orElse(0),
                    group.stream().mapToLong(StepInfo::warmupMs).max().orElse(0),
                    group.stream().mapToLong(StepInfo::measureMs).min().orElse(0),
                    group.stream().mapToLong(StepInfo::measureMs).max().orElse(0),
                    roundsByThreads.values().stream().mapToInt(Integer::intValue).min().orElse(0),
                    List.copyOf(roundsByThreads.keySet()), producerSplits(group)));
        }
        return new Environment(List.copyOf(targets.values()), rows, durations);
    }

    /**
     * Stalls of the selected runs from the {@code stalls} view: the last record per stall (open stalls are
     * republished while they last). Rows without a start or end (a file written with other column names) are left
     * out with a note, because the report stays useful without them.
     */
    private static List<Stall> stalls(ArchiveDatabase db, String inRuns, List<StepInfo> steps, List<String> notes)
            throws SQLException {
        if (!db.has(STALLS)) {
            return List.of();
        }
        Map<String, StepInfo> byKey = new HashMap<>();
        steps.forEach(s -> byKey.put(s.runId() + "/" + s.stepId(), s));
        List<Stall> out = new ArrayList<>();
        String sql = "SELECT run_id, step_id, kind, start_ms, max(end_ms) FROM " + STALLS + " WHERE " + inRuns
                + " AND start_ms IS NOT NULL AND end_ms IS NOT NULL AND kind IS NOT NULL GROUP BY ALL ORDER BY 4, 1, 2";
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                StepInfo s = byKey.get(rs.getString(1) + "/" + rs.getInt(2));
                out.add(new Stall(rs.getString(1), rs.getInt(2), s == null ? "" : s.target(),
                        s == null ? "" : s.workload(), s == null ? 0 : s.threads(), rs.getString(3), rs.getLong(4),
                        rs.getLong(5)));
            }
        }
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM " + STALLS + " WHERE " + inRuns
                     + " AND (start_ms IS NULL OR end_ms IS NULL OR kind IS NULL)")) {
            rs.next();
            if (rs.getLong(1) > 0) {
                notes.add(rs.getLong(1) + " rows of the stalls dataset lack step_id, kind, start_ms or end_ms"
                        + " (written with other column names?); they are not shown");
                LOG.warn("stalls dataset: {} rows without kind, start_ms or end_ms", rs.getLong(1));
            }
        }
        return out;
    }

    /**
     * Per step, whether the aggregator's stall detector ran: a step summary of the step is in the archive (the
     * detector runs in the stage that publishes them, and publishes the summary once the step's windows closed).
     */
    static List<ReportModel.StallDetection> stallDetection(ArchiveDatabase db, String inRuns, List<StepInfo> steps,
                                                           List<Stall> stalls) throws SQLException {
        Set<String> summarized = new java.util.HashSet<>();
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery("SELECT DISTINCT run_id, step_id FROM " + ArchiveLayout.SUMMARIES
                     + " WHERE " + inRuns)) {
            while (rs.next()) {
                summarized.add(rs.getString(1) + "/" + rs.getInt(2));
            }
        }
        List<ReportModel.StallDetection> out = new ArrayList<>();
        for (StepInfo s : steps) {
            int n = (int) stalls.stream().filter(x -> x.runId().equals(s.runId()) && x.stepId() == s.stepId()).count();
            out.add(new ReportModel.StallDetection(s.runId(), s.stepId(), s.target(), s.workload(), s.threads(),
                    s.round(), summarized.contains(s.runId() + "/" + s.stepId()), n));
        }
        return out;
    }

    /** Wall time of the loading phases, for the debug log (where a slow report spends its time). */
    private static final class PhaseTimer {
        private final StringBuilder laps = new StringBuilder();
        private long last = System.nanoTime();

        void lap(String phase) {
            long now = System.nanoTime();
            laps.append(laps.length() == 0 ? "" : ", ").append(phase).append(' ').append((now - last) / 1_000_000)
                    .append(" ms");
            last = now;
        }

        @Override
        public String toString() {
            return laps.toString();
        }
    }

    private static String first(Set<String> columns, String... names) {
        for (String n : names) {
            if (columns.contains(n)) {
                return n;
            }
        }
        return null;
    }

    /**
     * Mean QPS of the last quarter of the warm-up windows (those ending by the measurement start) and of the
     * measured windows (starting at or after it, the step's last, partial window left out); nulls without data.
     */
    static Double[] settle(List<double[]> points, Long measureStartMs) {
        if (measureStartMs == null || points.size() < 3) {
            return new Double[] {null, null};
        }
        double ms = measureStartMs / 1000.0;
        List<double[]> warm = points.stream().filter(p -> p[0] + 1 <= ms).toList();
        List<double[]> measured = points.subList(0, points.size() - 1).stream().filter(p -> p[0] >= ms).toList();
        if (warm.isEmpty() || measured.isEmpty()) {
            return new Double[] {null, null};
        }
        List<double[]> tail = warm.subList(warm.size() - Math.max(1, warm.size() / 4), warm.size());
        return new Double[] {tail.stream().mapToDouble(p -> p[1]).average().orElseThrow(),
                measured.stream().mapToDouble(p -> p[1]).average().orElseThrow()};
    }

    private static StepSeries series(String domId, StepInfo s, TimeSeries.StepPoints ts, List<Stall> stalls) {
        List<double[]> points = ts.points();
        int n = points.size();
        long[] t = new long[n];
        double[] qps = new double[n];
        double[] p99 = new double[n];
        for (int k = 0; k < n; k++) {
            t[k] = (long) points.get(k)[0];
            qps[k] = points.get(k)[1];
            p99[k] = points.get(k)[2];
        }
        int[] q = Downsample.minMax(qps, Downsample.DEFAULT_BUCKETS);
        int[] p = Downsample.minMax(p99, Downsample.DEFAULT_BUCKETS);
        List<double[]> shaded = stalls.stream().filter(x -> x.runId().equals(s.runId()) && x.stepId() == s.stepId())
                .map(x -> new double[] {x.startMs() / 1000.0, x.endMs() / 1000.0}).toList();
        return new StepSeries(domId, s.runId(), s.stepId(), s.target(), s.workload(), s.threads(), s.round(),
                Downsample.pick(t, q), Downsample.pick(qps, q), Downsample.pick(t, p), Downsample.pick(p99, p), n,
                ts.measureStartMs(), shaded, ts.measureEndMs(), ts.startMs(), ts.normalized(), ts.allStatements(),
                "completed".equals(s.outcome()) ? null : s.outcome() == null ? StepFigure.NOT_ENDED : s.outcome());
    }
}
