package io.tailstream.reporter.query;

import io.tailstream.reporter.HistoryEvents;
import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.TestArchives;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Synthetic runs for the history tests and the exact figures they must produce, computed in plain Java. */
final class QueryFixtures {

    private QueryFixtures() {}

    static final long T0 = 1_764_000_000_000L; // 2025-11-24T16:00:00Z

    /** Two steps (point select on a, read-write on b), two producers, samplesPerSecond per producer. */
    static SyntheticRun run(String id, long seed, int samplesPerSecond, long startMs) {
        return new SyntheticRun(id, seed, List.of("p1", "p2"), List.of(
                new SyntheticRun.StepSpec("a", "oltp_point_select", 4, 1, 1, 500, 1500),
                new SyntheticRun.StepSpec("b", "oltp_read_write", 8, 1, 20, 500, 1500)),
                samplesPerSecond, 2, startMs);
    }

    static void archive(Path dir, SyntheticRun... runs) {
        List<SyntheticRun.Rec> all = new ArrayList<>();
        for (SyntheticRun r : runs) {
            all.addAll(r.allRecords(2, 2));
            all.addAll(new HistoryEvents(r).records());
        }
        TestArchives.write(dir, all, 5_000);
    }

    /** The figures StepFigures must return for a run, from its rows (every step is its own key here). */
    static List<StepFigure> expected(SyntheticRun run) {
        Map<Integer, List<SyntheticRun.Row>> byStep = new TreeMap<>();
        run.rows.stream().filter(r -> !r.warmup()).forEach(r -> byStep.computeIfAbsent(r.stepId(),
                k -> new ArrayList<>()).add(r));
        List<StepFigure> out = new ArrayList<>();
        byStep.forEach((step, rows) -> {
            SyntheticRun.StepSpec spec = run.steps.get(step - 1);
            long n = rows.size();
            long errors = rows.stream().filter(r -> !r.status().equals("ok")).count();
            long span = rows.stream().mapToLong(SyntheticRun.Row::endUs).max().orElseThrow()
                    - rows.stream().mapToLong(SyntheticRun.Row::startUs).min().orElseThrow();
            double seconds = span / 1e6;
            long queries = rows.stream().mapToLong(SyntheticRun.Row::queries).sum();
            long[] lat = rows.stream().mapToLong(SyntheticRun.Row::latencyUs).sorted().toArray();
            double mean = (double) rows.stream().mapToLong(SyntheticRun.Row::latencyUs).sum() / n;
            out.add(new StepFigure(run.runId, spec.target(), spec.workload(), spec.threads(), 1, n, errors, seconds,
                    queries, queries / seconds, (n - errors) / seconds, mean, nearestRank(lat, 0.5),
                    nearestRank(lat, 0.95), nearestRank(lat, 0.99), lat[lat.length - 1]));
        });
        out.sort(Comparator.comparing(StepFigure::workload).thenComparing(StepFigure::target));
        return out;
    }

    /** Value at rank ceil(p * n) (1-based) of sorted values. */
    static long nearestRank(long[] sorted, double p) {
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(rank, 1) - 1];
    }
}
