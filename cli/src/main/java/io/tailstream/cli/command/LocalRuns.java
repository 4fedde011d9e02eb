package io.tailstream.cli.command;

import io.tailstream.producer.RunPlan;
import io.tailstream.producer.driver.StepResult;
import io.tailstream.producer.emit.SpoolSettings;
import java.io.PrintStream;
import java.nio.file.Path;

/** Runs a plan through the local pipeline and prints what it measured and where the results are. */
final class LocalRuns {

    private LocalRuns() {}

    /**
     * @param console progress and summary (stderr when {@code json} is set, so stdout carries only the JSON)
     * @param json    print the step results as one JSON document on stdout
     */
    static int runLocally(RunPlan plan, Path outDir, PrintStream console, boolean json) {
        return runLocally(plan, outDir, console, json, null);
    }

    /** As above, spooling blocks per {@code spool} (null: none). */
    static int runLocally(RunPlan plan, Path outDir, PrintStream console, boolean json, SpoolSettings spool) {
        LocalPipeline.Outcome outcome;
        try (LocalPipeline pipeline = LocalPipeline.start(console)) {
            outcome = pipeline.run(plan, outDir, spool);
        }
        console.println();
        console.println("run " + plan.runId() + ": " + outcome.result().steps().size() + " steps");
        for (StepResult s : outcome.result().steps()) {
            console.println("  " + s.summary());
        }
        console.println(outcome.proofLine());
        console.println("archive: " + outcome.archiveDir());
        console.println("report:  " + outcome.report());
        if (json) {
            System.out.println(StepsJson.write(outcome.result().steps()));
        }
        return 0;
    }
}
