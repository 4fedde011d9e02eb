package io.tailstream.cli.command;

import io.tailstream.cli.UserFacingException;
import io.tailstream.reporter.report.ReportFormat;
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

/** Renders the selection-evaluation report (HTML, or json/csv/md summaries) from an archive. */
@Command(name = "report", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Render one self-contained HTML report (works offline, prints well) from the Parquet archive,"
                + " or a json/csv/md summary with the same numbers for scripts and wikis."})
public final class ReportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--archive", paramLabel = "DIR", required = true, description = "Archive folder.")
    Path archive;

    @Option(names = "--run", paramLabel = "ID", split = ",", description = "Run id(s) to report (default: all runs).")
    List<String> runs = List.of();

    @Option(names = "--plan", paramLabel = "NAME", description = "Only runs of this plan (with --latest: its latest).")
    String plan;

    @Option(names = "--latest", description = "Report the most recent run only (of --plan, if given).")
    boolean latest;

    @Option(names = "--baseline", paramLabel = "TARGET",
            description = "Target the summary tables' deltas (%%) are relative to.")
    String baseline;

    @Option(names = "--at-threads", paramLabel = "N",
            description = "Concurrency to compare P99 and cost at (default: the highest every target was run at).")
    Integer atThreads;

    @Option(names = "--lang", paramLabel = "en|zh-CN", defaultValue = "en",
            description = "Language of the report: en or zh-CN (default: ${DEFAULT-VALUE}).")
    String lang;

    @Option(names = "--format", paramLabel = "html|json|csv|md", defaultValue = "html",
            description = "Output format (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--out", paramLabel = "FILE", required = true, description = "File to write.")
    Path out;

    @Override
    public Integer call() throws Exception {
        if (!Files.isDirectory(archive)) {
            throw new ParameterException(spec.commandLine(), "--archive " + archive + ": no such folder");
        }
        if (latest && !runs.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "choose --run or --latest, not both");
        }
        if (plan != null && !runs.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "choose --run or --plan, not both");
        }
        ReportFormat reportFormat;
        ReportOptions options;
        try {
            reportFormat = ReportFormat.parse(format);
            ReportOptions selection = plan != null ? ReportOptions.plan(plan).withLatest(latest)
                    : latest ? ReportOptions.latestRun()
                    : runs.isEmpty() ? ReportOptions.allRuns() : ReportOptions.runs(runs);
            options = selection.withLocale(ReportOptions.language(lang)).withBaseline(baseline)
                    .withAtThreads(atThreads);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        try {
            ReportGenerator.generate(archive, options, reportFormat, out);
        } catch (IllegalArgumentException e) {
            throw new UserFacingException(e.getMessage(), e);
        }
        System.out.println("report: " + out.toAbsolutePath());
        return 0;
    }
}
