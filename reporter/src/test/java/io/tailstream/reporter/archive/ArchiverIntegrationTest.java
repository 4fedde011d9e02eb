package io.tailstream.reporter.archive;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.infra.testing.SharedBroker;
import io.tailstream.reporter.HistoryEvents;
import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The archiver against the real in-process broker: exact counts, every block once, no duplicates on re-runs. */
class ArchiverIntegrationTest {

    private static final int PARTITIONS = 3;

    @RegisterExtension
    static final SharedBroker broker = SharedBroker.withTopics(PARTITIONS);

    @TempDir
    Path archive;

    private static SyntheticRun run(String runId, long seed) {
        return new SyntheticRun(runId, seed, List.of("producer-a", "producer-b"), List.of(
                new SyntheticRun.StepSpec("h2-mem", "oltp_point_select", 4, 1, 1, 1000, 2000),
                new SyntheticRun.StepSpec("h2-file", "oltp_read_write", 8, 1, 20, 1000, 2000)),
                1000, PARTITIONS, 1_750_000_000_000L + seed * 100_000);
    }

    private static void produce(SyntheticRun run) throws Exception {
        produce(broker.bootstrapServers(), run);
    }

    private static void produce(String bootstrapServers, SyntheticRun run) throws Exception {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            List<SyntheticRun.Rec> records = new java.util.ArrayList<>(run.allRecords(PARTITIONS, PARTITIONS));
            records.addAll(new HistoryEvents(run).records());
            for (SyntheticRun.Rec r : records) {
                producer.send(new ProducerRecord<>(r.topic(), r.partition(), r.key(), r.value()));
            }
            producer.flush();
        }
    }

    private ArchiverConfig config(String group) {
        return ArchiverConfig.of(broker.bootstrapServers(), archive).withGroupId(group);
    }

    private long count(String sql) throws SQLException {
        try (ArchiveDatabase db = ArchiveDatabase.open(archive); Statement st = db.connection().createStatement()) {
            return count(st, sql);
        }
    }

    private static long count(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private void assertArchiveHoldsExactly(SyntheticRun run) throws SQLException {
        // one database for all queries: opening it (a view per dataset) costs more than a query
        try (ArchiveDatabase db = ArchiveDatabase.open(archive); Statement st = db.connection().createStatement()) {
            String where = " WHERE run_id = '" + run.runId + "'";
            assertThat(count(st, "SELECT count(*) FROM samples" + where)).isEqualTo(run.rows.size());
            assertThat(count(st, "SELECT count(*) FROM (SELECT DISTINCT producer_id, block_seq, start_us FROM samples"
                    + where + ")")).as("distinct samples").isEqualTo(run.rows.size());
            assertThat(count(st, "SELECT sum(latency_us) FROM samples" + where))
                    .isEqualTo(run.rows.stream().mapToLong(SyntheticRun.Row::latencyUs).sum());
            assertThat(count(st, "SELECT count(*) FROM blocks" + where)).isEqualTo(run.totalBlocks());
            assertThat(count(st, "SELECT count(*) FROM windows" + where)).isEqualTo(run.windows.size());
            assertThat(count(st, "SELECT sum(count) FROM windows" + where)).isEqualTo(run.rows.size());
            HistoryEvents extra = new HistoryEvents(run);
            assertThat(count(st, "SELECT count(*) FROM control" + where))
                    .isEqualTo(run.control.size() + extra.health.size() + extra.counters.size());
            assertThat(count(st, "SELECT count(*) FROM client_health" + where)).isEqualTo(extra.health.size());
            assertThat(count(st, "SELECT count(*) FROM stall_events" + where)).isEqualTo(extra.stalls.size());
            assertThat(count(st, "SELECT count(*) FROM stalls" + where)).isEqualTo(2L * run.steps.size());
            assertThat(count(st, "SELECT count(*) FROM stalls" + where + " AND open")).isZero();
            assertThat(count(st, "SELECT count(*) FROM summary_events" + where))
                    .isEqualTo(extra.summaries.size());
            assertThat(count(st, "SELECT count(*) FROM summaries" + where)).isEqualTo(run.steps.size());
            assertThat(count(st, "SELECT sum(count) FROM summaries" + where))
                    .isEqualTo(1001L * run.steps.size());
            assertThat(count(st, "SELECT count(*) FROM steps" + where)).isEqualTo(run.steps.size());
            assertThat(count(st, "SELECT sum(samples_sent) FROM steps" + where)).isEqualTo(run.rows.size());
            assertThat(count(st, "SELECT samples_sent FROM runs" + where)).isEqualTo(run.rows.size());
        }
        List<BlockCheck> checks = ArchiveVerifier.checkBlocks(archive, List.of(run.runId));
        assertThat(checks).hasSize(2).allSatisfy(c -> {
            assertThat(c.ok()).as(c.toString()).isTrue();
            assertThat(c.distinctSequences()).isEqualTo(run.blocksSent.get(c.producerId()));
            assertThat(c.blocksSent()).isEqualTo(run.blocksSent.get(c.producerId()));
        });
    }

    @Test
    void archiveUntilCaughtUp_twice_exactRowsEveryBlockOnceNoDuplicates() throws Exception {
        SyntheticRun run = run("it-batch", 1);
        produce(run);

        ArchiveSummary first = Archiver.archiveUntilCaughtUp(config("batch"));
        assertThat(first.samplesSeen()).isGreaterThanOrEqualTo(run.rows.size());
        assertThat(first.corruptRecords()).isZero();
        assertThat(first.blocksConsistent()).as(first.blockChecks().toString()).isTrue();
        assertArchiveHoldsExactly(run);

        ArchiveSummary second = Archiver.archiveUntilCaughtUp(config("batch"));
        assertThat(second.filesWritten()).isZero();
        assertThat(second.samplesSeen()).isZero();
        assertArchiveHoldsExactly(run);
    }

    @Test
    void restartAfterLostCommit_rewritesSameFilesInsteadOfDuplicating() throws Exception {
        SyntheticRun run = run("it-replay", 2);
        produce(run);
        // smaller files than the replay would write by itself: it only repeats their names by following their bounds
        ArchiveSummary first = Archiver.archiveUntilCaughtUp(config("replay").withRollRows(2_000));
        assertArchiveHoldsExactly(run);
        Map<Path, byte[]> firstFiles = files();

        // as if the archiver crashed after moving its files into place but before committing: offsets back to 0
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "replay");
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            Map<TopicPartition, OffsetAndMetadata> zero = new HashMap<>();
            for (String topic : List.of(Topics.SAMPLES, Topics.WINDOWS, Topics.CONTROL, Topics.STALLS,
                    Topics.SUMMARIES)) {
                c.partitionsFor(topic).forEach(i -> zero.put(new TopicPartition(topic, i.partition()),
                        new OffsetAndMetadata(0)));
            }
            c.assign(zero.keySet());
            c.commitSync(zero);
        }
        ArchiveSummary replay = Archiver.archiveUntilCaughtUp(config("replay"));

        assertThat(replay.filesWritten()).isEqualTo(first.filesWritten());
        assertThat(replay.rowsByDataset()).isEqualTo(first.rowsByDataset());
        assertThat(files().keySet()).isEqualTo(firstFiles.keySet());
        assertArchiveHoldsExactly(run);
    }

    /**
     * A second cluster with the same topics, archived into the same directory (a local run's new in-process broker, a
     * rebuilt cluster): the first cluster's files lie beyond the second's committed offsets, but are no interrupted
     * flush of its partitions, so they are neither replayed nor replaced.
     */
    @Test
    void anotherCluster_sameTopicsSameDirectory_archivesItsRecordsOnce_leavesEarlierFilesAlone() throws Exception {
        SyntheticRun first = run("it-cluster-a", 4);
        produce(first);
        assertThat(Archiver.archiveUntilCaughtUp(config("clusters")).blocksConsistent()).isTrue();
        Map<Path, byte[]> before = files();

        // fewer records than the first cluster's partitions hold: its files reach beyond this cluster's end offsets
        SyntheticRun second = new SyntheticRun("it-cluster-b", 5, List.of("producer-c", "producer-d"), List.of(
                new SyntheticRun.StepSpec("h2-mem", "oltp_point_select", 2, 1, 1, 500, 500)), 500, PARTITIONS,
                1_750_000_900_000L);
        ArchiveSummary summary;
        try (EmbeddedKafka other = EmbeddedKafka.start()) {
            TopicProvisioner.ensure(other.bootstrapServers(), Topics.all(PARTITIONS));
            produce(other.bootstrapServers(), second);
            summary = Archiver.archiveUntilCaughtUp(ArchiverConfig.of(other.bootstrapServers(), archive)
                    .withGroupId("clusters"));
        }

        assertThat(summary.samplesSeen()).isEqualTo(second.rows.size());
        assertThat(summary.blockChecks()).extracting(BlockCheck::runId).containsOnly(second.runId);
        assertThat(summary.blocksConsistent()).as(summary.blockChecks().toString()).isTrue();
        Map<Path, byte[]> after = files();
        assertThat(after).hasSizeGreaterThan(before.size());
        before.forEach((file, content) -> assertThat(after.get(file)).as("%s unchanged", file).isEqualTo(content));
        assertArchiveHoldsExactly(second);
    }

    /** Every file of the archive and its content. */
    private Map<Path, byte[]> files() throws IOException {
        Map<Path, byte[]> out = new TreeMap<>();
        for (Path file : ArchiveLayout.runFiles(archive)) {
            out.put(file, Files.readAllBytes(file));
        }
        return out;
    }

    @Test
    void runUntilClosed_rollsFilesWhileRunning_andFlushesOnClose() throws Exception {
        SyntheticRun run = run("it-continuous", 3);
        String where = " WHERE run_id = 'it-continuous'";
        try (Archiver archiver = new Archiver(config("continuous").withRollInterval(Duration.ofMillis(300)))) {
            CompletableFuture<ArchiveSummary> summary = CompletableFuture.supplyAsync(archiver::runUntilClosed);
            produce(run);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!(ArchiveLayout.hasFiles(archive, ArchiveLayout.RUNS)
                    && count("SELECT count(*) FROM samples" + where) == run.rows.size()
                    && count("SELECT count(*) FROM runs" + where + " AND samples_sent IS NOT NULL") == 1)) {
                assertThat(System.nanoTime()).as("archive complete within 30 s").isLessThan(deadline);
                Thread.sleep(100);
            }
            archiver.close();
            assertThat(summary.get().corruptRecords()).isZero();
        }
        assertArchiveHoldsExactly(run);
    }
}
