package io.tailstream.cli.command;

import io.tailstream.cli.options.TargetOptions;
import io.tailstream.cli.options.WorkloadOptions;
import io.tailstream.producer.WorkloadData;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.time.Clock;
import io.tailstream.producer.workload.WorkloadSpec;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Creates and loads a workload's tables, as {@code sysbench ... prepare} does. */
@Command(name = "prepare", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Create and load the workload's tables on the target (sysbench's prepare).")
public final class PrepareCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @ArgGroup(exclusive = false, heading = "Target%n")
    TargetOptions target = new TargetOptions();

    @ArgGroup(exclusive = false, heading = "Workload%n")
    WorkloadOptions workload = new WorkloadOptions();

    @Option(names = "--parallel", paramLabel = "N", defaultValue = "4",
            description = "Tables loaded in parallel (default: ${DEFAULT-VALUE}).")
    int parallel;

    @Option(names = "--quiet", description = "No progress bar and no per-table lines (errors still print).")
    boolean quiet;

    @Override
    public Integer call() {
        if (target.url == null) {
            throw new ParameterException(spec.commandLine(),
                    "--url is required (the embedded H2 target is prepared by 'run' itself)");
        }
        if (parallel < 1) {
            throw new ParameterException(spec.commandLine(), "--parallel must be at least 1, was " + parallel);
        }
        Target t = CommandInputs.target(target, spec.commandLine());
        List<WorkloadSpec> workloads = CommandInputs.workloads(workload, spec.commandLine());
        if (quiet) {
            WorkloadData.prepare(t, workloads, parallel, new PrintStream(OutputStream.nullOutputStream()));
            return 0;
        }
        long total = WorkloadData.rowsToLoad(workloads);
        if (total == 0) {
            WorkloadData.prepare(t, workloads, parallel, System.out);
            return 0;
        }
        boolean terminal = PrepareProgress.stderrIsTerminal();
        try (PrepareProgress progress = new PrepareProgress(total, System.err, terminal, Clock.system()).start()) {
            // on a terminal the table lines go above the bar; elsewhere they stay on stdout
            WorkloadData.prepare(t, workloads, parallel, terminal ? progress.messages() : System.out, progress);
        }
        return 0;
    }
}
