package io.tailstream.reporter.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.reporter.HistoryEvents;
import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.TestArchives;
import io.tailstream.reporter.archive.ArchiveLayout;
import io.tailstream.reporter.archive.DatasetColumns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every documented view exists with its documented columns, whatever files the archive has. */
public class DocumentedViewsTest {

    @TempDir
    Path archive;

    private static SyntheticRun run(String id, long startMs, boolean v3) {
        return new SyntheticRun(id, 5, List.of("p1", "p2"), List.of(
                new SyntheticRun.StepSpec("a", "oltp_point_select", 4, 1, 1, 500, 1000)), 200, 1, startMs, v3);
    }

    /** Column name → type of a view, run_id included, in order. */
    private static List<List<String>> describe(Statement st, String view) throws SQLException {
        List<List<String>> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery("DESCRIBE " + view)) {
            while (rs.next()) {
                out.add(List.of(rs.getString(1), rs.getString(2)));
            }
        }
        return out;
    }

    private static List<List<String>> documented(String dataset) {
        List<List<String>> out = new ArrayList<>();
        DatasetColumns.of(dataset).forEach(c -> out.add(List.of(c.name(), c.sqlType())));
        out.add(List.of(ArchiveLayout.RUN_KEY, "VARCHAR"));
        return out;
    }

    private static long count(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void archiveWithoutStallsSummariesOrHealth_everyViewExists_emptyWithDocumentedColumns() throws SQLException {
        TestArchives.write(archive, run("r1", 1_760_000_000_000L, true).allRecords(1, 1));
        assertThat(ArchiveLayout.hasFiles(archive, ArchiveLayout.STALLS)).isFalse();
        try (ArchiveDatabase db = ArchiveDatabase.open(archive); Statement st = db.connection().createStatement()) {
            assertThat(db.views()).isEqualTo(ArchiveLayout.DATASETS);
            for (String view : ArchiveLayout.DATASETS) {
                assertThat(describe(st, view)).as(view).isEqualTo(documented(view));
            }
            for (String empty : List.of("stalls", "stall_events", "summaries", "summary_events", "client_health",
                    "server_counters", "run_summaries", "run_summary_events")) {
                assertThat(db.has(empty)).as(empty).isFalse();
                assertThat(count(st, "SELECT count(*) FROM " + empty)).as(empty).isZero();
            }
            assertThat(db.has(ArchiveLayout.SAMPLES)).isTrue();
            assertThat(count(st, "SELECT count(DISTINCT run_id) FROM samples")).isEqualTo(1);
            // the query that used to fail with a catalog error
            assertThat(count(st, "SELECT count(*) FROM stalls s JOIN steps USING (run_id, step_id)")).isZero();
        }
    }

    /**
     * An archive of two runs: one written by an archiver from before control events v3 (steps and client_health
     * files without the new columns), one with them. Both read; the old run's new columns are NULL.
     */
    @Test
    void olderFilesWithoutNewColumns_readAsNull_besideNewerFiles() throws Exception {
        SyntheticRun old = run("old", 1_760_000_000_000L, false);
        SyntheticRun now = run("new", 1_760_100_000_000L, true);
        List<SyntheticRun.Rec> records = new HistoryEvents(old).after(old.allRecords(1, 1));
        TestArchives.write(archive, records);
        rewrite(ArchiveLayout.STEPS, "old", "EXCLUDE (start_us, measure_start_us, measure_end_us, reconnects,"
                + " load_gen_cpu_pct, process_cpu_pct, rtt_method, rtt_samples, rtt_min_us, rtt_p50_us, rtt_p99_us,"
                + " rtt_max_us, cost_items)");
        rewrite(ArchiveLayout.CLIENT_HEALTH, "old", "EXCLUDE (load_gen_cpu_pct, pipeline_cpu_pct, jvm_cpu_pct)");
        try (ArchiveDatabase db = ArchiveDatabase.open(archive); Statement st = db.connection().createStatement()) {
            // only old files: the columns exist, NULL
            assertThat(describe(st, "steps")).isEqualTo(documented("steps"));
            assertThat(count(st, "SELECT count(*) FROM steps WHERE measure_start_us IS NULL AND rtt_p50_us IS NULL"
                    + " AND cost_items IS NULL")).isEqualTo(1);
            assertThat(count(st, "SELECT count(*) FROM client_health WHERE load_gen_cpu_pct IS NULL")).isPositive();
        }
        List<SyntheticRun.Rec> more = new HistoryEvents(now).after(now.allRecords(1, 1));
        TestArchives.write(archive, more);
        try (ArchiveDatabase db = ArchiveDatabase.open(archive); Statement st = db.connection().createStatement()) {
            assertThat(db.problems()).isEmpty();
            assertThat(describe(st, "steps")).isEqualTo(documented("steps"));
            assertThat(describe(st, "client_health")).isEqualTo(documented("client_health"));
            assertThat(count(st, "SELECT count(*) FROM steps WHERE run_id = 'old' AND measure_end_us IS NULL"))
                    .isEqualTo(1);
            assertThat(count(st, "SELECT count(*) FROM steps WHERE run_id = 'new'"
                    + " AND measure_end_us - measure_start_us = " + now.measuredSpanUs(1))).isEqualTo(1);
            assertThat(count(st, "SELECT count(*) FROM client_health WHERE run_id = 'new'"
                    + " AND load_gen_cpu_pct IS NOT NULL")).isPositive();
            assertThat(count(st, "SELECT count(*) FROM client_health WHERE run_id = 'old'"
                    + " AND load_gen_cpu_pct IS NOT NULL")).isZero();
        }
    }

    /** Rewrites a run's files of a dataset with a DuckDB {@code EXCLUDE}/{@code REPLACE} list. */
    public static void rewrite(Path archive, String dataset, String run, String modifier) throws Exception {
        Path dir = ArchiveLayout.runDir(archive, dataset, run);
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(f -> f.toString().endsWith(".parquet")).toList();
        }
        assertThat(files).as(dir.toString()).isNotEmpty();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            for (Path f : files) {
                Path tmp = f.resolveSibling("rewritten.tmp");
                st.execute("COPY (SELECT * " + modifier + " FROM read_parquet('" + f + "', hive_partitioning=false))"
                        + " TO '" + tmp + "' (FORMAT PARQUET)");
                Files.move(tmp, f, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private void rewrite(String dataset, String run, String modifier) throws Exception {
        rewrite(archive, dataset, run, modifier);
    }

    /** The views the README and docs/archive.md name are the archive's datasets, and every column is documented. */
    @Test
    void docsNameEveryViewAndColumn() throws IOException {
        Path root = Path.of("..").toAbsolutePath().normalize();
        String readme = Files.readString(root.resolve("README.md"));
        String docs = Files.readString(root.resolve("docs/archive.md"));
        Matcher views = Pattern.compile("Views: (.*?);").matcher(readme.replace("\n", " "));
        assertThat(views.find()).as("README lists the views").isTrue();
        Set<String> named = new TreeSet<>(backticked(views.group(1)));
        String datasets = docs.substring(docs.indexOf("| dataset | one row per | from |"));
        datasets = datasets.substring(0, datasets.indexOf("\n\n"));
        Matcher table = Pattern.compile("(?m)^\\| `([a-z_]+)` \\|").matcher(datasets);
        Set<String> tabled = new TreeSet<>();
        while (table.find()) {
            tabled.add(table.group(1));
        }
        assertThat(tabled).as("datasets in docs/archive.md").isEqualTo(new TreeSet<>(ArchiveLayout.DATASETS));
        assertThat(ArchiveLayout.DATASETS).as("views the README names").containsAll(named);
        for (String dataset : ArchiveLayout.DATASETS) {
            for (DatasetColumns.Column c : DatasetColumns.of(dataset)) {
                assertThat(docs).as(dataset + "." + c.name() + " in docs/archive.md")
                        .contains("`" + c.name() + "`");
            }
        }
    }

    private static List<String> backticked(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("`([a-z_]+)`").matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }
}
