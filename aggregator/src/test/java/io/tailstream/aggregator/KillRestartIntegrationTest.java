package io.tailstream.aggregator;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.aggregator.testing.AggregatorChildMain;
import io.tailstream.aggregator.testing.TestProducer;
import io.tailstream.aggregator.topology.AggregatorTopology;
import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.infra.process.ChildJvm;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.StallEvent;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.StepSummary;
import io.tailstream.schemas.event.WindowStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * exactly_once_v2 across a crash: the aggregator runs in a child JVM over the first half of a run's records (two
 * steps, a hard stall, control events), is killed with SIGKILL ({@code destroyForcibly}) once it has committed
 * output, the second half is written, and it is started again with the same application id and state directory. The committed windows, stalls and
 * summaries (read_committed) must equal those of an uninterrupted run of the same topology over the same records
 * (the {@link TopologyTestDriver}): nothing lost, nothing counted twice.
 */
class KillRestartIntegrationTest {

    private static final Logger LOG = LoggerFactory.getLogger(KillRestartIntegrationTest.class);
    private static final List<String> OPS = List.of("read", "write");
    private static final String RUN = "kill-restart";

    @TempDir
    Path dir;

    private record Input(String topic, String key, byte[] value, long timestamp) {}

    @Test
    void sigkillMidRun_restartedAggregatorEqualsUninterruptedRun() throws Exception {
        List<Input> inputs = inputs();
        Outputs expected = uninterrupted(inputs);
        assertThat(expected.windows).hasSizeGreaterThan(100);
        assertThat(expected.stalls).isNotEmpty();

        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(1));
            int half = inputs.size() / 2;
            send(kafka.bootstrapServers(), inputs.subList(0, half));
            Path state = Files.createDirectories(dir.resolve("state"));
            Process first = child(kafka.bootstrapServers(), state, "first");
            try {
                // kill once some output is committed, while the run's second half is still to come
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                int committed = 0;
                while (committed == 0 && System.nanoTime() < deadline && first.isAlive()) {
                    committed = read(kafka.bootstrapServers()).windows.size();
                }
                assertThat(first.isAlive()).as("first aggregator alive").isTrue();
                assertThat(committed).as("windows committed before the kill").isPositive()
                        .isLessThan(expected.windows.size());
                LOG.info("killing the aggregator after {} of {} windows", committed, expected.windows.size());
            } finally {
                first.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
            send(kafka.bootstrapServers(), inputs.subList(half, inputs.size()));
            long restartedAt = System.nanoTime();
            Process second = child(kafka.bootstrapServers(), state, "second");
            try {
                Outputs actual = awaitOutputs(kafka.bootstrapServers(), expected, second);
                System.out.printf("the restarted aggregator's output was complete %.1f s after its start (JVM start,"
                        + " state restored, the rest of the run processed)%n", (System.nanoTime() - restartedAt) / 1e9);
                assertThat(actual.windows).as("windows").containsExactlyElementsOf(expected.windows);
                assertThat(actual.stalls).as("stalls").isEqualTo(expected.stalls);
                assertThat(actual.summaries).as("summaries").isEqualTo(expected.summaries);
            } finally {
                second.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * Two instances in one application id share the run's tasks; one is killed with SIGKILL once output is
     * committed and both hold tasks; the survivor takes its tasks over, restores their state from the changelogs and
     * finishes the run: the committed output equals the uninterrupted run's.
     */
    @Test
    void twoInstances_sigkillOne_theOtherTakesOver_andEqualsUninterruptedRun() throws Exception {
        List<Input> inputs = inputs();
        Outputs expected = uninterrupted(inputs);
        String applicationId = "it-two-instances";
        try (EmbeddedKafka kafka = EmbeddedKafka.start();
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                     kafka.bootstrapServers()))) {
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(1));
            int half = inputs.size() / 2;
            send(kafka.bootstrapServers(), inputs.subList(0, half));
            Process killed = child(kafka.bootstrapServers(), Files.createDirectories(dir.resolve("state-a")), "a",
                    applicationId);
            Process survivor = child(kafka.bootstrapServers(), Files.createDirectories(dir.resolve("state-b")), "b",
                    applicationId);
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
                int committed = 0;
                int membersWithTasks = 0;
                while ((committed == 0 || membersWithTasks < 2) && System.nanoTime() < deadline) {
                    assertThat(killed.isAlive() && survivor.isAlive()).as("both aggregators alive").isTrue();
                    membersWithTasks = membersWithTasks(admin, applicationId);
                    committed = read(kafka.bootstrapServers()).windows.size();
                }
                assertThat(membersWithTasks).as("instances holding tasks").isEqualTo(2);
                assertThat(committed).as("windows committed before the kill").isPositive()
                        .isLessThan(expected.windows.size());
                LOG.info("killing instance a after {} of {} windows", committed, expected.windows.size());
                System.out.printf("injected: SIGKILL of one of two aggregator instances after %d of %d windows%n",
                        committed, expected.windows.size());
                long killedAt = System.nanoTime();
                killed.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                send(kafka.bootstrapServers(), inputs.subList(half, inputs.size()));
                Outputs actual = awaitOutputs(kafka.bootstrapServers(), expected, survivor);
                System.out.printf("the survivor's output was complete %.1f s after the kill%n",
                        (System.nanoTime() - killedAt) / 1e9);
                assertThat(actual.windows).as("windows").containsExactlyElementsOf(expected.windows);
                assertThat(actual.stalls).as("stalls").isEqualTo(expected.stalls);
                assertThat(actual.summaries).as("summaries").isEqualTo(expected.summaries);
                System.out.printf("lost: nothing (%d windows, %d stalls, %d summaries equal the uninterrupted"
                        + " run's)%n", actual.windows.size(), actual.stalls.size(), actual.summaries.size());
            } finally {
                killed.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                survivor.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    /** Members of the application's consumer group that hold at least one partition. */
    private static int membersWithTasks(Admin admin, String applicationId) throws Exception {
        ConsumerGroupDescription group;
        try {
            group = admin.describeConsumerGroups(List.of(applicationId)).all().get(30, TimeUnit.SECONDS)
                    .get(applicationId);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.GroupIdNotFoundException) {
                return 0; // no instance has joined yet
            }
            throw e;
        }
        return (int) group.members().stream().filter(m -> !m.assignment().topicPartitions().isEmpty()).count();
    }

    /** The committed output once it equals {@code expected} or 120 s passed, {@code alive} staying alive. */
    private static Outputs awaitOutputs(String bootstrap, Outputs expected, Process alive) throws Exception {
        Outputs actual = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            actual = read(bootstrap);
            if (actual.summaries.size() >= expected.summaries.size()
                    && actual.windows.size() >= expected.windows.size()
                    && actual.summaries.equals(expected.summaries)) {
                break;
            }
            Thread.sleep(500);
            assertThat(alive.isAlive()).as("aggregator alive").isTrue();
        }
        return actual;
    }

    /** Windows sorted, last stall per key, last summary per key; emission times zeroed. */
    private record Outputs(List<WindowStats> windows, Map<String, StallEvent> stalls,
                           Map<String, StepSummary> summaries) {}

    private static Outputs outputs(List<WindowStats> windows, List<StallEvent> stalls, List<StepSummary> summaries) {
        List<WindowStats> sorted = new ArrayList<>(windows);
        sorted.sort(Comparator.comparing((WindowStats w) -> w.scopeKey()).thenComparingLong(WindowStats::windowStartEpochMs)
                .thenComparingLong(WindowStats::windowEndEpochMs).thenComparingLong(WindowStats::lateCount));
        Map<String, StallEvent> s = new TreeMap<>();
        for (StallEvent e : stalls) {
            s.put(e.key(), new StallEvent(e.runId(), e.stepId(), e.kind(), e.startEpochMs(), e.endEpochMs(),
                    e.open(), e.baselineQps(), e.minQps(), e.baselineP99Micros(), e.worstP99Micros(),
                    e.affectedOps(), 0));
        }
        Map<String, StepSummary> m = new TreeMap<>();
        for (StepSummary x : summaries) {
            m.put(x.key(), new StepSummary(x.runId(), x.stepId(), x.op(), x.measureStartEpochMs(),
                    x.measureEndEpochMs(), x.count(), x.errors(), x.errorsByClass(), x.queries(), x.qps(), x.tps(),
                    x.meanMicros(), x.p50Micros(), x.p90Micros(), x.p95Micros(), x.p99Micros(), x.p999Micros(),
                    x.maxMicros(), x.stallCount(), x.stallMs(), x.qpsSlopePctPerHour(), x.qpsCv(), x.clientBound(),
                    x.lateCount(), x.missingBlocks(), x.histogram(), 0, x.version(), x.okQueries(),
                    x.errorsPerSecond(), x.p9999Micros(), x.measuredSeconds(), x.measureStartEpochMicros(),
                    x.measureEndEpochMicros(), x.spanSource(), x.complete(), x.trendWindows(), x.errorMeanMicros(),
                    x.errorP99Micros(), x.errorMaxMicros(), x.errorHistogram()));
        }
        return new Outputs(sorted, s, m);
    }

    /** The same records through the same topology without interruption. */
    private Outputs uninterrupted(List<Input> inputs) {
        AggregatorConfig config = AggregatorChildMain.config("reference");
        Properties props = Aggregator.streamsProperties("unused:9092", config, dir.resolve("ttd"));
        try (TopologyTestDriver driver = new TopologyTestDriver(AggregatorTopology.build(config), props,
                Instant.ofEpochMilli(inputs.get(0).timestamp))) {
            TestInputTopic<String, byte[]> samples = driver.createInputTopic(Topics.SAMPLES, new StringSerializer(),
                    new ByteArraySerializer());
            TestInputTopic<String, byte[]> control = driver.createInputTopic(Topics.CONTROL, new StringSerializer(),
                    new ByteArraySerializer());
            for (Input in : inputs) {
                (in.topic.equals(Topics.SAMPLES) ? samples : control).pipeInput(in.key, in.value,
                        Instant.ofEpochMilli(in.timestamp));
            }
            driver.advanceWallClockTime(Duration.ofMinutes(20)); // every end-of-step tick is due
            TestOutputTopic<String, byte[]> w = driver.createOutputTopic(Topics.WINDOWS, new StringDeserializer(),
                    new ByteArrayDeserializer());
            TestOutputTopic<String, byte[]> st = driver.createOutputTopic(Topics.STALLS, new StringDeserializer(),
                    new ByteArrayDeserializer());
            TestOutputTopic<String, byte[]> su = driver.createOutputTopic(Topics.SUMMARIES, new StringDeserializer(),
                    new ByteArrayDeserializer());
            return outputs(w.readValuesToList().stream().map(b -> Json.read(b, WindowStats.class)).toList(),
                    st.readValuesToList().stream().map(b -> Json.read(b, StallEvent.class)).toList(),
                    su.readValuesToList().stream().map(b -> Json.read(b, StepSummary.class)).toList());
        }
    }

    /** Everything committed on the output topics so far. */
    private static Outputs read(String bootstrap) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<WindowStats> windows = new ArrayList<>();
        List<StallEvent> stalls = new ArrayList<>();
        List<StepSummary> summaries = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(p, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = List.of(new TopicPartition(Topics.WINDOWS, 0),
                    new TopicPartition(Topics.STALLS, 0), new TopicPartition(Topics.SUMMARIES, 0));
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))
                    && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    switch (r.topic()) {
                        case Topics.WINDOWS -> windows.add(Json.read(r.value(), WindowStats.class));
                        case Topics.STALLS -> stalls.add(Json.read(r.value(), StallEvent.class));
                        default -> summaries.add(Json.read(r.value(), StepSummary.class));
                    }
                }
            }
        }
        return outputs(windows, stalls, summaries);
    }

    private Process child(String bootstrap, Path state, String name) throws Exception {
        return child(bootstrap, state, name, "it-kill-restart");
    }

    private Process child(String bootstrap, Path state, String name, String applicationId) throws Exception {
        Path log = dir.resolve("aggregator-" + name + ".log");
        Process p = ChildJvm.of(AggregatorChildMain.class).heap("256m").args(bootstrap, applicationId,
                state.toString()).start(log);
        LOG.info("started aggregator '{}' (pid {}), log {}", name, p.pid(), log);
        return p;
    }

    /**
     * Two steps of 40 s (event time, long past, so every end-of-step tick is due at once): 400 samples per
     * second in blocks of 50 with heartbeats, a 4 s hard stall in step 1; control events with block counts.
     */
    private static List<Input> inputs() {
        long base = (System.currentTimeMillis() / 1000 - 3600) * 1000;
        TestProducer producer = new TestProducer(RUN, "p1");
        Random random = new Random(5);
        List<Input> in = new ArrayList<>();
        for (int step = 1; step <= 2; step++) {
            long stepStart = base + (step - 1) * 60_000L;
            in.add(control(new StepStarted(RUN, stepStart, "p1", step, null, "oltp_test", 4, 1, 0, 40_000, OPS, 2,
                    Map.of()), stepStart));
            long blocks = 0;
            for (int tenth = 0; tenth < 400; tenth++) {
                long at = stepStart + tenth * 100L;
                boolean stalled = step == 1 && at >= stepStart + 20_000 && at < stepStart + 24_000;
                if (!stalled && tenth % 2 == 0) {
                    List<Sample> batch = new ArrayList<>();
                    for (int i = 0; i < 80; i++) {
                        long end = (at + random.nextInt(200)) * 1000;
                        long latency = 200 + random.nextInt(20_000);
                        int op = random.nextInt(2);
                        SampleStatus status = random.nextInt(100) == 0 ? SampleStatus.DEADLOCK : SampleStatus.OK;
                        batch.add(new Sample(end - latency, latency, end - latency, op, status, op + 1, false));
                    }
                    in.add(new Input(Topics.SAMPLES, producer.key(), producer.samples(step, OPS, batch,
                            (at + 200) * 1000), at + 200));
                    blocks++;
                }
                if (tenth % 2 == 1) {
                    in.add(new Input(Topics.SAMPLES, producer.key(), producer.heartbeat(step, OPS, at * 1000), at));
                    blocks++;
                }
            }
            long end = stepStart + 40_000;
            in.add(new Input(Topics.SAMPLES, producer.key(), producer.endOfStep(step, OPS, end * 1000), end));
            blocks++;
            in.add(control(new StepEnded(RUN, end, "p1", step, 0, blocks, 0, "completed"), end));
        }
        return in;
    }

    private static void send(String bootstrap, List<Input> inputs) {
        try (KafkaProducer<String, byte[]> producer = producer(bootstrap)) {
            for (Input in : inputs) {
                producer.send(new ProducerRecord<>(in.topic, null, in.timestamp, in.key, in.value));
            }
            producer.flush();
        }
    }

    private static Input control(ControlEvent e, long at) {
        return new Input(Topics.CONTROL, e.runId(), Json.write(e), at);
    }

    private static KafkaProducer<String, byte[]> producer(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }
}
