package io.tailstream.reporter.archive;

import static io.tailstream.reporter.archive.ArchiverChildren.longOf;
import static io.tailstream.reporter.archive.ArchiverChildren.temporaries;
import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exactly once under SIGKILL: an archiver in a child JVM is killed ({@code destroyForcibly}, i.e. SIGKILL) while it
 * writes, renames and commits small files, restarted, killed again, and finally left to finish. Block sequences,
 * sample counts and a latency checksum then prove neither duplicates nor gaps.
 */
class ArchiverKillIntegrationTest {

    private static final Logger LOG = LoggerFactory.getLogger(ArchiverKillIntegrationTest.class);
    private static final int PARTITIONS = 2;
    private static final int KILLS = 3;

    @TempDir
    Path tmp;

    @Test
    void killedMidWriteRepeatedly_restarted_noDuplicatesNoGaps() throws Exception {
        Path archive = tmp.resolve("archive");
        SyntheticRun run = new SyntheticRun("kill-run", 7, List.of("pa", "pb"), List.of(
                new SyntheticRun.StepSpec("t1", "oltp_point_select", 8, 1, 1, 500, 2500),
                new SyntheticRun.StepSpec("t2", "oltp_read_write", 8, 1, 20, 500, 2500)),
                10_000, PARTITIONS, 1_760_000_000_000L);
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(PARTITIONS));
            produce(kafka.bootstrapServers(), run);

            Random rnd = new Random(42);
            int killedWhilePartial = 0;
            long filesBefore = 0;
            for (int i = 0; i < KILLS; i++) {
                Path log = tmp.resolve("child-" + i + ".log");
                long t0 = System.nanoTime();
                Process child = ArchiverChildren.start(kafka.bootstrapServers(), archive, "kill", 2000, log);
                // kill only once this child has moved files into place, then 0-150 ms later: mid flush
                waitForMoreFiles(archive, filesBefore, child, log);
                Thread.sleep(rnd.nextInt(150));
                assertThat(child.isAlive()).as("child %d still archiving when killed (log %s)", i, log).isTrue();
                child.destroyForcibly();
                assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
                filesBefore = sampleFiles(archive);
                long rows = sampleRowsOnDisk(archive);
                LOG.info("kill {} after {} ms: {} of {} sample rows in {} files on disk, {} temporary files left", i,
                        (System.nanoTime() - t0) / 1_000_000, rows, run.rows.size(), filesBefore, temporaries(archive));
                if (rows > 0 && rows < run.rows.size()) {
                    killedWhilePartial++;
                }
            }
            assertThat(killedWhilePartial).as("kills that interrupted an unfinished archive").isGreaterThan(0);

            long t0 = System.nanoTime();
            // big files now: the files of uncommitted ranges are still rewritten at their old boundaries
            ArchiveSummary last = Archiver.archiveUntilCaughtUp(ArchiverConfig.of(kafka.bootstrapServers(), archive)
                    .withGroupId("kill"));
            LOG.info("final archiver: {} files in {} ms", last.filesWritten(), (System.nanoTime() - t0) / 1_000_000);
            assertThat(last.corruptRecords()).isZero();
        }
        assertThat(temporaries(archive)).isZero();
        List<BlockCheck> checks = ArchiveVerifier.checkBlocks(archive, List.of(run.runId));
        assertThat(checks).hasSize(2).allSatisfy(c -> {
            assertThat(c.ok()).as(c.toString()).isTrue();
            assertThat(c.duplicates()).isZero();
            assertThat(c.missing()).isZero();
            assertThat(c.distinctSequences()).isEqualTo(run.blocksSent.get(c.producerId()));
        });
        try (ArchiveDatabase db = ArchiveDatabase.open(archive); Statement st = db.connection().createStatement()) {
            assertThat(db.problems()).isEmpty();
            assertThat(longOf(st, "SELECT count(*) FROM samples")).isEqualTo(run.rows.size());
            assertThat(longOf(st, "SELECT count(*) FROM (SELECT DISTINCT producer_id, block_seq, start_us,"
                    + " latency_us FROM samples)")).isEqualTo(run.rows.size());
            assertThat(longOf(st, "SELECT sum(latency_us) FROM samples"))
                    .isEqualTo(run.rows.stream().mapToLong(SyntheticRun.Row::latencyUs).sum());
            assertThat(longOf(st, "SELECT count(*) FROM blocks")).isEqualTo(run.totalBlocks());
            assertThat(longOf(st, "SELECT count(*) FROM windows")).isEqualTo(run.windows.size());
            assertThat(longOf(st, "SELECT count(*) FROM control")).isEqualTo(run.control.size());
            assertThat(longOf(st, "SELECT samples_sent FROM runs")).isEqualTo(run.rows.size());
        }
    }

    /** Sends every record and waits for each acknowledgement: what the archive must hold is exactly what landed. */
    private static void produce(String bootstrap, SyntheticRun run) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd");
        // one batch in flight: a fresh topic's leader moves can otherwise reorder and expire batches
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "1");
        List<java.util.concurrent.Future<?>> acks = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (SyntheticRun.Rec r : run.allRecords(PARTITIONS, PARTITIONS)) {
                acks.add(producer.send(new ProducerRecord<>(r.topic(), r.partition(), r.key(), r.value())));
            }
            producer.flush();
        }
        for (java.util.concurrent.Future<?> ack : acks) {
            ack.get(); // throws with the broker's error if a record did not land
        }
    }

    private static void waitForMoreFiles(Path archive, long before, Process child, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (sampleFiles(archive) <= before) {
            assertThat(child.isAlive()).as("child exited early: %s", Files.exists(log) ? Files.readString(log) : "")
                    .isTrue();
            assertThat(System.nanoTime()).as("child wrote a file within 60 s").isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    private static long sampleFiles(Path archive) throws IOException {
        Path dir = archive.resolve(ArchiveLayout.SAMPLES);
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        while (true) {
            try (Stream<Path> files = Files.walk(dir)) {
                return files.filter(f -> f.getFileName().toString().endsWith(".parquet")).count();
            } catch (java.io.UncheckedIOException e) {
                // the child renamed a .tmp file while the walk was listing it: count again
                if (!(e.getCause() instanceof java.nio.file.NoSuchFileException)) {
                    throw e;
                }
            }
        }
    }

    private static long sampleRowsOnDisk(Path archive) throws SQLException {
        if (!ArchiveLayout.hasFiles(archive, ArchiveLayout.SAMPLES)) {
            return 0;
        }
        try (ArchiveDatabase db = ArchiveDatabase.open(archive); Statement st = db.connection().createStatement()) {
            return longOf(st, "SELECT count(*) FROM samples");
        }
    }
}
