package io.tailstream.reporter.query;

import io.tailstream.reporter.archive.ArchiveLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * An in-memory DuckDB database with one view per archive dataset that has files ({@code samples}, {@code blocks},
 * {@code windows}, {@code control}, {@code steps}, {@code runs}, {@code client_health}, {@code stall_events},
 * {@code stalls}, {@code summary_events}, {@code summaries}), each reading the dataset's Parquet files with
 * hive partitioning, so {@code run_id} is a column of every view. {@code run_id} is typed VARCHAR explicitly (DuckDB
 * would otherwise guess a number for a numeric-looking run id), and files are unioned by column name, so files
 * written by an older archiver with fewer columns still read.
 *
 * <p>Not thread safe (one JDBC connection); open one per thread. Close it to free DuckDB's memory.
 */
public final class ArchiveDatabase implements AutoCloseable {

    private final Connection connection;
    private final Set<String> datasets;
    private final Path archive;

    private ArchiveDatabase(Connection connection, Set<String> datasets, Path archive) {
        this.connection = connection;
        this.datasets = datasets;
        this.archive = archive;
    }

    /**
     * @throws IllegalArgumentException if {@code archive} is not a directory
     * @throws SQLException if DuckDB cannot start or a dataset's files cannot be read
     */
    public static ArchiveDatabase open(Path archive) throws SQLException {
        if (!Files.isDirectory(archive)) {
            throw new IllegalArgumentException("archive directory " + archive + " does not exist");
        }
        Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Set<String> present = new LinkedHashSet<>();
        try (Statement st = c.createStatement()) {
            for (String dataset : ArchiveLayout.DATASETS) {
                if (ArchiveLayout.hasFiles(archive, dataset)) {
                    st.execute("CREATE VIEW " + dataset + " AS SELECT * FROM "
                            + readParquet(ArchiveLayout.glob(archive, dataset)));
                    present.add(dataset);
                }
            }
        } catch (SQLException e) {
            c.close();
            throw new SQLException("cannot open the archive " + archive + ": " + e.getMessage(), e);
        }
        return new ArchiveDatabase(c, Set.copyOf(present), archive);
    }

    /** A DuckDB table expression reading Parquet files of the archive layout. */
    public static String readParquet(String glob) {
        return "read_parquet(" + sqlString(glob) + ", hive_partitioning=true, hive_types={'"
                + ArchiveLayout.RUN_KEY + "': VARCHAR}, union_by_name=true)";
    }

    /** A SQL string literal. */
    public static String sqlString(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    public Connection connection() {
        return connection;
    }

    /** True if the dataset has files, i.e. a view of that name exists. */
    public boolean has(String dataset) {
        return datasets.contains(dataset);
    }

    public Path archive() {
        return archive;
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
