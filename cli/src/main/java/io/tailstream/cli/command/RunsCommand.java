package io.tailstream.cli.command;

import io.tailstream.cli.UserFacingException;
import io.tailstream.cli.options.ArchiveOptions;
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
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Lists archived runs. */
@Command(name = "runs", mixinStandardHelpOptions = true, sortOptions = false,
        description = "List the archived runs, oldest first, with filters.")
public final class RunsCommand implements Callable<Integer> {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'")
            .withZone(ZoneOffset.UTC);

    @Spec
    CommandSpec spec;

    @Mixin
    ArchiveOptions archiveOptions = new ArchiveOptions();

    @Option(names = "--target", paramLabel = "T", description = "Only runs with a step against this target.")
    String target;

    @Option(names = "--workload", paramLabel = "W", description = "Only runs with a step of this workload.")
    String workload;

    @Option(names = "--plan", paramLabel = "P", description = "Only runs of this plan.")
    String plan;

    @Option(names = "--since", paramLabel = "DATE", description = "Only runs started at or after this date"
            + " (2026-11-30, UTC) or instant (2026-11-30T08:00:00Z).")
    String since;

    @Mixin
    TableFormatOption formatOption = new TableFormatOption();

    @Override
    public Integer call() {
        Path archive = archiveOptions.existing(spec);
        Instant from;
        try {
            from = since == null ? null : RunFilter.parseSince(since);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--since: " + e.getMessage(), e);
        }
        List<RunListing> runs;
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            runs = RunCatalog.list(db, new RunFilter(target, workload, plan, from));
        } catch (SQLException e) {
            throw new UserFacingException("cannot list the runs of " + archive, e);
        }
        TableFormat format = formatOption.format(spec);
        PrintWriter out = spec.commandLine().getOut();
        if (format == TableFormat.TABLE) {
            try (TableFormat.RowWriter w = TableFormat.TABLE.open(out, List.of("run_id", "plan", "started",
                    "duration", "outcome", "steps", "samples", "targets", "workloads"), Integer.MAX_VALUE, "run")) {
                for (RunListing r : runs) {
                    w.row(List.of(r.runId(), r.planName(), TIME.format(Instant.ofEpochMilli(r.startedAtMs())),
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
