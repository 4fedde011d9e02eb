package io.tailstream.reporter.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tailstream.reporter.ExactFigures;
import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.archive.ArchiveLayout;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A truncated, footer-overwritten or missing Parquet file: named, its run skipped, the other run still queries. */
class DamagedArchiveTest {

    @TempDir
    Path archive;

    SyntheticRun good;
    SyntheticRun bad;

    @BeforeEach
    void writeArchive() {
        good = QueryFixtures.run("good", 1, 300, QueryFixtures.T0);
        bad = QueryFixtures.run("bad", 2, 300, QueryFixtures.T0 + 60_000);
        QueryFixtures.archive(archive, good, bad);
    }

    private Path firstFile(String dataset, String run) throws IOException {
        try (Stream<Path> files = Files.list(ArchiveLayout.runDir(archive, dataset, run))) {
            return files.filter(p -> p.toString().endsWith(".parquet")).sorted().findFirst().orElseThrow();
        }
    }

    private void assertBadSkippedGoodIntact(Path file, String reason) throws SQLException {
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            assertThat(db.problems()).hasSize(1);
            ArchiveProblem p = db.problems().get(0);
            assertThat(p.runId()).isEqualTo("bad");
            assertThat(p.file()).isEqualTo(file);
            assertThat(p.reason()).contains(reason);
            assertThat(p.describe()).startsWith("run bad skipped: " + file + ": ");

            assertThat(RunCatalog.list(db, RunFilter.ALL)).extracting(RunListing::runId).containsExactly("good");
            for (String view : db.views().stream().filter(db::has).toList()) {
                try (Statement st = db.connection().createStatement();
                     ResultSet rs = st.executeQuery("SELECT list_sort(list(DISTINCT run_id)) FROM " + view)) {
                    rs.next();
                    assertThat((Object[]) rs.getArray(1).getArray()).as(view).containsExactly("good");
                }
            }
            List<StepFigure> figures = StepFigureQuery.of(db, List.of("good"));
            assertThat(figures).extracting(StepFigure::samples).containsExactlyElementsOf(
                    QueryFixtures.expected(good).stream().map(ExactFigures.Expected::samples).toList());
            assertThat(figures).extracting(StepFigure::p99Us).containsExactlyElementsOf(
                    QueryFixtures.expected(good).stream().map(e -> e.ok().p99()).toList());

            assertThatThrownBy(() -> RunCatalog.require(db, "bad"))
                    .hasMessageContaining("run bad cannot be read: " + file)
                    .hasMessageContaining(reason);
            assertThatThrownBy(() -> RunComparison.compare(db, "good", "bad", 5))
                    .hasMessageContaining(file.toString());
            assertThatThrownBy(() -> RunCatalog.require(db, "other"))
                    .hasMessageContaining("run other is not in the archive")
                    .hasMessageContaining("runs there: [good]");
        }
    }

    @Test
    void truncatedSamplesFile() throws Exception {
        Path f = firstFile(ArchiveLayout.SAMPLES, "bad");
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(raf.length() / 2);
        }
        assertBadSkippedGoodIntact(f, "no Parquet magic bytes at the end");
    }

    @Test
    void overwrittenFooter() throws Exception {
        Path f = firstFile(ArchiveLayout.WINDOWS, "bad");
        overwriteTail(f, 64);
        assertBadSkippedGoodIntact(f, "no Parquet magic bytes at the end");
    }

    private static void overwriteTail(Path f, int bytes) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.seek(raf.length() - bytes);
            raf.write(new byte[bytes]);
        }
    }

    @Test
    void garbledFooterWithIntactMagic() throws Exception {
        Path f = firstFile(ArchiveLayout.STEPS, "bad");
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.seek(raf.length() - 8);
            int footerLength = Integer.reverseBytes(raf.readInt());
            raf.seek(raf.length() - 8 - footerLength);
            byte[] garbage = new byte[footerLength];
            java.util.Arrays.fill(garbage, (byte) 0x7f);
            raf.write(garbage);
        }
        assertBadSkippedGoodIntact(f, "unreadable footer");
    }

    @Test
    void notParquetAtAll() throws Exception {
        Path f = firstFile(ArchiveLayout.STALLS, "bad");
        Files.writeString(f, "this is not a parquet file, just text that happens to be long enough");
        assertBadSkippedGoodIntact(f, "no Parquet magic bytes at the start");
    }

    @Test
    void missingSamplesFile() throws Exception {
        Path f = firstFile(ArchiveLayout.SAMPLES, "bad");
        Files.delete(f);
        assertBadSkippedGoodIntact(f.toAbsolutePath(), "missing: ");
    }

    /**
     * Opened for some datasets, only their files are checked: a damaged windows file does not keep a run out of the
     * samples, steps and runs a query of figures reads; a missing samples file still does, through blocks.
     */
    @Test
    void openForSomeDatasets_checksTheirFilesOnly() throws Exception {
        overwriteTail(firstFile(ArchiveLayout.WINDOWS, "bad"), 64);
        List<String> figures = List.of(ArchiveLayout.SAMPLES, ArchiveLayout.STEPS, ArchiveLayout.RUNS);
        try (ArchiveDatabase db = ArchiveDatabase.open(archive, figures)) {
            assertThat(db.problems()).isEmpty();
            assertThat(db.views()).containsExactly(ArchiveLayout.SAMPLES, ArchiveLayout.BLOCKS, ArchiveLayout.STEPS,
                    ArchiveLayout.RUNS);
            assertThat(RunCatalog.list(db, RunFilter.ALL)).extracting(RunListing::runId).containsExactly("good",
                    "bad");
        }
        Path samples = firstFile(ArchiveLayout.SAMPLES, "bad");
        Files.delete(samples);
        try (ArchiveDatabase db = ArchiveDatabase.open(archive, figures)) {
            assertThat(db.problems()).extracting(ArchiveProblem::runId).containsExactly("bad");
        }
        assertThatThrownBy(() -> ArchiveDatabase.open(archive, List.of("sample")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown datasets [sample]");
    }
}
