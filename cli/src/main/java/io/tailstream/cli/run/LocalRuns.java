package io.tailstream.cli.run;

import io.tailstream.cli.Cli;
import io.tailstream.cli.UserFacingException;
import io.tailstream.producer.RunPlan;
import io.tailstream.producer.RunResult;
import io.tailstream.producer.driver.StepResult;
import io.tailstream.producer.emit.SpoolSettings;
import io.tailstream.producer.plan.LiveView;
import io.tailstream.reporter.archive.Archiver;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * Runs a plan through the local pipeline and prints what it measured and where the results are. However the run
 * ends (every step done, a step failed, a target went away, Ctrl-C), what was measured is archived and reported
 * before the command exits; the exit code then says how it ended.
 */
public final class LocalRuns {

    private LocalRuns() {}

    /**
     * @param console progress and summary (stderr when {@code json} is set, so stdout carries only the JSON)
     * @param json    print the step results as one JSON document on stdout
     * @param spool   blocks are spooled per these settings while Kafka is slow (null: no spool)
     * @param view    whether the aggregator runs during the load, with its live page
     * @return 0 when every step ran to its end, {@link Cli#EXIT_INTERRUPTED} when a signal stopped the run
     * @throws UserFacingException when a step failed or a target went away (after archiving and reporting what was
     *                             measured before), when the pipeline lost or duplicated a sample, or when the
     *                             aggregator did not publish the run's summaries
     */
    public static int runLocally(RunPlan plan, Path outDir, PrintStream console, boolean json, SpoolSettings spool,
                                 LiveView view) {
        Path archive = outDir.resolve("archive");
        if (Archiver.holdsRun(archive, plan.runId())) {
            // checked before the run: its samples live in a broker deleted at exit, and files of another broker's
            // run under the same name are never replaced
            throw new UserFacingException("run " + plan.runId() + " is already in " + archive
                    + ": give this run another --run-id, or another --out");
        }
        LocalPipeline.Outcome outcome;
        try (GracefulStop stop = GracefulStop.install(console)) {
            try (LocalPipeline pipeline = LocalPipeline.start(console)) {
                if (stop.requested()) {
                    console.println("run " + plan.runId() + ": stopped before its first step; nothing was measured");
                    return Cli.EXIT_INTERRUPTED;
                }
                outcome = pipeline.run(plan, outDir, spool, stop, view);
            }
            return finish(plan, outcome, console, json);
        }
    }

    private static int finish(RunPlan plan, LocalPipeline.Outcome outcome, PrintStream console, boolean json) {
        RunResult result = outcome.result();
        console.println();
        console.println("run " + plan.runId() + ": " + result.steps().size() + " steps");
        for (StepResult s : result.steps()) {
            console.println("  " + s.summary());
        }
        String problem = outcome.problem();
        if (problem == null) {
            console.println(outcome.proofLine());
        }
        console.println("archive: " + outcome.archiveDir());
        console.println("report:  " + outcome.report());
        if (json) {
            System.out.println(StepsJson.write(result.steps()));
        }
        if (problem != null) {
            throw new UserFacingException(problem + " (the archive and the report hold what arrived)");
        }
        if (result.completed()) {
            return 0;
        }
        if (result.outcome().startsWith("interrupted")) {
            console.println("run " + plan.runId() + " " + result.outcome()
                    + "; the steps before it are archived and reported");
            return Cli.EXIT_INTERRUPTED;
        }
        throw new UserFacingException("run " + plan.runId() + " " + result.outcome() + "; the "
                + (result.steps().size() - 1) + " step(s) before it are archived and reported");
    }
}
