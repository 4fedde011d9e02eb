package io.tailstream.cli.options;

import io.tailstream.reporter.query.RunFilter;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** {@code --target}, {@code --workload} and {@code --since} of the history commands ({@code runs}, {@code trend}). */
public final class RunFilterOptions {

    /** How the history tables print a run's start: {@code 2026-11-30 08:00:00Z}. */
    public static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'")
            .withZone(ZoneOffset.UTC);

    @Option(names = "--target", paramLabel = "T", description = "Only runs with a step against this target (trend: only its series).")
    public String target;

    @Option(names = "--workload", paramLabel = "W", description = "Only runs with a step of this workload (trend: only its series).")
    public String workload;

    @Option(names = "--since", paramLabel = "DATE", description = "Only runs started at or after this date"
            + " (2026-11-30, UTC) or instant (2026-11-30T08:00:00Z).")
    String since;

    /** The parsed {@code --since}, or null; a bad value is a usage error. */
    public Instant since(CommandSpec spec) {
        try {
            return since == null ? null : RunFilter.parseSince(since);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--since: " + e.getMessage(), e);
        }
    }
}
