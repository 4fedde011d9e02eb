package io.tailstream.cli.options;

import io.tailstream.reporter.output.TableFormat;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** {@code --format table|csv|json} of the history commands ({@code runs}, {@code compare}). */
public final class TableFormatOption {

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table",
            description = "table (for people), csv or json (for scripts: plain numbers, every field) (default:"
                    + " ${DEFAULT-VALUE}).")
    String format;

    /** The parsed format; bad values are a usage error naming the accepted ones. */
    public TableFormat format(CommandSpec spec) {
        try {
            return TableFormat.parse(format);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--format: " + e.getMessage(), e);
        }
    }
}
