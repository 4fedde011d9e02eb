package io.tailstream.reporter.report;

import io.tailstream.reporter.archive.ArchiveLayout;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.reporter.report.Environment.TargetEnv;
import io.tailstream.reporter.report.Evidence.CheckSettings;
import io.tailstream.reporter.report.Evidence.StepData;
import io.tailstream.reporter.report.SampleFactsQuery.SampleFacts;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the selected runs of an archive into a {@link ReportModel} through DuckDB, one query class per section:
 * runs ({@link RunsQuery}) and steps ({@link StepsQuery}); table figures from raw samples, exact
 * ({@link SummaryQuery}); time series from the aggregator's all-ops windows, down-sampled for display only
 * ({@link TimeSeries}, {@link StepCharts}); what the validity checks need of each step (client CPU, RTT probe, error
 * share) through {@link EvidenceLoader}; stalls from the {@code stalls} view ({@link StallsQuery}); the environment
 * ({@link EnvironmentSection}). This class only puts them together.
 *
 * <p>Not thread safe while loading (one DuckDB connection); the model it returns is immutable.
 */
final class ReportLoader {

    private static final Logger LOG = LoggerFactory.getLogger(ReportLoader.class);

    private ReportLoader() {}

    /** The archive's runs of the selected runs' plans, when there are more of them than those selected. */
    static ReportModel.History history(List<RunInfo> all, List<RunInfo> selected) {
        Set<String> plans = new TreeSet<>(selected.stream().map(RunInfo::planName).toList());
        long runs = all.stream().filter(r -> plans.contains(r.planName())).count();
        return runs > selected.size() ? new ReportModel.History(List.copyOf(plans), (int) runs) : null;
    }

    static ReportModel load(Path archive, ReportOptions options) throws SQLException {
        PhaseTimer timer = new PhaseTimer();
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            timer.lap("open");
            if (!db.has(ArchiveLayout.RUNS) || !db.has(ArchiveLayout.STEPS)) {
                throw new IllegalArgumentException("the archive " + archive + " has no runs (no runs/steps dataset)");
            }
            List<RunInfo> all = RunsQuery.all(db);
            List<RunInfo> selected = RunsQuery.select(all, options, archive);
            String inRuns = "run_id IN (" + String.join(", ", selected.stream().map(RunInfo::runId)
                    .map(ArchiveDatabase::sqlString).toList()) + ")";
            List<String> notes = new ArrayList<>();
            StepsQuery.Steps stepsRead = StepsQuery.load(db, inRuns);
            List<StepInfo> steps = stepsRead.steps();
            timer.lap("runs+steps");
            if (options.baseline() != null && !stepsRead.targets().containsKey(options.baseline())) {
                throw new IllegalArgumentException("baseline target " + options.baseline()
                        + " is not in the selected runs; targets there: " + stepsRead.targets().keySet());
            }
            boolean hasSamples = db.has(ArchiveLayout.SAMPLES);
            Map<StepKey, SampleFacts> facts = hasSamples ? SampleFactsQuery.load(db, inRuns) : Map.of();
            timer.lap("sampleFacts");
            Map<StepKey, EvidenceLoader.StepFacts> evidence = EvidenceLoader.load(db, inRuns);
            Map<String, CheckSettings> settings = runSettings(selected, notes);
            Map<StepKey, EnvironmentSection.Health> health = new HashMap<>();
            for (StepInfo s : steps) {
                EvidenceLoader.StepFacts e = evidence.get(StepKey.of(s));
                if (e != null) {
                    health.put(StepKey.of(s), new EnvironmentSection.Health(e.cpuPct(), ValidityChecks.clientBound(
                            e.cpuPct(), e.clientBound(), settings.get(s.runId()).clientCpuLimitPct())));
                }
            }
            timer.lap("evidence");
            Map<String, TargetEnv> targets = EnvironmentSection.withHealth(stepsRead.targets(), steps, health,
                    EnvironmentSection.probeRttMs(steps, evidence));

            List<SummaryRow> rows = hasSamples ? SummaryQuery.rows(db, selected.stream().map(RunInfo::runId).toList())
                    : List.of();
            timer.lap("summary");
            List<WorkloadSummary> workloads = TpccQuery.attach(db, selected.stream().map(RunInfo::runId).toList(),
                    SummaryQuery.workloads(rows, options, targets), targets);
            List<Stall> stalls = ServerCountersQuery.explain(db, inRuns, StallsQuery.stalls(db, inRuns, steps));
            List<StallDetection> detection = StallsQuery.detection(db, inRuns, steps, stalls);
            timer.lap("stalls");
            Map<StepKey, ServerChart> server = ServerCountersQuery.charts(db, inRuns);
            timer.lap("serverCounters");
            Map<StepKey, TimeSeries.Bounds> bounds = new HashMap<>();
            facts.forEach((k, f) -> bounds.put(k, f.bounds()));
            Map<StepKey, TimeSeries.StepPoints> series = TimeSeries.load(db, inRuns, steps, bounds);
            timer.lap("windows");
            List<StepSeries> charts = new ArrayList<>();
            List<StepData> stepData = new ArrayList<>();
            List<Soak> soak = new ArrayList<>();
            for (StepInfo s : steps) {
                StepKey key = StepKey.of(s);
                TimeSeries.StepPoints ts = series.get(key);
                charts.add(StepCharts.series("chart-" + charts.size(), s, ts, stalls, server.get(key)));
                Soak soakFigures = ReportAnalysis.soak(s, ts.points(), ts.measureStartMs(), stalls);
                if (soakFigures != null) {
                    soak.add(soakFigures);
                }
                stepData.add(stepData(s, ts, facts.get(key), evidence.get(key), stepsRead.stepVariables().get(key),
                        targets));
            }
            Evidence judged = new Evidence(stepData, settings);
            Environment env = EnvironmentSection.environment(targets, stepsRead.variables(), steps)
                    .withFairness(ReportAnalysis.fairness(targets.keySet(), stepData));
            List<Verdict> verdicts = new ArrayList<>();
            workloads.forEach(w -> verdicts.addAll(Verdicts.of(w, targets, judged)));
            List<Check> checklist = Checklist.checks(judged, workloads);
            timer.lap("analysis");
            LOG.debug("report model of {}: {}", archive, timer);
            // language-neutral: the page and the md summary put the localized "tailstream report" before it
            String title = selected.size() == 1 ? selected.get(0).planName() + " (" + selected.get(0).runId() + ")"
                    : String.join(", ", new TreeSet<>(selected.stream().map(RunInfo::planName).toList()));
            return new ReportModel(title, System.currentTimeMillis(), options.baseline(), selected, verdicts, env,
                    workloads, charts, ReportAnalysis.scaleOut(workloads, targets), checklist, steps, stalls, soak,
                    notes, SummaryQuery.figureNotes(workloads), detection, history(all, selected));
        }
    }

    /** What the checks judge of one step: its settling, client health, probe and errors. */
    private static StepData stepData(StepInfo s, TimeSeries.StepPoints ts, SampleFacts f, EvidenceLoader.StepFacts e,
                                     Map<String, String> variables, Map<String, TargetEnv> targets) {
        Double[] settle = StepCharts.settle(ts.points(), ts.measureStartMs());
        return new StepData(s, f == null ? 0 : f.warmupSamples(), settle[0], settle[1],
                e == null ? null : e.cpuPct(), e != null && e.clientBound(), variables,
                targets.get(s.target()).product(), e == null ? null : e.cpuSource(),
                e == null ? null : e.measuredSamples(), e == null ? null : e.measuredErrors(),
                e == null ? null : e.probe());
    }

    /** The checks' settings of each run; names in a plan's {@code accept} that are not checks become notes. */
    private static Map<String, CheckSettings> runSettings(List<RunInfo> runs, List<String> notes) {
        Map<String, CheckSettings> out = new HashMap<>();
        for (RunInfo r : runs) {
            CheckSettings s = CheckSettings.of(r.runId(), r.settings());
            if (!s.unknownAccept().isEmpty()) {
                notes.add("run " + r.runId() + ": the plan's accept names " + s.unknownAccept()
                        + ", which are not checks a plan may waive (ignored); checks: " + ValidityChecks.WAIVABLE);
            }
            out.put(r.runId(), s);
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
}
