package io.tailstream.aggregator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tailstream.aggregator.testing.ExactWindows;
import io.tailstream.aggregator.testing.TestProducer;
import io.tailstream.infra.kafka.BacklogProducer;
import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.WindowStats;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The aggregator against the real in-process broker with exactly_once_v2: samples written as blocks by several
 * producers (with heartbeats and end-of-step markers on every partition) are counted exactly, and every window's
 * figures match an exact computation over the raw samples.
 */
class AggregatorIntegrationTest {

    private static final Logger LOG = LoggerFactory.getLogger(AggregatorIntegrationTest.class);
    private static final List<String> OPS = List.of("point_select", "read_write");

    @TempDir
    Path stateDir;

    @Test
    void liveRun_threeProducersTwoSteps_windowsCountEverySampleAndMatchExactPercentiles() throws Exception {
        String run = "it-live";
        ExactWindows exact = new ExactWindows(1000);
        Map<Integer, Long> sent = new TreeMap<>();
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(3));
            AggregatorConfig config = AggregatorConfig.defaults().withApplicationId("it-live-aggregator");
            try (Aggregator aggregator = Aggregator.start(kafka.bootstrapServers(), config, stateDir);
                 KafkaProducer<String, byte[]> producer = producer(kafka.bootstrapServers())) {
                assertThat(aggregator.awaitRunning(Duration.ofSeconds(30))).isTrue();
                List<TestProducer> producers = List.of(new TestProducer(run, "p1"), new TestProducer(run, "p2"),
                        new TestProducer(run, "p3"));
                Random random = new Random(11);
                // step 1 for ~2.2 s, step 2 for ~1.2 s: blocks of 300 samples every 50 ms per producer, completion
                // times in the last 50 ms (as a producer seals blocks), heartbeats every 250 ms
                for (int[] step : new int[][] {{1, 44}, {2, 24}}) {
                    int stepId = step[0];
                    for (int tick = 0; tick < step[1]; tick++) {
                        long nowMicros = System.currentTimeMillis() * 1000;
                        for (TestProducer p : producers) {
                            List<Sample> batch = new ArrayList<>();
                            for (int i = 0; i < 300; i++) {
                                batch.add(randomSample(random, nowMicros - random.nextInt(50_000)));
                            }
                            send(producer, p.key(), p.samples(stepId, OPS, batch, nowMicros));
                            exact.addAll(run, stepId, OPS, batch);
                            sent.merge(stepId, (long) batch.size(), Long::sum);
                            if (tick % 5 == 0) {
                                send(producer, p.key(), p.heartbeat(stepId, OPS, nowMicros));
                            }
                        }
                        Thread.sleep(50);
                    }
                    long endMicros = System.currentTimeMillis() * 1000;
                    for (TestProducer p : producers) {
                        byte[] marker = p.endOfStep(stepId, OPS, endMicros);
                        for (PartitionInfo partition : producer.partitionsFor(Topics.SAMPLES)) {
                            producer.send(new ProducerRecord<>(Topics.SAMPLES, partition.partition(), p.key(),
                                    marker)).get();
                        }
                    }
                }
                producer.flush();

                long started = System.nanoTime();
                try (AggregationProgress progress = AggregationProgress.open(kafka.bootstrapServers(), Map.of())) {
                    progress.awaitCounts(run, sent, Duration.ofSeconds(30));
                    // a mismatch is reported per step, missing after the timeout, extra at once
                    Map<Integer, Long> oneMore = new TreeMap<>(sent);
                    oneMore.merge(2, 1L, Long::sum);
                    assertThatThrownBy(() -> progress.awaitCounts(run, oneMore, Duration.ofMillis(300)))
                            .isInstanceOf(AggregationIncompleteException.class)
                            .hasMessageContaining("not fully aggregated after 300 ms")
                            .hasMessageContaining("step 2 counted " + sent.get(2) + " of " + (sent.get(2) + 1)
                                    + " (missing 1)");
                    Map<Integer, Long> oneLess = new TreeMap<>(sent);
                    oneLess.merge(1, -1L, Long::sum);
                    assertThatThrownBy(() -> progress.awaitCounts(run, oneLess, Duration.ofSeconds(30)))
                            .isInstanceOf(AggregationIncompleteException.class)
                            .hasMessageContaining("double counting")
                            .hasMessageContaining("(extra 1)");
                }
                LOG.info("run {} fully aggregated {} ms after the last marker", run,
                        (System.nanoTime() - started) / 1_000_000);

                // the progress counts the "*" scope; an op's scope may be on another task, a commit behind
                List<WindowStats> windows = awaitWindows(kafka.bootstrapServers(), run, exact);
                Map<String, List<WindowStats>> byWindow = new TreeMap<>();
                Map<String, Long> totals = new HashMap<>();
                for (WindowStats w : windows) {
                    totals.merge(w.scopeKey(), w.count(), Long::sum);
                    byWindow.computeIfAbsent(w.scopeKey() + " @" + w.windowStartEpochMs(), k -> new ArrayList<>())
                            .add(w);
                }
                int compared = 0;
                int split = 0;
                for (List<WindowStats> records : byWindow.values()) {
                    WindowStats w = records.get(0);
                    List<Sample> raw = exact.windows().getOrDefault(w.scopeKey(), new TreeMap<>())
                            .get(w.windowStartEpochMs());
                    if (raw == null) {
                        // a heartbeat-only window at a step's edge: no samples completed in it
                        assertThat(records).as(w.scopeKey() + " @" + w.windowStartEpochMs())
                                .allSatisfy(r -> assertThat(r.count()).isZero());
                        continue;
                    }
                    // a stage-1 task running behind another by more than the grace (a loaded machine) splits a
                    // window into a regular record and late corrections; together they hold its samples exactly
                    ExactWindows.assertMatchesMerged(records, raw);
                    split += records.size() > 1 ? 1 : 0;
                    compared++;
                }
                LOG.info("{} of {} windows split by late corrections", split, compared);
                long windowsWithSamples = exact.windows().values().stream().mapToLong(TreeMap::size).sum();
                assertThat(compared).isEqualTo(windowsWithSamples);
                for (String scope : exact.windows().keySet()) {
                    assertThat(totals.get(scope)).as(scope).isEqualTo(exact.totalSamples(scope));
                }
                assertThat(aggregator.failure()).isEmpty();
            }
        }
    }

    @Test
    void prefilledTopic_exactlyOnce_countsEverySample_andReportsThroughput() throws Exception {
        String run = "it-bulk";
        int blocks = 2000;
        int perBlock = 1000;
        Map<Long, Long> perWindow = new TreeMap<>();
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            // one partition: a single stage-1 task, so replay cannot run ahead of itself (see topology docs)
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(1));
            TestProducer p = new TestProducer(run, "bulk");
            Random random = new Random(5);
            long baseMicros = (System.currentTimeMillis() - 120_000) * 1000;
            List<Future<RecordMetadata>> sent = new ArrayList<>(blocks + 1);
            try (KafkaProducer<String, byte[]> producer = producer(kafka.bootstrapServers())) {
                for (int b = 0; b < blocks; b++) {
                    long blockEnd = baseMicros + (b + 1) * 10_000L; // 100 blocks per second of event time
                    List<Sample> batch = new ArrayList<>(perBlock);
                    for (int i = 0; i < perBlock; i++) {
                        long end = blockEnd - random.nextInt(10_000);
                        batch.add(randomSample(random, end));
                        perWindow.merge(Math.floorDiv(end, 1_000_000L) * 1000, 1L, Long::sum);
                    }
                    sent.add(producer.send(new ProducerRecord<>(Topics.SAMPLES, p.key(),
                            p.samples(1, OPS, batch, blockEnd))));
                }
                sent.add(producer.send(new ProducerRecord<>(Topics.SAMPLES, p.key(),
                        p.endOfStep(1, OPS, baseMicros + (blocks + 1) * 10_000L))));
                // every block of the backlog is on the topic, or the test stops here saying why
                for (Future<RecordMetadata> f : sent) {
                    f.get();
                }
            }
            long total = (long) blocks * perBlock;
            AggregatorConfig config = AggregatorConfig.defaults().withApplicationId("it-bulk-aggregator");
            try (Aggregator aggregator = Aggregator.start(kafka.bootstrapServers(), config, stateDir);
                 AggregationProgress progress = AggregationProgress.open(kafka.bootstrapServers(), Map.of())) {
                assertThat(aggregator.awaitRunning(Duration.ofSeconds(30))).isTrue();
                long started = System.nanoTime();
                progress.awaitCounts(run, Map.of(1, total), Duration.ofSeconds(60));
                double seconds = (System.nanoTime() - started) / 1e9;
                LOG.info("aggregated {} samples ({} blocks) with exactly_once_v2 in {} s: {} samples/s "
                                + "(includes the first assignment's restore and the final commit)", total, blocks,
                        String.format("%.2f", seconds), String.format("%.0f", total / seconds));
                assertThat(aggregator.failure()).isEmpty();
            }
            Map<Long, Long> counted = new TreeMap<>();
            for (WindowStats w : readWindows(kafka.bootstrapServers(), run)) {
                if (w.op().equals(WindowStats.ALL_OPS)) {
                    assertThat(counted.put(w.windowStartEpochMs(), w.count())).as("window emitted once").isNull();
                }
            }
            assertThat(counted).isEqualTo(perWindow);
        }
    }

    /**
     * Samples sent before the aggregator starts wait in Kafka (a local run starts it after the load): until it
     * starts nothing is counted, and a wait that gives up only when nothing is counted gives up. Started, it counts
     * every one of them, and the wait reports the count as it grows.
     */
    @Test
    void backlogBeforeStart_countsNothingUntilStarted_thenEverySample() throws Exception {
        String run = "it-backlog-before-start";
        long sent = 0;
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(2));
            AggregatorConfig config = AggregatorConfig.defaults().withApplicationId("it-backlog-aggregator");
            try (KafkaProducer<String, byte[]> producer = producer(kafka.bootstrapServers());
                 AggregationProgress progress = AggregationProgress.open(kafka.bootstrapServers(), Map.of())) {

                TestProducer p = new TestProducer(run, "p1");
                Random random = new Random(5);
                long startMicros = System.currentTimeMillis() * 1000;
                for (int block = 0; block < 40; block++) {
                    long endMicros = startMicros + block * 100_000L;
                    List<Sample> batch = new ArrayList<>();
                    for (int i = 0; i < 250; i++) {
                        batch.add(randomSample(random, endMicros - random.nextInt(100_000)));
                    }
                    send(producer, p.key(), p.samples(1, OPS, batch, endMicros));
                    sent += batch.size();
                }
                byte[] marker = p.endOfStep(1, OPS, startMicros + 4_000_000L);
                for (PartitionInfo partition : producer.partitionsFor(Topics.SAMPLES)) {
                    producer.send(new ProducerRecord<>(Topics.SAMPLES, partition.partition(), p.key(), marker)).get();
                }
                producer.flush();

                List<Long> reported = new ArrayList<>();
                Map<Integer, Long> expected = Map.of(1, sent);
                assertThatThrownBy(() -> progress.awaitCountsWhileCounting(run, expected, Duration.ofSeconds(3),
                        reported::add))
                        .isInstanceOf(AggregationIncompleteException.class)
                        .hasMessageContaining("not fully aggregated (nothing counted for 3000 ms)")
                        .hasMessageContaining("step 1 counted 0 of " + sent);
                assertThat(reported).isEmpty();

                try (Aggregator aggregator = Aggregator.start(kafka.bootstrapServers(), config, stateDir)) {
                    assertThat(aggregator.awaitRunning(Duration.ofSeconds(60))).isTrue();
                    progress.awaitCountsWhileCounting(run, expected, Duration.ofSeconds(60), reported::add);
                    assertThat(progress.countedByStep(run)).isEqualTo(expected);
                    assertThat(reported).isSorted().doesNotHaveDuplicates().last().isEqualTo(sent);
                    assertThat(aggregator.failure()).isEmpty();
                }
            }
        }
    }

    private static KafkaProducer<String, byte[]> producer(String bootstrap) {
        Properties p = BacklogProducer.settings(bootstrap);
        KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p, new StringSerializer(),
                new ByteArraySerializer());
        producer.partitionsFor(Topics.SAMPLES); // the topic's metadata before the first send
        return producer;
    }

    private static void send(KafkaProducer<String, byte[]> producer, String key, byte[] block)
            throws InterruptedException, ExecutionException {
        Future<RecordMetadata> f = producer.send(new ProducerRecord<>(Topics.SAMPLES, key, block));
        if (f.isDone()) {
            f.get(); // surface an immediate failure
        }
    }

    /**
     * The run's committed windows once every scope's counts sum to its exact total, or as they are after 30 s (the
     * comparisons then say what is missing).
     */
    private static List<WindowStats> awaitWindows(String bootstrap, String run, ExactWindows exact)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            List<WindowStats> windows = readWindows(bootstrap, run);
            Map<String, Long> totals = new HashMap<>();
            windows.forEach(w -> totals.merge(w.scopeKey(), w.count(), Long::sum));
            boolean complete = exact.windows().keySet().stream()
                    .allMatch(scope -> totals.getOrDefault(scope, 0L) == exact.totalSamples(scope));
            if (complete || System.nanoTime() > deadline) {
                return windows;
            }
            Thread.sleep(100);
        }
    }

    /** Every committed window of a run currently on the windows topic. */
    private static List<WindowStats> readWindows(String bootstrap, String run) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<WindowStats> out = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(p, new StringDeserializer(),
                new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.WINDOWS).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    WindowStats w = Json.read(r.value(), WindowStats.class);
                    assertThat(r.key()).isEqualTo(w.scopeKey());
                    if (w.runId().equals(run)) {
                        out.add(w);
                    }
                }
            }
        }
        return out;
    }

    private static Sample randomSample(Random random, long endMicros) {
        long latency = (long) Math.exp(Math.log(50) + random.nextDouble() * (Math.log(200_000) - Math.log(50)));
        int op = random.nextInt(2);
        SampleStatus status = random.nextInt(50) == 0 ? SampleStatus.DEADLOCK : SampleStatus.OK;
        return new Sample(endMicros - latency, latency, endMicros - latency, op, status, op == 0 ? 1 : 20, false);
    }
}
