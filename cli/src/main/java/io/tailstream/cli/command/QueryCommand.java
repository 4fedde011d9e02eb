package io.tailstream.cli.command;

import io.tailstream.cli.UserFacingException;
import io.tailstream.cli.options.ArchiveOptions;
import io.tailstream.reporter.output.TableFormat;
import io.tailstream.reporter.query.ArchiveDatabase;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** SQL over the archive (DuckDB). */
@Command(name = "query", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run SQL over the archive with DuckDB. Views: samples, windows, stalls, steps, runs,"
                + " client_health, server_counters, summaries, run_summaries, blocks, control, stall_events,"
                + " summary_events, run_summary_events (columns in docs/archive.md); run_id is a column of every view.",
                "Runs with an unreadable or missing file are left out with a warning naming the file."})
public final class QueryCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    ArchiveOptions archiveOptions = new ArchiveOptions();

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table",
            description = "table, csv or json (default: ${DEFAULT-VALUE}). csv and json print every row.")
    String format;

    @Option(names = "--max-rows", paramLabel = "N", defaultValue = "1000",
            description = "table format: rows shown (default: ${DEFAULT-VALUE}).")
    int maxRows;

    @Parameters(index = "0", paramLabel = "SQL", description = "One SQL statement, e.g. \"SELECT run_id,"
            + " count(*) FROM samples GROUP BY ALL\".")
    String sql;

    @Override
    public Integer call() {
        Path archive = archiveOptions.existing(spec);
        if (maxRows < 1) {
            throw new ParameterException(spec.commandLine(), "--max-rows must be at least 1, was " + maxRows);
        }
        TableFormat f;
        try {
            f = TableFormat.parse(format);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--format: " + e.getMessage(), e);
        }
        PrintWriter out = spec.commandLine().getOut();
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
                f.write(rs, out, maxRows);
            } catch (SQLException e) {
                List<String> empty = db.views().stream().filter(v -> !db.has(v)).toList();
                throw new UserFacingException("query failed: " + firstLine(e.getMessage()) + " (views in "
                        + archive + ": " + String.join(", ", db.views().stream().filter(db::has).toList())
                        + (empty.isEmpty() ? "" : "; empty: " + String.join(", ", empty)) + ")", e);
            }
        } catch (SQLException e) {
            throw new UserFacingException("cannot open the archive " + archive, e);
        } finally {
            out.flush();
        }
        return 0;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
