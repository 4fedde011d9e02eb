package io.tailstream.reporter.query;

import io.tailstream.reporter.ExactFigures;
import io.tailstream.reporter.HistoryEvents;
import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.TestArchives;
import java.nio.file.Path;
import java.util.ArrayList;
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

    /**
     * The figures StepFigureQuery must return for a run, from its rows (every step is its own key here; the runs'
     * events predate recorded measurement boundaries, so each step's span is that of its measured samples), ordered
     * by workload as StepFigureQuery orders them.
     */
    static List<ExactFigures.Expected> expected(SyntheticRun run) {
        Map<Integer, List<SyntheticRun.Row>> byStep = new TreeMap<>();
        run.rows.stream().filter(r -> !r.warmup()).forEach(r -> byStep.computeIfAbsent(r.stepId(),
                k -> new ArrayList<>()).add(r));
        Map<String, ExactFigures.Expected> out = new TreeMap<>();
        byStep.forEach((step, rows) -> {
            SyntheticRun.StepSpec spec = run.steps.get(step - 1);
            long span = rows.stream().mapToLong(SyntheticRun.Row::endUs).max().orElseThrow()
                    - rows.stream().mapToLong(SyntheticRun.Row::startUs).min().orElseThrow();
            out.put(spec.workload() + "/" + spec.target(), ExactFigures.of(List.of(new ExactFigures.Step(
                    rows.stream().map(r -> new ExactFigures.Sample(r.latencyUs(), r.status(), r.queries(), r.op()))
                            .toList(), span))));
        });
        return List.copyOf(out.values());
    }

    /** Value at rank ceil(p * n) (1-based) of sorted values. */
    static long nearestRank(long[] sorted, double p) {
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(rank, 1) - 1];
    }
}
