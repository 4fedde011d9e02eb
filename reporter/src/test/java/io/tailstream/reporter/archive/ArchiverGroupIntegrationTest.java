package io.tailstream.reporter.archive;

import static io.tailstream.reporter.archive.ArchiverChildren.longOf;
import static io.tailstream.reporter.archive.ArchiverChildren.send;
import static io.tailstream.reporter.archive.ArchiverChildren.sendSlowly;
import static io.tailstream.reporter.archive.ArchiverChildren.temporaries;
import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.kafka.BacklogProducer;
import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.reporter.HistoryEvents;
import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Several archivers in one consumer group, against the real broker: a backlog, then live traffic while members
 * join and leave. An archiver in a child JVM and one in this JVM split the partitions; the child is killed
 * ({@code destroyForcibly}, SIGKILL) once it has written and committed files of its own, a third instance joins
 * and is stopped mid-way, a fourth joins for the rest. Every member writes files with a different row limit, so a
 * range left uncommitted by the killed child is only re-archived without overlap if the next owner repeats its
 * boundaries. DuckDB over the archive then finds every (producer, block sequence, sample) exactly once.
 */
class ArchiverGroupIntegrationTest {

    private static final Logger LOG = LoggerFactory.getLogger(ArchiverGroupIntegrationTest.class);
    private static final int PARTITIONS = 4;
    private static final String GROUP = "group";
    private static final List<String> PRODUCERS = List.of("pa", "pb", "pc", "pd");
    private static final Duration WAIT = Duration.ofSeconds(120);
    /** Each task a thread of its own: archivers run until closed, and a shared pool may be too small for them all. */
    private static final Executor OWN_THREAD = task -> new Thread(task).start();

    @TempDir
    Path tmp;

    @Test
    void twoInstancesSplitPartitions_oneKilledOneStopped_everySampleExactlyOnce() throws Exception {
        Path archive = tmp.resolve("archive");
        SyntheticRun run = new SyntheticRun("group-run", 11, PRODUCERS, List.of(
                new SyntheticRun.StepSpec("t1", "oltp_point_select", 8, 1, 1, 500, 2500),
                new SyntheticRun.StepSpec("t2", "oltp_read_write", 8, 1, 20, 500, 2500)),
                5_000, PARTITIONS, 1_762_000_000_000L);
        HistoryEvents history = new HistoryEvents(run);
        List<SyntheticRun.Rec> records = records(run, history);
        List<SyntheticRun.Rec> backlog = records.subList(0, records.size() / 2);
        List<SyntheticRun.Rec> live1 = records.subList(records.size() / 2, records.size() * 3 / 4);
        List<SyntheticRun.Rec> live2 = records.subList(records.size() * 3 / 4, records.size());

        List<Instance> instances = new ArrayList<>();
        Process child = null;
        try (EmbeddedKafka kafka = EmbeddedKafka.start();
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            String bootstrap = kafka.bootstrapServers();
            TopicProvisioner.ensure(bootstrap, Topics.all(PARTITIONS));
            try (KafkaProducer<byte[], byte[]> producer = BacklogProducer.create(bootstrap)) {
                send(producer, backlog);

                // a child JVM and this one share the group
                Path childLog = tmp.resolve("child.log");
                child = ArchiverChildren.start(bootstrap, archive, GROUP, 2000, childLog);
                Process theChild = child;
                Instance a = Instance.start(config(bootstrap, archive, "archiver-a", 3_000));
                instances.add(a);
                awaitCondition("both members own samples partitions", theChild, childLog, () ->
                        samplesOwners(admin).keySet().containsAll(Set.of("archiver-a", "archiver-child")));
                Set<TopicPartition> childPartitions = samplesOwners(admin).get("archiver-child");
                LOG.info("the child owns {}", childPartitions);

                CompletableFuture<Void> traffic = CompletableFuture.runAsync(() -> sendSlowly(producer, live1),
                        OWN_THREAD);

                // kill the child once it committed a samples range of its own, at a random moment of its next
                // flushes (it rolls files every 100 ms while traffic lasts)
                awaitCondition("the child committed samples offsets", theChild, childLog, () ->
                        committed(admin, childPartitions) > 0);
                int killAfterMs = new Random().nextInt(150);
                LOG.info("killing the child {} ms after its first samples commit was seen", killAfterMs);
                Thread.sleep(killAfterMs);
                child.destroyForcibly();
                assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
                LOG.info("child killed: {} temporary files, {} samples files", temporaries(archive),
                        sampleFiles(archive));

                traffic.get(WAIT.toSeconds(), TimeUnit.SECONDS);

                // a third instance joins, takes over part of the work, and is stopped gracefully mid-way
                Instance b = Instance.start(config(bootstrap, archive, "archiver-b", 5_000));
                instances.add(b);
                awaitCondition("the third member owns samples partitions", null, childLog, () ->
                        samplesOwners(admin).containsKey("archiver-b"));
                Set<TopicPartition> bPartitions = samplesOwners(admin).get("archiver-b");
                long bCommitted = committed(admin, bPartitions);
                traffic = CompletableFuture.runAsync(() -> sendSlowly(producer, live2), OWN_THREAD);
                awaitCondition("the third member commits", null, childLog, () ->
                        committed(admin, bPartitions) > bCommitted
                                && bPartitions.equals(samplesOwners(admin).get("archiver-b")));
                b.stop();
                assertThat(b.summary().corruptRecords()).isZero();

                Instance c = Instance.start(config(bootstrap, archive, "archiver-c", 7_000));
                instances.add(c);
                traffic.get(WAIT.toSeconds(), TimeUnit.SECONDS);
                awaitCondition("the group committed every record", null, childLog, () -> caughtUp(admin));
                a.stop();
                c.stop();
                assertThat(a.summary().corruptRecords()).isZero();
                assertThat(c.summary().corruptRecords()).isZero();
            }
        } finally {
            // only after a failure is anything still running
            instances.forEach(Instance::stop);
            if (child != null) {
                child.destroyForcibly();
            }
        }

        assertThat(temporaries(archive)).as("temporary files left").isZero();
        assertExactlyOnce(archive, run, history);
    }

    /** The run's records, samples routed so that producer i's blocks land in partition i, in a mixed order. */
    private static List<SyntheticRun.Rec> records(SyntheticRun run, HistoryEvents history) {
        Map<String, List<SyntheticRun.Rec>> byTopic = new LinkedHashMap<>();
        for (SyntheticRun.Rec r : run.sampleRecords) {
            String producer = new String(r.key(), StandardCharsets.UTF_8).substring(run.runId.length() + 1);
            int hashed = Math.floorMod((run.runId + "/" + producer).hashCode(), PARTITIONS);
            // a rotation: markers still reach every partition, the producer's blocks go to its own
            int partition = Math.floorMod(r.partition() - hashed + PRODUCERS.indexOf(producer), PARTITIONS);
            byTopic.computeIfAbsent(r.topic() + "-" + partition, t -> new ArrayList<>())
                    .add(new SyntheticRun.Rec(r.topic(), partition, r.key(), r.value()));
        }
        List<SyntheticRun.Rec> rest = new ArrayList<>(run.windowRecords(PARTITIONS));
        rest.addAll(run.controlRecords());
        rest.addAll(history.records());
        rest.forEach(r -> byTopic.computeIfAbsent(r.topic() + "-" + r.partition(), t -> new ArrayList<>()).add(r));
        // interleave the topic partitions in proportion, keeping each one's order: every slice has some of each
        List<SyntheticRun.Rec> out = new ArrayList<>();
        int total = byTopic.values().stream().mapToInt(List::size).sum();
        Map<String, Integer> next = new HashMap<>();
        for (int i = 0; i < total; i++) {
            for (Map.Entry<String, List<SyntheticRun.Rec>> e : byTopic.entrySet()) {
                int k = next.getOrDefault(e.getKey(), 0);
                if (k < e.getValue().size() && (long) k * total <= (long) i * e.getValue().size()) {
                    out.add(e.getValue().get(k));
                    next.put(e.getKey(), k + 1);
                }
            }
        }
        assertThat(out).hasSize(total);
        return out;
    }

    private static void assertExactlyOnce(Path archive, SyntheticRun run, HistoryEvents history) throws Exception {
        Map<String, Long> sentPerBlock = new TreeMap<>();
        for (SyntheticRun.Row r : run.rows) {
            sentPerBlock.merge(r.producerId() + "/" + r.blockSeq(), 1L, Long::sum);
        }
        long distinctSent = run.rows.stream().map(r -> r.producerId() + "/" + r.blockSeq() + "/" + r.startUs() + "/"
                + r.latencyUs()).distinct().count();
        assertThat(distinctSent).as("the sent samples are told apart by producer, block, start and latency")
                .isEqualTo(run.rows.size());
        try (ArchiveDatabase db = ArchiveDatabase.open(archive); Statement st = db.connection().createStatement()) {
            assertThat(db.problems()).isEmpty();
            assertThat(longOf(st, "SELECT count(*) FROM samples")).isEqualTo(run.rows.size());
            assertThat(longOf(st, "SELECT count(*) FROM (SELECT DISTINCT producer_id, block_seq, start_us,"
                    + " latency_us FROM samples)")).as("distinct samples").isEqualTo(run.rows.size());
            Map<String, Long> archivedPerBlock = new TreeMap<>();
            try (ResultSet rs = st.executeQuery("SELECT producer_id || '/' || block_seq, count(*) FROM samples"
                    + " GROUP BY ALL")) {
                while (rs.next()) {
                    archivedPerBlock.put(rs.getString(1), rs.getLong(2));
                }
            }
            assertThat(archivedPerBlock).as("samples per (producer, block sequence)").isEqualTo(sentPerBlock);
            assertThat(longOf(st, "SELECT sum(latency_us) FROM samples"))
                    .isEqualTo(run.rows.stream().mapToLong(SyntheticRun.Row::latencyUs).sum());
            assertThat(longOf(st, "SELECT count(DISTINCT step_id) FROM samples")).isEqualTo(2);
            assertThat(longOf(st, "SELECT count(*) FROM blocks")).isEqualTo(run.totalBlocks());
            assertThat(longOf(st, "SELECT count(*) FROM windows")).isEqualTo(run.windows.size());
            assertThat(longOf(st, "SELECT count(*) FROM control")).isEqualTo(run.control.size() + history.health.size()
                    + history.counters.size());
            assertThat(longOf(st, "SELECT count(*) FROM summary_events")).isEqualTo(history.summaries.size());
            assertThat(longOf(st, "SELECT count(*) FROM stall_events")).isEqualTo(history.stalls.size());
            assertThat(longOf(st, "SELECT sum(samples_sent) FROM steps")).isEqualTo(run.rows.size());
            assertThat(longOf(st, "SELECT samples_sent FROM runs")).isEqualTo(run.rows.size());
        }
        List<BlockCheck> checks = ArchiveVerifier.checkBlocks(archive, List.of(run.runId));
        assertThat(checks).hasSize(PRODUCERS.size()).allSatisfy(c -> {
            assertThat(c.ok()).as(c.toString()).isTrue();
            assertThat(c.distinctSequences()).isEqualTo(run.blocksSent.get(c.producerId()));
        });
    }

    /** An archiver of the group running continuously on its own thread. */
    private record Instance(Archiver archiver, CompletableFuture<ArchiveSummary> result) {

        static Instance start(ArchiverConfig config) {
            Archiver archiver = new Archiver(config);
            return new Instance(archiver, CompletableFuture.supplyAsync(archiver::runUntilClosed, OWN_THREAD));
        }

        void stop() {
            archiver.close();
        }

        ArchiveSummary summary() throws Exception {
            return result.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
    }

    private static ArchiverConfig config(String bootstrap, Path archive, String clientId, int rollRows) {
        return ArchiverConfig.of(bootstrap, archive).withGroupId(GROUP).withRollRows(rollRows)
                .withRollInterval(Duration.ofMillis(200))
                .withKafkaProperties(Map.of(ConsumerConfig.CLIENT_ID_CONFIG, clientId,
                        ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "6000",
                        ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "1000"));
    }

    /** Samples partitions by the client id of the group member that owns them; empty before anyone joined. */
    private static Map<String, Set<TopicPartition>> samplesOwners(Admin admin) throws Exception {
        ConsumerGroupDescription d;
        try {
            d = admin.describeConsumerGroups(List.of(GROUP)).describedGroups().get(GROUP).get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return Map.of(); // the group coordinator has not seen a member yet
            }
            throw e;
        }
        Map<String, Set<TopicPartition>> out = new TreeMap<>();
        for (MemberDescription m : d.members()) {
            Set<TopicPartition> samples = m.assignment().topicPartitions().stream()
                    .filter(tp -> tp.topic().equals(Topics.SAMPLES)).collect(Collectors.toSet());
            if (!samples.isEmpty()) {
                out.put(m.clientId(), samples);
            }
        }
        return out;
    }

    /** Σ committed offsets of the partitions. */
    private static long committed(Admin admin, Set<TopicPartition> partitions) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> c = admin.listConsumerGroupOffsets(GROUP)
                .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
        return partitions.stream().map(c::get).filter(o -> o != null).mapToLong(OffsetAndMetadata::offset).sum();
    }

    /** True once the group's committed offset of every partition of the archived topics is its end offset. */
    private static boolean caughtUp(Admin admin) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> c = admin.listConsumerGroupOffsets(GROUP)
                .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (var spec : Topics.all(PARTITIONS)) {
            if (spec.name().equals(Topics.DEAD_LETTER)) {
                continue;
            }
            for (int p = 0; p < spec.partitions(); p++) {
                latest.put(new TopicPartition(spec.name(), p), OffsetSpec.latest());
            }
        }
        var ends = admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS);
        for (var e : ends.entrySet()) {
            long end = e.getValue().offset();
            OffsetAndMetadata done = c.get(e.getKey());
            if (end > 0 && (done == null || done.offset() < end)) {
                return false;
            }
        }
        return true;
    }

    @FunctionalInterface
    private interface Check {
        boolean holds() throws Exception;
    }

    private static void awaitCondition(String what, Process child, Path childLog, Check check) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!check.holds()) {
            if (child != null) {
                assertThat(child.isAlive()).as("child exited early: %s", Files.exists(childLog)
                        ? Files.readString(childLog) : "").isTrue();
            }
            assertThat(System.nanoTime()).as("%s within %s", what, WAIT).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private static long sampleFiles(Path archive) {
        return ArchiveLayout.runFiles(archive).stream()
                .filter(f -> f.getParent().getParent().getFileName().toString().equals(ArchiveLayout.SAMPLES))
                .filter(f -> f.getFileName().toString().endsWith(".parquet")).count();
    }
}
