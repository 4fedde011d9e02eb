package io.tailstream.reporter.query;

import io.tailstream.reporter.archive.ArchiveLayout;
import io.tailstream.analysis.PercentChange;
import io.tailstream.analysis.interval.PercentInterval;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Compares two runs step by step — steps matched by target, workload and threads, figures exact from raw samples
 * ({@link StepFigureQuery}: QPS of successful statements over the measured span, P99 of successful transactions),
 * each change with its 95% confidence interval ({@link StepIntervals}) — and says whether the candidate is worse than
 * the baseline beyond a threshold: the whole interval of its throughput change (QPS; for TPC-C tpmC, completed
 * New-Orders per measured minute) below minus the threshold, or the whole interval of its P99 change above the
 * threshold. A change whose interval has no bounds is judged on its estimate.
 * Only completed steps are compared; a step that did not complete (failed, interrupted) is listed apart, and one in
 * the candidate fails the gate. Stateless and thread safe.
 */
public final class RunComparison {

    private RunComparison() {}

    /** The datasets a comparison reads, to open the archive with: {@code ArchiveDatabase.open(archive, DATASETS)}. */
    public static final List<String> DATASETS = List.of(ArchiveLayout.SAMPLES, ArchiveLayout.STEPS, ArchiveLayout.RUNS,
            ArchiveLayout.WINDOWS);

    /** Verdict on one matched step. */
    public enum Verdict {
        /**
         * Throughput (QPS; tpmC for TPC-C) dropped or P99 rose by more than the threshold, the whole interval beyond
         * it.
         */
        WORSE,
        /** Not worse, and throughput rose or P99 dropped by more than the threshold, the whole interval beyond it. */
        BETTER,
        /** Neither: the difference is within the threshold, or the data cannot tell. */
        SAME
    }

    /**
     * One matched (target, workload, threads).
     *
     * @param qpsDeltaPct {@code (candidate - baseline) / baseline * 100}; positive is better
     * @param p99DeltaPct {@code (candidate - baseline) / baseline * 100}; negative is better
     * @param intervals   the 95% intervals of both changes, and where their noise comes from
     */
    public record Row(StepFigure.Key key, StepFigure baseline, StepFigure candidate, double qpsDeltaPct,
                      double p99DeltaPct, StepIntervals.Intervals intervals, Verdict verdict) {}

    /**
     * @param thresholdPct       the threshold used, in percent
     * @param rows               matched steps, by workload, target, threads
     * @param baselineOnly       steps only the baseline completed
     * @param candidateOnly      steps only the candidate completed
     * @param baselineIncomplete steps of the baseline that did not complete, with their partial figures and outcome
     * @param candidateIncomplete steps of the candidate that did not complete
     */
    public record Result(String baselineRun, String candidateRun, double thresholdPct, List<Row> rows,
                         List<StepFigure.Key> baselineOnly, List<StepFigure.Key> candidateOnly,
                         List<StepFigure> baselineIncomplete, List<StepFigure> candidateIncomplete) {

        public Result {
            rows = List.copyOf(rows);
            baselineOnly = List.copyOf(baselineOnly);
            candidateOnly = List.copyOf(candidateOnly);
            baselineIncomplete = List.copyOf(baselineIncomplete);
            candidateIncomplete = List.copyOf(candidateIncomplete);
        }

        /**
         * True if any matched step is {@link Verdict#WORSE}, or a step of the candidate did not complete: the
         * regression gate fails.
         */
        public boolean regressed() {
            return rows.stream().anyMatch(r -> r.verdict() == Verdict.WORSE) || !candidateIncomplete.isEmpty();
        }
    }

    /**
     * @param thresholdPct e.g. 5 for 5 %; at least 0
     * @throws IllegalArgumentException if a run is unknown or unreadable (naming what exists or the bad file),
     *                                  or no step of the two runs matches
     */
    public static Result compare(ArchiveDatabase db, String baselineRun, String candidateRun, double thresholdPct)
            throws SQLException {
        if (!(thresholdPct >= 0) || Double.isInfinite(thresholdPct)) {
            throw new IllegalArgumentException("threshold must be a percentage >= 0, was " + thresholdPct);
        }
        RunCatalog.require(db, baselineRun);
        RunCatalog.require(db, candidateRun);
        // both runs' figures in one pass over their samples
        List<StepFigure> figures = StepFigureQuery.of(db, List.of(baselineRun, candidateRun));
        List<StepFigure> baseFigures = ofRun(figures, baselineRun);
        List<StepFigure> candFigures = ofRun(figures, candidateRun);
        Map<StepFigure.Key, StepFigure> base = byKey(baseFigures);
        Map<StepFigure.Key, StepFigure> cand = byKey(candFigures);
        List<Row> rows = new ArrayList<>();
        List<StepFigure.Key> baseOnly = new ArrayList<>();
        Map<String, Map<Integer, StepSeconds>> seconds = seconds(db, base, cand);
        Map<String, Map<Integer, StepSeconds>> newOrders = newOrders(db, base, cand);
        for (Map.Entry<StepFigure.Key, StepFigure> e : base.entrySet()) {
            StepFigure c = cand.get(e.getKey());
            if (c == null) {
                baseOnly.add(e.getKey());
                continue;
            }
            StepFigure b = e.getValue();
            StepIntervals.Intervals intervals = StepIntervals.of(b, c, seconds, newOrders);
            rows.add(new Row(e.getKey(), b, c, deltaPct(b.qps(), c.qps()), deltaPct(b.p99Us(), c.p99Us()), intervals,
                    verdict(intervals, thresholdPct)));
        }
        List<StepFigure.Key> candOnly = cand.keySet().stream().filter(k -> !base.containsKey(k)).toList();
        List<StepFigure> candIncomplete = incomplete(candFigures);
        if (rows.isEmpty() && candIncomplete.isEmpty()) {
            throw new IllegalArgumentException("no step of run " + candidateRun + " matches one of run " + baselineRun
                    + " by target, workload and threads (with measured samples); baseline has " + base.keySet()
                    + ", candidate has " + cand.keySet());
        }
        return new Result(baselineRun, candidateRun, thresholdPct, rows, baseOnly, candOnly, incomplete(baseFigures),
                candIncomplete);
    }

    /**
     * Worse when the throughput change (QPS; tpmC for TPC-C) lies wholly below {@code -threshold} or the P99 change
     * wholly above it; better when not worse and the throughput change lies wholly above it or the P99 change wholly
     * below {@code -threshold}. An interval without bounds stands for its estimate alone; a change no larger than the
     * figure's measured noise (its round-to-round variation) counts for neither.
     */
    static Verdict verdict(StepIntervals.Intervals i, double thresholdPct) {
        PercentInterval throughput = i.throughput();
        Double noise = i.throughputNoisePct();
        if (throughput.below(-thresholdPct, noise) || i.p99().above(thresholdPct, i.p99NoisePct())) {
            return Verdict.WORSE;
        }
        return throughput.above(thresholdPct, noise) || i.p99().below(-thresholdPct, i.p99NoisePct())
                ? Verdict.BETTER : Verdict.SAME;
    }

    /** The per-second series of the matched steps whose intervals need them. */
    private static Map<String, Map<Integer, StepSeconds>> seconds(ArchiveDatabase db,
            Map<StepFigure.Key, StepFigure> base, Map<StepFigure.Key, StepFigure> cand) throws SQLException {
        Map<StepFigure.StepRef, Long> steps = new LinkedHashMap<>();
        base.forEach((key, b) -> {
            StepFigure c = cand.get(key);
            if (c != null && StepIntervals.needsSeconds(b, c)) {
                for (StepFigure f : List.of(b, c)) {
                    f.perStep().forEach(step -> steps.put(step.steps().get(0), step.samples()));
                }
            }
        });
        return StepSecondsQuery.of(db, steps);
    }

    /** The New-Orders per unit of the matched TPC-C steps whose tpmC interval needs them. */
    private static Map<String, Map<Integer, StepSeconds>> newOrders(ArchiveDatabase db,
            Map<StepFigure.Key, StepFigure> base, Map<StepFigure.Key, StepFigure> cand) throws SQLException {
        List<StepFigure.StepRef> steps = new ArrayList<>();
        base.forEach((key, b) -> {
            StepFigure c = cand.get(key);
            if (c != null && b.tpcc() && StepIntervals.needsSeconds(b, c)) {
                for (StepFigure f : List.of(b, c)) {
                    f.perStep().forEach(step -> steps.add(step.steps().get(0)));
                }
            }
        });
        return StepSecondsQuery.newOrders(db, steps);
    }

    private static List<StepFigure> ofRun(List<StepFigure> figures, String runId) {
        return figures.stream().filter(f -> f.runId().equals(runId)).toList();
    }

    private static List<StepFigure> incomplete(List<StepFigure> figures) {
        return figures.stream().filter(f -> !f.completed()).toList();
    }

    /**
     * {@code (candidate - baseline) / baseline * 100}; 0 if both are 0, +/-infinity if only the baseline is 0
     * ({@link PercentChange#orInfinity}).
     */
    static double deltaPct(double baseline, double candidate) {
        return PercentChange.orInfinity(candidate, baseline);
    }

    private static Map<StepFigure.Key, StepFigure> byKey(List<StepFigure> figures) {
        return figures.stream().filter(StepFigure::completed).collect(Collectors.toMap(StepFigure::key,
                Function.identity(), (a, b) -> a, TreeMap::new));
    }
}
