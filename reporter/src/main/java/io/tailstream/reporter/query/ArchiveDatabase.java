package io.tailstream.reporter.query;

import io.tailstream.reporter.archive.ArchiveLayout;
import io.tailstream.reporter.archive.DatasetColumns;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An in-memory DuckDB database with one view per archive dataset ({@code samples}, {@code blocks}, {@code windows},
 * {@code control}, {@code steps}, {@code runs}, {@code client_health}, {@code server_counters}, {@code stall_events},
 * {@code stalls}, {@code summary_events}, {@code summaries}, {@code run_summary_events}, {@code run_summaries}), each
 * reading the dataset's Parquet files with hive partitioning, so {@code run_id} is a column of every view.
 * {@code run_id} is typed VARCHAR explicitly (DuckDB would otherwise guess a number for a numeric-looking run id).
 *
 * <h2>Every view, with every documented column</h2>
 * Every view exists (one per dataset, or per dataset asked for at {@link #open(Path, Collection)}) and has the
 * dataset's documented columns ({@link DatasetColumns}), whichever archiver wrote the files: a dataset without any
 * file is an empty view, a column that no file has (written before it existed) reads as NULL, and files are unioned
 * by column name, so older files with fewer columns read alongside newer ones. Columns found in files but not documented follow the documented ones. So a query never fails with a
 * catalog error for lack of data, and "nothing" (an empty view) is told apart from "not there" by {@link #has}.
 *
 * <h2>Damaged archives</h2>
 * Before the views are created every file's structure is checked (magic bytes, footer length, footer parses) and
 * every run's completeness: every {@code blocks} file that counted samples must have its {@code samples} file of
 * the same name (only the files of the datasets opened are checked). A run with an unreadable or missing file is
 * left out of <em>every</em> view (partial data would give wrong figures), logged as a warning naming the file, and
 * listed in {@link #problems()}; the other runs read normally.
 *
 * <p>Not thread safe (one JDBC connection); open one per thread. Close it to free DuckDB's memory.
 */
public final class ArchiveDatabase implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ArchiveDatabase.class);
    private static final String RUN_DIR_PREFIX = ArchiveLayout.RUN_KEY + "=";

    private final Connection connection;
    private final Set<String> datasets;
    private final Map<String, Set<String>> columns;
    private final List<String> views;
    private final Path archive;
    private final List<ArchiveProblem> problems;

    private ArchiveDatabase(Connection connection, Set<String> datasets, Map<String, Set<String>> columns,
                            List<String> views, Path archive, List<ArchiveProblem> problems) {
        this.connection = connection;
        this.datasets = datasets;
        this.columns = Map.copyOf(columns);
        this.views = List.copyOf(views);
        this.archive = archive;
        this.problems = problems;
    }

    /**
     * @throws IllegalArgumentException if {@code archive} is not a directory
     * @throws SQLException if DuckDB cannot start
     */
    public static ArchiveDatabase open(Path archive) throws SQLException {
        return open(archive, ArchiveLayout.DATASETS);
    }

    /**
     * A database with views of some datasets only, for a query that reads no other: only their files are listed
     * and checked, which is what opening costs in an archive of many runs. With {@code samples} comes
     * {@code blocks}, which the completeness check of a run's samples reads.
     *
     * @param datasets of {@link ArchiveLayout#DATASETS}
     * @throws IllegalArgumentException if {@code archive} is not a directory, or a dataset is unknown
     * @throws SQLException if DuckDB cannot start
     */
    public static ArchiveDatabase open(Path archive, Collection<String> datasets) throws SQLException {
        if (!Files.isDirectory(archive)) {
            throw new IllegalArgumentException("archive directory " + archive + " does not exist");
        }
        Set<String> wanted = new LinkedHashSet<>(datasets);
        if (!ArchiveLayout.DATASETS.containsAll(wanted)) {
            throw new IllegalArgumentException("unknown datasets " + wanted + "; the archive has "
                    + ArchiveLayout.DATASETS);
        }
        if (wanted.contains(ArchiveLayout.SAMPLES)) {
            wanted.add(ArchiveLayout.BLOCKS);
        }
        List<String> views = ArchiveLayout.DATASETS.stream().filter(wanted::contains).toList();
        Map<String, Map<String, List<Path>>> files = listFiles(archive, views);
        List<ArchiveProblem> problems = new ArrayList<>();
        Map<Path, List<String>> fileColumns = new HashMap<>();
        Map<Path, String> fileSchemas = new HashMap<>();
        // one footer read per file, the files checked in parallel (an archive of many runs has thousands)
        List<Map.Entry<String, Path>> all = new ArrayList<>();
        files.forEach((dataset, byRun) -> byRun.forEach((run, paths) -> paths.forEach(p -> all.add(Map.entry(run,
                p)))));
        List<ParquetFiles.Check> checks = all.parallelStream().map(e -> ParquetFiles.check(e.getValue())).toList();
        for (int i = 0; i < all.size(); i++) {
            String run = all.get(i).getKey();
            Path p = all.get(i).getValue();
            ParquetFiles.Check check = checks.get(i);
            check.problem().ifPresent(reason -> problems.add(new ArchiveProblem(run, p, reason)));
            fileColumns.put(p.toAbsolutePath(), check.columns());
            fileSchemas.put(p.toAbsolutePath(), check.schema());
        }
        Connection c = DriverManager.getConnection("jdbc:duckdb:");
        try {
            problems.addAll(missingFiles(c, archive, files, runsWith(problems)));
            Set<String> skipped = runsWith(problems);
            problems.forEach(p -> LOG.warn("{}", p.describe()));
            Set<String> present = new LinkedHashSet<>();
            Map<String, Set<String>> columns = new LinkedHashMap<>();
            try (Statement st = c.createStatement()) {
                for (String dataset : views) {
                    List<String> good = files.getOrDefault(dataset, Map.of()).entrySet().stream()
                            .filter(e -> !skipped.contains(e.getKey()))
                            .flatMap(e -> e.getValue().stream())
                            .map(p -> p.toAbsolutePath().toString())
                            .toList();
                    // the columns of the files, from the footers checked above (no second read)
                    Set<String> inFiles = new LinkedHashSet<>();
                    good.forEach(f -> inFiles.addAll(fileColumns.getOrDefault(Path.of(f), List.of())));
                    // one schema (the usual case): DuckDB binds the view from the first file instead of reading
                    // every file's footer again to unite the columns by name, at every query
                    boolean oneSchema = good.stream().map(f -> fileSchemas.get(Path.of(f))).distinct().count() <= 1;
                    st.execute("CREATE VIEW " + dataset + " AS " + viewSelect(dataset, inFiles,
                            good.isEmpty() ? null : readParquet(good, !oneSchema)));
                    if (!good.isEmpty()) {
                        present.add(dataset);
                    }
                    Set<String> names = new LinkedHashSet<>();
                    DatasetColumns.of(dataset).forEach(col -> names.add(col.name()));
                    names.addAll(inFiles);
                    columns.put(dataset, Set.copyOf(names));
                }
            }
            return new ArchiveDatabase(c, Set.copyOf(present), columns, views, archive, List.copyOf(problems));
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw new SQLException("cannot open the archive " + archive + ": " + e.getMessage(), e);
        }
    }

    /**
     * The view's query: the documented columns in order (NULL of the documented type where no file has one), then
     * any other column the files have, then {@code run_id}; no rows when there is no file ({@code source} null).
     */
    static String viewSelect(String dataset, Set<String> inFiles, String source) {
        List<String> select = new ArrayList<>();
        Set<String> documented = new LinkedHashSet<>();
        for (DatasetColumns.Column col : DatasetColumns.of(dataset)) {
            documented.add(col.name());
            select.add(inFiles.contains(col.name()) ? quote(col.name())
                    : "CAST(NULL AS " + col.sqlType() + ") AS " + quote(col.name()));
        }
        inFiles.stream().filter(n -> !documented.contains(n) && !n.equals(ArchiveLayout.RUN_KEY))
                .forEach(n -> select.add(quote(n)));
        if (source == null) {
            select.add("CAST(NULL AS VARCHAR) AS " + ArchiveLayout.RUN_KEY);
            return "SELECT " + String.join(", ", select) + " WHERE false";
        }
        select.add(ArchiveLayout.RUN_KEY);
        return "SELECT " + String.join(", ", select) + " FROM " + source;
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    /** dataset → run (as in the directory name) → its Parquet files, sorted. Temporary files are not listed. */
    private static Map<String, Map<String, List<Path>>> listFiles(Path archive, List<String> datasets) {
        Map<String, Map<String, List<Path>>> out = new LinkedHashMap<>();
        for (String dataset : datasets) {
            Path dir = archive.resolve(dataset);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            // by name only: archivers rename and delete temporary files in these directories meanwhile, which a
            // listing that also reads each entry's attributes trips over
            Map<String, List<Path>> byRun = new TreeMap<>();
            try (DirectoryStream<Path> runs = Files.newDirectoryStream(dir, RUN_DIR_PREFIX + "*")) {
                for (Path run : runs) {
                    List<Path> files = new ArrayList<>();
                    try (DirectoryStream<Path> entries = Files.newDirectoryStream(run, "*.parquet")) {
                        entries.forEach(files::add);
                    } catch (NotDirectoryException e) {
                        continue;
                    }
                    if (!files.isEmpty()) {
                        files.sort(null);
                        byRun.put(run.getFileName().toString().substring(RUN_DIR_PREFIX.length()), files);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("listing " + dir, e);
            }
            if (!byRun.isEmpty()) {
                out.put(dataset, byRun);
            }
        }
        return out;
    }

    private static Set<String> runsWith(List<ArchiveProblem> problems) {
        return problems.stream().map(ArchiveProblem::runId).collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * Files a readable run must have but lacks: the {@code samples} file of every {@code blocks} file that counted
     * samples (the archiver writes both from the same offset range, samples first). A run without its derived
     * {@code runs}/{@code steps} files is not a problem: a live archiver may not have flushed the control topic
     * yet; such a run is simply not listed by {@code runs}.
     */
    private static List<ArchiveProblem> missingFiles(Connection c, Path archive,
                                                     Map<String, Map<String, List<Path>>> files, Set<String> broken)
            throws SQLException {
        List<ArchiveProblem> out = new ArrayList<>();
        Set<String> samplesFiles = new java.util.HashSet<>();
        files.getOrDefault(ArchiveLayout.SAMPLES, Map.of()).forEach((run, paths) -> paths.forEach(p ->
                samplesFiles.add(run + "/" + p.getFileName())));
        // only a blocks file without its samples file needs reading: does it list any sample?
        List<String> blockFiles = files.getOrDefault(ArchiveLayout.BLOCKS, Map.of()).entrySet().stream()
                .filter(e -> !broken.contains(e.getKey()))
                .flatMap(e -> e.getValue().stream().filter(p -> !samplesFiles.contains(e.getKey() + "/"
                        + p.getFileName())))
                .map(p -> p.toAbsolutePath().toString())
                .toList();
        if (blockFiles.isEmpty()) {
            return out;
        }
        String sql = "SELECT filename, sum(sample_count) FROM read_parquet(" + sqlList(blockFiles)
                + ", filename=true, hive_partitioning=false) GROUP BY filename HAVING sum(sample_count) > 0";
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                Path blocks = Path.of(rs.getString(1));
                String runDir = blocks.getParent().getFileName().toString();
                Path expected = archive.toAbsolutePath().resolve(ArchiveLayout.SAMPLES).resolve(runDir)
                        .resolve(blocks.getFileName().toString());
                if (!Files.exists(expected)) {
                    out.add(new ArchiveProblem(runDir.substring(RUN_DIR_PREFIX.length()), expected, "missing: "
                            + blocks + " lists " + rs.getLong(2) + " samples from the same offsets"));
                }
            }
        }
        return out;
    }

    /**
     * A DuckDB table expression reading Parquet files of the archive layout; {@code files} must not be empty. Files
     * of different schemas (written before and after a column was added) need {@code unionByName}.
     */
    private static String readParquet(List<String> files, boolean unionByName) {
        return "read_parquet(" + sqlList(files) + ", hive_partitioning=true, hive_types={'"
                + ArchiveLayout.RUN_KEY + "': VARCHAR}, union_by_name=" + unionByName + ")";
    }

    private static String sqlList(List<String> values) {
        return values.stream().map(ArchiveDatabase::sqlString).collect(Collectors.joining(", ", "[", "]"));
    }

    /** A SQL string literal. */
    public static String sqlString(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    public Connection connection() {
        return connection;
    }

    /** True if the dataset has readable files (its view exists either way, empty without files). */
    public boolean has(String dataset) {
        return datasets.contains(dataset);
    }

    /**
     * True if the dataset's view has the column: a documented one (NULL where files predate it), or one that files
     * of the archive have. {@code run_id} is a column of every view and not listed here.
     */
    public boolean hasColumn(String dataset, String column) {
        return columns.getOrDefault(dataset, Set.of()).contains(column);
    }

    /** Every view, in documentation order: one per dataset opened, whether it has files or not. */
    public List<String> views() {
        return views;
    }

    /** Unreadable or missing files found at open; their runs are in no view. */
    public List<ArchiveProblem> problems() {
        return problems;
    }

    /** The problem that made a run unreadable, if it was skipped. */
    public Optional<ArchiveProblem> problemOf(String runId) {
        return problems.stream().filter(p -> p.runId().equals(runId)).findFirst();
    }

    public Path archive() {
        return archive;
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
