package io.tailstream.cli.command;

import io.tailstream.cli.UserFacingException;
import io.tailstream.cli.options.ArchiveOptions;
import io.tailstream.reporter.export.HistogramLogExport;
import io.tailstream.reporter.query.ArchiveDatabase;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Archived latencies in another tool's format: HdrHistogram interval logs. */
@Command(name = "export", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Write a run's latencies as an HdrHistogram interval log (.hlog): one interval per second of"
                + " completion time per step and op, tagged step<N>/<op>, built from the raw samples. Read it with"
                + " HdrHistogram's HistogramLogReader or HistogramLogProcessor (values are microseconds)."})
public final class ExportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    ArchiveOptions archiveOptions = new ArchiveOptions();

    @Option(names = "--run", paramLabel = "RUN", required = true, description = "Run id.")
    String runId;

    @Option(names = "--step", paramLabel = "N", description = "Only this step (default: every step).")
    Integer stepId;

    @Option(names = "--op", paramLabel = "OP", description = "Only this op (default: every op).")
    String op;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "hlog",
            description = "hlog (HdrHistogram interval log; the only format so far).")
    String format;

    @Option(names = "--include-warmup", description = "Also the warm-up phase (default: the measurement phase only).")
    boolean includeWarmup;

    @Option(names = "--include-failed",
            description = "Also failed transactions, tagged step<N>/<op>/failed (default: successful ones only).")
    boolean includeFailed;

    @Option(names = "--out", paramLabel = "FILE", required = true, description = "The log file to write.")
    Path out;

    @Override
    public Integer call() {
        Path archive = archiveOptions.existing(spec);
        if (!"hlog".equals(format)) {
            throw new ParameterException(spec.commandLine(), "--format '" + format + "': only hlog is supported");
        }
        HistogramLogExport.Summary summary;
        Path partial = out.resolveSibling(out.getFileName() + ".partial");
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            try (OutputStream file = Files.newOutputStream(partial)) {
                summary = HistogramLogExport.write(db, new HistogramLogExport.Options(runId, stepId, op,
                        includeWarmup, includeFailed), file);
            }
            // a complete log or none: a failure never leaves a truncated file under the requested name
            Files.move(partial, out, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IllegalArgumentException e) {
            throw new UserFacingException(e.getMessage(), e);
        } catch (SQLException e) {
            throw new UserFacingException("cannot read the archive " + archive + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UserFacingException("cannot write " + out + ": " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(partial);
            } catch (IOException ignored) {
                // best effort: the message above already says what failed
            }
        }
        spec.commandLine().getOut().printf("%s: %,d intervals, %,d samples, tags %s%n", out, summary.intervals(),
                summary.samples(), summary.tags());
        spec.commandLine().getOut().flush();
        return 0;
    }
}
