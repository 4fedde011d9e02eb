package io.tailstream.cli.command;

import io.tailstream.cli.UserFacingException;
import io.tailstream.reporter.report.ReportGenerator;
import io.tailstream.reporter.report.ReportOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Renders the HTML report from an archive. */
@Command(name = "report", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Render one self-contained HTML report (works offline) from the Parquet archive.")
public final class ReportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--archive", paramLabel = "DIR", required = true, description = "Archive folder.")
    Path archive;

    @Option(names = "--run", paramLabel = "ID", split = ",", description = "Run id(s) to report (default: all runs).")
    List<String> runs = List.of();

    @Option(names = "--latest", description = "Report the most recent run only.")
    boolean latest;

    @Option(names = "--out", paramLabel = "FILE", required = true, description = "HTML file to write.")
    Path out;

    @Override
    public Integer call() throws Exception {
        if (!Files.isDirectory(archive)) {
            throw new ParameterException(spec.commandLine(), "--archive " + archive + ": no such folder");
        }
        if (latest && !runs.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "choose --run or --latest, not both");
        }
        ReportOptions options = latest ? ReportOptions.latestRun()
                : runs.isEmpty() ? ReportOptions.allRuns() : ReportOptions.runs(runs);
        try {
            ReportGenerator.generate(archive, options, out);
        } catch (IllegalArgumentException e) {
            throw new UserFacingException(e.getMessage(), e);
        }
        System.out.println("report: " + out.toAbsolutePath());
        return 0;
    }
}
