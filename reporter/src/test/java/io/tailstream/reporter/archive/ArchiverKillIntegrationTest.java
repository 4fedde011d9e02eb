package io.tailstream.reporter.archive;

import static io.tailstream.reporter.archive.ArchiverChildren.longOf;
import static io.tailstream.reporter.archive.ArchiverChildren.send;
import static io.tailstream.reporter.archive.ArchiverChildren.sendSlowly;
import static io.tailstream.reporter.archive.ArchiverChildren.temporaries;
import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.kafka.BacklogProducer;
import io.tailstream.infra.kafka.KafkaCluster;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exactly once under SIGKILL, on a three-node cluster (each node a JVM of its own; topics with three replicas, two
 * in sync): an archiver in a child JVM archives continuously while a soak's traffic goes on, and is killed
 * ({@code destroyForcibly}, i.e. SIGKILL) while it writes, renames and commits small files, restarted, killed again,
 * and finally left to finish. Block sequences, sample counts and a latency checksum then prove neither duplicates
 * nor gaps. (Kills on a single broker: {@link ArchiverGroupIntegrationTest}.)
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
        List<SyntheticRun.Rec> records = run.allRecords(PARTITIONS, PARTITIONS);
        try (KafkaCluster kafka = KafkaCluster.start(3);
             KafkaProducer<byte[], byte[]> producer = BacklogProducer.create(kafka.bootstrapServers())) {
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(PARTITIONS));
            // a backlog, then the rest as live traffic while archivers are killed
            send(producer, records.subList(0, records.size() / 2));
            CompletableFuture<Void> traffic = CompletableFuture.runAsync(
                    () -> sendSlowly(producer, records.subList(records.size() / 2, records.size())));

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
            traffic.get(120, TimeUnit.SECONDS);

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
        return ArchiverChildren.countFiles(archive.resolve(ArchiveLayout.SAMPLES), ".parquet");
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
