package io.tailstream.cli.command;

import picocli.CommandLine.Command;

/** The top-level {@code tailstream} command. */
@Command(name = "tailstream",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Event-sourced results pipeline for database benchmarks.",
        subcommands = {
                DemoCommand.class,
                BrokerCommand.class,
                RunCommand.class,
                PrepareCommand.class,
                CleanupCommand.class,
                AggregateCommand.class,
                ArchiveCommand.class,
                ExportCommand.class,
                ReportCommand.class,
                QueryCommand.class,
                RunsCommand.class,
                CompareCommand.class,
                TrendCommand.class,
                picocli.CommandLine.HelpCommand.class,
        })
public final class TailstreamCommand implements Runnable {

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
    }
}
