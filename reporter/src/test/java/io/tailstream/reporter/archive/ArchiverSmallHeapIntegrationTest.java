package io.tailstream.reporter.archive;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.infra.process.ChildJvm;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A backlog of millions of samples archived by an archiver whose JVM has a 256 MB heap: memory is bounded by the
 * row group, not by the backlog, and every sample lands exactly once. Row groups of 200,000 rows make each
 * 1,000,000-row file several row groups, so the streaming path (sort, encode, write a row group, reuse the buffer)
 * runs many times per file.
 */
class ArchiverSmallHeapIntegrationTest {

    private static final Logger LOG = LoggerFactory.getLogger(ArchiverSmallHeapIntegrationTest.class);
    private static final long SAMPLES = 3_000_000;
    private static final int PARTITIONS = 2;
    private static final int ROW_GROUP_ROWS = 200_000;

    @TempDir
    Path tmp;

    @Test
    void backlogInSmallHeap_everySampleArchivedOnce() throws Exception {
        Path archive = tmp.resolve("archive");
        SampleBacklog.Sent sent;
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(PARTITIONS));
            sent = SampleBacklog.produce(kafka.bootstrapServers(), SAMPLES, PARTITIONS);
            Path log = tmp.resolve("child.log");
            long t0 = System.nanoTime();
            Process child = ChildJvm.of(ArchiverCatchUpChildMain.class).heap("256m")
                    .jvmOptions("-XX:+ExitOnOutOfMemoryError", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn")
                    .args(kafka.bootstrapServers(), archive.toString(), String.valueOf(ROW_GROUP_ROWS)).start(log);
            boolean exited = child.waitFor(5, TimeUnit.MINUTES);
            if (!exited) {
                child.destroyForcibly();
            }
            String output = Files.readString(log);
            LOG.info("archiver child ({} s):\n{}", (System.nanoTime() - t0) / 1_000_000_000, output);
            assertThat(exited).as("the archiver finished within 5 minutes: %s", output).isTrue();
            assertThat(child.exitValue()).as("the archiver's exit code (an OutOfMemoryError exits non-zero): %s",
                    output).isZero();
        }
        Map<String, Map<Long, Integer>> expected = sent.samplesPerBlock();
        try (ArchiveDatabase db = ArchiveDatabase.open(archive); Statement st = db.connection().createStatement()) {
            assertThat(db.problems()).isEmpty();
            // every block once, with its sample count (markers 0)
            assertThat(countsByBlock(st, "SELECT producer_id, block_seq, sample_count FROM blocks"))
                    .isEqualTo(expected);
            // every sample once: per producer and block sequence, as many rows as the block carried
            Map<String, Map<Long, Integer>> withSamples = new TreeMap<>();
            expected.forEach((producer, blocks) -> blocks.forEach((seq, n) -> {
                if (n > 0) {
                    withSamples.computeIfAbsent(producer, k -> new TreeMap<>()).put(seq, n);
                }
            }));
            assertThat(countsByBlock(st, "SELECT producer_id, block_seq, count(*) FROM samples GROUP BY ALL"))
                    .isEqualTo(withSamples);
            assertThat(longOf(st, "SELECT count(*) FROM (SELECT DISTINCT producer_id, block_seq, start_us FROM"
                    + " samples)")).isEqualTo(SAMPLES);
            assertThat(longOf(st, "SELECT sum(latency_us) FROM samples")).isEqualTo(sent.latencySumUs());
            assertThat(longOf(st, "SELECT samples_sent FROM runs")).isEqualTo(SAMPLES);
            // more than one row group per file: the bounded path ran, not one buffer per file
            assertThat(longOf(st, "SELECT max(row_group_id) FROM parquet_metadata("
                    + ArchiveDatabase.sqlString(archive.toAbsolutePath() + "/samples/*/*.parquet") + ")"))
                    .isGreaterThan(0);
        }
    }

    private static Map<String, Map<Long, Integer>> countsByBlock(Statement st, String sql) throws SQLException {
        Map<String, Map<Long, Integer>> out = new TreeMap<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                Integer before = out.computeIfAbsent(rs.getString(1), k -> new TreeMap<>())
                        .put(rs.getLong(2), rs.getInt(3));
                assertThat(before).as("block %s/%d appears once", rs.getString(1), rs.getLong(2)).isNull();
            }
        }
        return out;
    }

    private static long longOf(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
