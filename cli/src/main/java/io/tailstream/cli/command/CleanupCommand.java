package io.tailstream.cli.command;

import io.tailstream.cli.options.TargetOptions;
import io.tailstream.cli.options.WorkloadOptions;
import io.tailstream.producer.WorkloadData;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Drops a workload's tables, as {@code sysbench ... cleanup} does. */
@Command(name = "cleanup", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Drop the workload's tables on the target (sysbench's cleanup).")
public final class CleanupCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @ArgGroup(exclusive = false, heading = "Target%n")
    TargetOptions target = new TargetOptions();

    @ArgGroup(exclusive = false, heading = "Workload%n")
    WorkloadOptions workload = new WorkloadOptions();

    @Override
    public Integer call() {
        if (target.url == null) {
            throw new ParameterException(spec.commandLine(), "--url is required");
        }
        WorkloadData.cleanup(CommandInputs.target(target, spec.commandLine()),
                CommandInputs.workloads(workload, spec.commandLine()), System.out);
        return 0;
    }
}
