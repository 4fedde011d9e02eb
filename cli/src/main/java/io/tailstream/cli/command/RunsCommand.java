package io.tailstream.cli.command;

import io.tailstream.cli.UserFacingException;
import io.tailstream.cli.options.ArchiveOptions;
import io.tailstream.cli.options.RunFilterOptions;
import io.tailstream.cli.options.TableFormatOption;
import io.tailstream.reporter.output.TableFormat;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.reporter.query.RunCatalog;
import io.tailstream.reporter.query.RunFilter;
import io.tailstream.reporter.query.RunListing;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Lists archived runs. */
@Command(name = "runs", mixinStandardHelpOptions = true, sortOptions = false,
        description = "List the archived runs, oldest first, with filters.")
public final class RunsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    ArchiveOptions archiveOptions = new ArchiveOptions();

    @Mixin
    RunFilterOptions filter = new RunFilterOptions();

    @Option(names = "--plan", paramLabel = "P", description = "Only runs of this plan.")
    String plan;

    @Mixin
    TableFormatOption formatOption = new TableFormatOption();

    @Override
    public Integer call() {
        Path archive = archiveOptions.existing(spec);
        Instant from = filter.since(spec);
        List<RunListing> runs;
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            runs = RunCatalog.list(db, new RunFilter(filter.target, filter.workload, plan, from));
        } catch (SQLException e) {
            throw new UserFacingException("cannot list the runs of " + archive, e);
        }
        TableFormat format = formatOption.format(spec);
        PrintWriter out = spec.commandLine().getOut();
        if (format == TableFormat.TABLE) {
            try (TableFormat.RowWriter w = TableFormat.TABLE.open(out, List.of("run_id", "plan", "started",
                    "duration", "outcome", "steps", "samples", "targets", "workloads"), Integer.MAX_VALUE, "run")) {
                for (RunListing r : runs) {
                    w.row(List.of(r.runId(), r.planName(), RunFilterOptions.TIME.format(Instant.ofEpochMilli(r.startedAtMs())),
                            r.endedAtMs() == null ? "running" : duration(r.endedAtMs() - r.startedAtMs()),
                            r.outcome() == null ? "-" : r.outcome(), String.valueOf(r.steps()),
                            r.samplesSent() == null ? "-" : String.format("%,d", r.samplesSent()),
                            String.join(",", r.targets()), String.join(",", r.workloads())));
                }
            }
        } else {
            try (TableFormat.RowWriter w = format.open(out, List.of("run_id", "plan", "started", "duration_s",
                    "outcome", "steps", "samples", "targets", "workloads"), 0)) {
                for (RunListing r : runs) {
                    w.row(Arrays.asList(r.runId(), r.planName(), Instant.ofEpochMilli(r.startedAtMs()).toString(),
                            r.endedAtMs() == null ? null : (r.endedAtMs() - r.startedAtMs()) / 1000.0, r.outcome(),
                            r.steps(), r.samplesSent(), String.join(",", r.targets()),
                            String.join(",", r.workloads())));
                }
            }
        }
        out.flush();
        return 0;
    }

    private static String duration(long ms) {
        Duration d = Duration.ofMillis(ms);
        return d.toHours() > 0 ? String.format("%dh%02dm%02ds", d.toHours(), d.toMinutesPart(), d.toSecondsPart())
                : d.toMinutes() > 0 ? String.format("%dm%02ds", d.toMinutes(), d.toSecondsPart())
                : String.format("%.1fs", ms / 1000.0);
    }
}
