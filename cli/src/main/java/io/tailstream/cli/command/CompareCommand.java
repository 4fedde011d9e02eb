package io.tailstream.cli.command;

import io.tailstream.cli.UserFacingException;
import io.tailstream.cli.options.ArchiveOptions;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.reporter.query.RunComparison;
import io.tailstream.reporter.query.StepFigure;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Per-step deltas between two runs; a regression gate. */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Compare a candidate run with a baseline run, step by step (matched by target, workload and",
                "threads; figures exact from the raw samples of the measurement phase: QPS of successful statements",
                "over the measured span, P99 of successful transactions). Steps that did not complete are listed",
                "apart.",
                "Exit code 0: no matched step is worse; " + CompareCommand.EXIT_REGRESSION + ": the candidate's QPS is"
                        + " lower, or its P99 higher,",
                "than the baseline's by more than --threshold on at least one step, or a step of the candidate did",
                "not complete; 1: error; 2: bad usage."})
public final class CompareCommand implements Callable<Integer> {

    /** Exit code when the candidate is worse than the baseline beyond the threshold. */
    public static final int EXIT_REGRESSION = 3;

    @Spec
    CommandSpec spec;

    @Mixin
    ArchiveOptions archiveOptions = new ArchiveOptions();

    @Option(names = "--baseline", paramLabel = "RUN", required = true, description = "Run id of the baseline.")
    String baseline;

    @Option(names = "--candidate", paramLabel = "RUN", required = true, description = "Run id of the candidate.")
    String candidate;

    @Option(names = "--threshold", paramLabel = "PCT", defaultValue = "5%",
            description = "Worse by more than this fails the gate: 5% or 5 (default: ${DEFAULT-VALUE}).")
    String threshold;

    @Override
    public Integer call() {
        Path archive = archiveOptions.existing(spec);
        double pct = parseThreshold(threshold);
        RunComparison.Result result;
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            result = RunComparison.compare(db, baseline, candidate, pct);
        } catch (IllegalArgumentException e) {
            throw new UserFacingException(e.getMessage(), e);
        } catch (SQLException e) {
            throw new UserFacingException("cannot compare runs in " + archive, e);
        }
        PrintWriter out = spec.commandLine().getOut();
        out.printf("baseline %s, candidate %s, threshold %s%%%n", baseline, candidate, num(pct));
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"workload", "target", "threads", "qps base", "qps cand", "qps Δ", "p99 ms base",
                "p99 ms cand", "p99 Δ", "verdict"});
        for (RunComparison.Row r : result.rows()) {
            rows.add(new String[] {r.key().workload(), r.key().target(), String.valueOf(r.key().threads()),
                    String.format(Locale.ROOT, "%.1f", r.baseline().qps()),
                    String.format(Locale.ROOT, "%.1f", r.candidate().qps()), signedPct(r.qpsDeltaPct()),
                    String.format(Locale.ROOT, "%.3f", r.baseline().p99Us() / 1000.0),
                    String.format(Locale.ROOT, "%.3f", r.candidate().p99Us() / 1000.0), signedPct(r.p99DeltaPct()),
                    r.verdict().name().toLowerCase(Locale.ROOT)});
        }
        Tables.print(out, rows);
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
        out.flush();
        return result.regressed() ? EXIT_REGRESSION : 0;
    }

    /** "target/workload/8 threads, step 3: failed: ... (partial: 1,234 transactions, 5,000.0 QPS)". */
    private static String incomplete(StepFigure f) {
        StepFigure.StepRef step = f.steps().get(0);
        return f.key() + ", step " + step.stepId() + ": " + f.outcome() + String.format(Locale.ROOT,
                " (partial: %,d transactions, %.1f QPS)", f.samples(), f.qps());
    }

    private double parseThreshold(String s) {
        String v = s.trim();
        if (v.endsWith("%")) {
            v = v.substring(0, v.length() - 1).trim();
        }
        double d;
        try {
            d = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new ParameterException(spec.commandLine(), "--threshold '" + s + "' is not a percentage (e.g. 5%)",
                    e);
        }
        if (!(d >= 0) || Double.isInfinite(d)) {
            throw new ParameterException(spec.commandLine(), "--threshold '" + s + "' must be a percentage >= 0");
        }
        return d;
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
