package io.tailstream.cli.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.tailstream.cli.UserFacingException;
import io.tailstream.analysis.interval.PercentInterval;
import io.tailstream.cli.options.ArchiveOptions;
import io.tailstream.cli.options.Percentages;
import io.tailstream.cli.options.TableFormatOption;
import io.tailstream.reporter.output.TableFormat;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.reporter.query.RunComparison;
import io.tailstream.reporter.query.StepFigure;
import io.tailstream.schemas.event.Json;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Per-step deltas between two runs; a regression gate. */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Compare a candidate run with a baseline run, step by step (matched by target, workload and"
                + " threads; figures exact from the raw samples of the measurement phase: QPS of successful statements"
                + " over the measured span, for TPC-C tpmC, P99 of successful transactions), each change with its 95%%"
                + " confidence interval (between rounds where both runs have 2 or more, else within the steps'"
                + " seconds). Steps that did not complete are listed apart.",
                "Exit code 0: no matched step is worse; " + CompareCommand.EXIT_REGRESSION + ": on at least one step"
                        + " the whole interval of the candidate's QPS (TPC-C: tpmC) change lies below -THRESHOLD, or"
                        + " of its P99 change above THRESHOLD, or a step of the candidate did not complete; 1: error;"
                        + " 2: bad usage."})
public final class CompareCommand implements Callable<Integer> {

    /** Exit code when the candidate is worse than the baseline beyond the threshold. */
    public static final int EXIT_REGRESSION = 3;

    @Spec
    CommandSpec spec;

    @Mixin
    ArchiveOptions archiveOptions = new ArchiveOptions();

    @Option(names = "--baseline", paramLabel = "RUN", required = true, description = "Run id of the baseline.")
    String baseline;

    @Option(names = "--candidate", paramLabel = "RUN", required = true, arity = "1..*",
            description = "Run id of a candidate; several are each compared with the baseline.")
    List<String> candidates;

    @Option(names = "--threshold", paramLabel = "PCT", defaultValue = "5",
            description = "Worse by more than this fails the gate, in percent: 5%% or 5 (default: 5%%).")
    String threshold;

    @Mixin
    TableFormatOption formatOption = new TableFormatOption();

    @Override
    public Integer call() {
        Path archive = archiveOptions.existing(spec);
        double pct = Percentages.parse(spec, "--threshold", threshold);
        TableFormat format = formatOption.format(spec);
        List<RunComparison.Result> results = new ArrayList<>();
        try (ArchiveDatabase db = ArchiveDatabase.open(archive, RunComparison.DATASETS)) {
            for (String candidate : candidates) {
                results.add(RunComparison.compare(db, baseline, candidate, pct));
            }
        } catch (IllegalArgumentException e) {
            throw new UserFacingException(e.getMessage(), e);
        } catch (SQLException e) {
            throw new UserFacingException("cannot compare runs in " + archive, e);
        }
        PrintWriter out = spec.commandLine().getOut();
        boolean regressed = results.stream().anyMatch(RunComparison.Result::regressed);
        if (format == TableFormat.JSON) {
            out.print(json(results, pct, regressed));
        } else if (format == TableFormat.CSV) {
            try (TableFormat.RowWriter w = TableFormat.CSV.open(out, MACHINE_COLUMNS, 0)) {
                results.forEach(result -> machineRows(result).forEach(r -> w.row(new ArrayList<>(r.values()))));
            }
        } else {
            results.forEach(result -> table(out, result, pct));
        }
        out.flush();
        return regressed ? EXIT_REGRESSION : 0;
    }

    private static void table(PrintWriter out, RunComparison.Result result, double pct) {
        String baseline = result.baselineRun();
        String candidate = result.candidateRun();
        out.printf("baseline %s, candidate %s, threshold %s%%%n", baseline, candidate, num(pct));
        // TPC-C is judged on tpmC: its rows get a table of their own, with tpmC where the others have QPS
        for (boolean tpcc : new boolean[] {false, true}) {
            List<RunComparison.Row> rows = result.rows().stream()
                    .filter(r -> r.key().tpcc() == tpcc).toList();
            if (!rows.isEmpty()) {
                throughputTable(out, rows, tpcc ? "tpmC" : "qps");
            }
        }
        for (RunComparison.Row r : result.rows()) {
            undetectable(out, r, r.key().tpcc() ? "tpmC" : "QPS", r.intervals().throughput());
            undetectable(out, r, "P99", r.intervals().p99());
        }
        for (StepFigure.Key k : result.baselineOnly()) {
            out.println("only in the baseline (not compared): " + k);
        }
        for (StepFigure.Key k : result.candidateOnly()) {
            out.println("only in the candidate (not compared): " + k);
        }
        for (StepFigure f : result.baselineIncomplete()) {
            out.println("baseline step did not complete (not compared): " + incomplete(f));
        }
        for (StepFigure f : result.candidateIncomplete()) {
            out.println("candidate step did not complete (not compared): " + incomplete(f));
        }
        long worse = result.rows().stream().filter(r -> r.verdict() == RunComparison.Verdict.WORSE).count();
        if (worse > 0) {
            out.printf("REGRESSION: %d of %d steps worse than the baseline by more than %s%% (exit code %d)%n", worse,
                    result.rows().size(), num(pct), EXIT_REGRESSION);
        } else if (!result.candidateIncomplete().isEmpty()) {
            out.printf("REGRESSION: %d step(s) of the candidate did not complete (exit code %d)%n",
                    result.candidateIncomplete().size(), EXIT_REGRESSION);
        } else {
            out.printf("OK: no step worse than the baseline by more than %s%%%n", num(pct));
        }
    }

    /** Matched steps with their throughput figure, {@code qps} or {@code tpmC} (then the rows are TPC-C's). */
    private static void throughputTable(PrintWriter out, List<RunComparison.Row> rows, String figure) {
        boolean tpmC = figure.equals("tpmC");
        try (TableFormat.RowWriter w = TableFormat.TABLE.open(out, List.of("workload", "target", "threads",
                figure + " base", figure + " cand", figure + " Δ", figure + " Δ 95% CI", "p99 ms base",
                "p99 ms cand", "p99 Δ", "p99 Δ 95% CI", "noise", figure + " noise", "p99 noise", "verdict"),
                Integer.MAX_VALUE, "step")) {
            for (RunComparison.Row r : rows) {
                PercentInterval throughput = r.intervals().throughput();
                w.row(List.of(r.key().workload(), r.key().target(), String.valueOf(r.key().threads()),
                        String.format(Locale.ROOT, "%.1f", tpmC ? r.baseline().tpmC() : r.baseline().qps()),
                        String.format(Locale.ROOT, "%.1f", tpmC ? r.candidate().tpmC() : r.candidate().qps()),
                        signedPct(throughput.estimatePct()), interval(throughput),
                        String.format(Locale.ROOT, "%.3f", r.baseline().p99Us() / 1000.0),
                        String.format(Locale.ROOT, "%.3f", r.candidate().p99Us() / 1000.0),
                        signedPct(r.p99DeltaPct()), interval(r.intervals().p99()),
                        r.intervals().method().name().toLowerCase(Locale.ROOT),
                        noise(r.intervals().throughputNoisePct()), noise(r.intervals().p99NoisePct()),
                        r.verdict().name().toLowerCase(Locale.ROOT)));
            }
        }
    }

    /** The columns of {@code --format csv}, and the fields of each step in {@code --format json}. */
    public static final List<String> MACHINE_COLUMNS = List.of("workload", "target", "threads", "status",
            "baseline_qps", "candidate_qps", "qps_delta_pct", "baseline_p99_ms", "candidate_p99_ms", "p99_delta_pct",
            "baseline_step", "candidate_step", "outcome", "qps_delta_low_pct", "qps_delta_high_pct",
            "p99_delta_low_pct", "p99_delta_high_pct", "noise", "candidate_run", "qps_noise_pct", "p99_noise_pct",
            "judged_on", "baseline_tpmc", "candidate_tpmc", "tpmc_delta_pct", "tpmc_delta_low_pct",
            "tpmc_delta_high_pct", "tpmc_noise_pct");

    /**
     * One record per step key: matched steps with their verdict ({@code worse}, {@code better}, {@code same}),
     * then the steps not compared ({@code baseline_only}, {@code candidate_only}, {@code baseline_incomplete},
     * {@code candidate_incomplete}: partial figures and the outcome). Deltas are null where a baseline figure is 0.
     */
    private static List<Map<String, Object>> machineRows(RunComparison.Result result) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (RunComparison.Row r : result.rows()) {
            Map<String, Object> row = machineRow(r.key(), r.verdict().name().toLowerCase(Locale.ROOT), r.baseline(),
                    r.candidate(), r.qpsDeltaPct(), r.p99DeltaPct(), null);
            row.put("qps_delta_low_pct", r.intervals().qps().lowPct());
            row.put("qps_delta_high_pct", r.intervals().qps().highPct());
            row.put("p99_delta_low_pct", r.intervals().p99().lowPct());
            row.put("p99_delta_high_pct", r.intervals().p99().highPct());
            row.put("noise", r.intervals().method().name().toLowerCase(Locale.ROOT));
            row.put("qps_noise_pct", r.intervals().qpsNoisePct());
            row.put("p99_noise_pct", r.intervals().p99NoisePct());
            PercentInterval tpmC = r.intervals().tpmC();
            if (tpmC != null) {
                row.put("tpmc_delta_pct", finite(tpmC.estimatePct()));
                row.put("tpmc_delta_low_pct", tpmC.lowPct());
                row.put("tpmc_delta_high_pct", tpmC.highPct());
                row.put("tpmc_noise_pct", r.intervals().tpmCNoisePct());
            }
            rows.add(row);
        }
        result.baselineOnly().forEach(k -> rows.add(machineRow(k, "baseline_only", null, null, null, null, null)));
        result.candidateOnly().forEach(k -> rows.add(machineRow(k, "candidate_only", null, null, null, null, null)));
        result.baselineIncomplete().forEach(f -> rows.add(machineRow(f.key(), "baseline_incomplete", f, null, null,
                null, f.outcome())));
        result.candidateIncomplete().forEach(f -> rows.add(machineRow(f.key(), "candidate_incomplete", null, f, null,
                null, f.outcome())));
        rows.forEach(r -> r.put("candidate_run", result.candidateRun()));
        return rows;
    }

    private static Map<String, Object> machineRow(StepFigure.Key key, String status, StepFigure base,
                                                  StepFigure cand, Double qpsDelta, Double p99Delta, String outcome) {
        Object[] v = {key.workload(), key.target(), key.threads(), status, base == null ? null : base.qps(),
                cand == null ? null : cand.qps(), finite(qpsDelta), base == null ? null : p99Ms(base),
                cand == null ? null : p99Ms(cand), finite(p99Delta), base == null ? null : firstStep(base),
                cand == null ? null : firstStep(cand), outcome};
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 0; i < MACHINE_COLUMNS.size(); i++) {
            row.put(MACHINE_COLUMNS.get(i), i < v.length ? v[i] : null);
        }
        boolean tpcc = key.tpcc();
        row.put("judged_on", tpcc ? "tpmc" : "qps");
        if (tpcc) {
            row.put("baseline_tpmc", base == null ? null : base.tpmC());
            row.put("candidate_tpmc", cand == null ? null : cand.tpmC());
        }
        return row;
    }

    /**
     * One candidate: {@code {"baseline","candidate","thresholdPct","regressed","exitCode","steps":[...]}}; several:
     * {@code {"baseline","thresholdPct","regressed","exitCode","comparisons":[one such object per candidate]}}.
     */
    private static String json(List<RunComparison.Result> results, double pct, boolean regressed) {
        Object doc;
        if (results.size() == 1) {
            doc = comparison(results.get(0));
        } else {
            Map<String, Object> all = new LinkedHashMap<>();
            all.put("baseline", results.get(0).baselineRun());
            all.put("thresholdPct", pct);
            all.put("regressed", regressed);
            all.put("exitCode", regressed ? EXIT_REGRESSION : 0);
            all.put("comparisons", results.stream().map(CompareCommand::comparison).toList());
            doc = all;
        }
        try {
            return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(doc) + System.lineSeparator();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the comparison as JSON", e);
        }
    }

    private static Map<String, Object> comparison(RunComparison.Result result) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("baseline", result.baselineRun());
        doc.put("candidate", result.candidateRun());
        doc.put("thresholdPct", result.thresholdPct());
        doc.put("regressed", result.regressed());
        doc.put("exitCode", result.regressed() ? EXIT_REGRESSION : 0);
        doc.put("steps", machineRows(result));
        return doc;
    }

    private static Double finite(Double d) {
        return d == null || !Double.isFinite(d) ? null : d;
    }

    private static Double p99Ms(StepFigure f) {
        return f.ok() == null ? null : f.p99Us() / 1000.0;
    }

    private static Integer firstStep(StepFigure f) {
        return f.steps().isEmpty() ? null : f.steps().get(0).stepId();
    }

    /**
     * "target/workload/8 threads, step 3: failed: ... (partial: 1,234 transactions, 5,000.0 QPS)", with the tpmC of
     * TPC-C.
     */
    private static String incomplete(StepFigure f) {
        StepFigure.StepRef step = f.steps().get(0);
        return f.key() + ", step " + step.stepId() + ": " + f.outcome() + String.format(Locale.ROOT,
                " (partial: %,d transactions, %.1f QPS%s)", f.samples(), f.qps(),
                f.tpcc() ? String.format(Locale.ROOT, ", %.1f tpmC", f.tpmC()) : "");
    }

    /** {@code ±2.1%}: a measured noise; {@code -} when unknown. */
    private static String noise(Double pct) {
        return pct == null ? "-" : String.format(Locale.ROOT, "±%.1f%%", pct);
    }

    /** {@code -3.1% … +1.2%}, or {@code -} when the interval has no bounds. */
    private static String interval(PercentInterval i) {
        return i.bounded() ? signedPct(i.lowPct()) + " … " + signedPct(i.highPct()) : "-";
    }

    /**
     * A line for a change whose interval holds 0: the data show no difference, and a difference larger than half
     * the interval's width would have shown.
     */
    private static void undetectable(PrintWriter out, RunComparison.Row r, String figure, PercentInterval i) {
        if (i.coversZero()) {
            out.printf(Locale.ROOT, "%s %s: no detectable difference in %s (smallest detectable: %.1f%%)%n",
                    r.key().workload(), r.key().target() + "/" + r.key().threads(), figure,
                    (i.highPct() - i.lowPct()) / 2);
        }
    }

    private static String num(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }

    private static String signedPct(double d) {
        if (Double.isInfinite(d)) {
            return d > 0 ? "+inf%" : "-inf%";
        }
        return String.format(Locale.ROOT, "%+.1f%%", d);
    }
}
