package io.tailstream.reporter.report;

import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.reporter.query.StepFigure;
import io.tailstream.reporter.query.StepFigureQuery;
import io.tailstream.reporter.report.Environment.TargetEnv;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/** The per-workload summary tables: figures from raw samples, deltas, sweeps and costs. Stateless. */
final class SummaryQuery {

    private SummaryQuery() {}

    /**
     * Summary rows of the selected runs: per (workload, target, threads) the completed steps pooled, and each step
     * that did not complete apart (its {@code outcome} set), exactly as {@link StepFigureQuery} computes them for
     * {@code compare}; ms from µs.
     */
    static List<SummaryRow> rows(ArchiveDatabase db, List<String> runIds) throws SQLException {
        List<SummaryRow> out = new ArrayList<>();
        for (StepFigure f : StepFigureQuery.of(db, runIds, StepFigureQuery.Pooling.ACROSS_RUNS)) {
            out.add(row(f));
        }
        return out;
    }

    private static SummaryRow row(StepFigure f) {
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
                f.errorsByClass(), failed == null ? null : new SummaryRow.FailedLatency(failed.count(),
                        failed.meanUs() / 1000, failed.p99Us() / 1000.0, failed.maxUs() / 1000.0),
                ok == null ? 0 : ok.slowestCount(), ok == null ? null : ok.slowestSharePct(), f.exactSpan(),
                f.outcome(), f.steps().stream().map(r -> r.runId() + "#" + r.stepId()).toList(),
                f.tpcc() ? f.perStep().stream().map(StepFigure::tpmC).toList() : List.of());
    }

    /** Rows by workload; only completed rows enter deltas, sweeps, costs and verdicts, the others stand apart. */
    static List<WorkloadSummary> workloads(List<SummaryRow> rows, ReportOptions options,
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
    static List<Text> figureNotes(List<WorkloadSummary> workloads) {
        List<Text> out = new ArrayList<>();
        Set<String> inexact = new TreeSet<>();
        for (WorkloadSummary w : workloads) {
            Stream.concat(w.rows().stream(), w.incomplete().stream()).filter(r -> !r.exactSpan())
                    .forEach(r -> inexact.add(r.target() + " · " + r.workload() + " · " + r.threads() + " thr"));
        }
        if (!inexact.isEmpty()) {
            out.add(Text.of("figures.sampleSpan", String.join("; ", inexact)));
        }
        return out;
    }
}
