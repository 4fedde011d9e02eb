package io.tailstream.cli.command;

import io.tailstream.cli.options.TargetOptions;
import io.tailstream.cli.options.WorkloadOptions;
import io.tailstream.producer.BenchmarkRunner;
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

    @Override
    public Integer call() {
        if (target.url == null) {
            throw new ParameterException(spec.commandLine(),
                    "--url is required (the embedded H2 target is prepared by 'run' itself)");
        }
        if (parallel < 1) {
            throw new ParameterException(spec.commandLine(), "--parallel must be at least 1, was " + parallel);
        }
        BenchmarkRunner.prepare(CommandInputs.target(target, spec.commandLine()),
                CommandInputs.workloads(workload, spec.commandLine()), parallel, System.out);
        return 0;
    }
}
