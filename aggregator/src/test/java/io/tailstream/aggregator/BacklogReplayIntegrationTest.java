package io.tailstream.aggregator;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.aggregator.testing.TestProducer;
import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.StepSummary;
import io.tailstream.schemas.event.WindowStats;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backlog read at once, as after a restart (in-process broker, two samples partitions): one producer's step of
 * 60 s sits on partition 0, its end-of-step marker on both partitions, as producers send it. The task of partition
 * 1 reads the marker copy long before partition 0's data is replayed; the copy must not move the "*" scope's stream
 * time: no window of any scope is a late correction, and every base window and roll-up (10 s, 60 s) sums to the
 * samples sent.
 */
class BacklogReplayIntegrationTest {

    private static final Logger LOG = LoggerFactory.getLogger(BacklogReplayIntegrationTest.class);
    private static final List<String> OPS = List.of("read", "write");
    private static final String RUN = "replay";
    private static final int STEP = 1;
    /**
     * A bound on waiting, not a speed: committing every 1 ms in batches of 10 records makes hundreds of transactions,
     * which took 37 s on an idle 2-core machine and over 120 s at load average 11-16.
     */
    private static final Duration TIMEOUT = Duration.ofSeconds(400);

    @TempDir
    Path dir;

    @Test
    void backlogWithAMarkerCopyOnAnotherPartition_noLateCorrection_everyRollupComplete() throws Exception {
        // a slow replay: few blocks per poll and a commit after each, so partition 0's step spans many commits
        // while partition 1's marker copy goes out in the first
        AggregatorConfig config = AggregatorConfig.defaults().withApplicationId("it-replay")
                .withRollups(List.of(Duration.ofSeconds(10), Duration.ofSeconds(60)))
                .withCommitInterval(Duration.ofMillis(1))
                .withClientOverrides(Map.of("main.consumer.max.poll.records", "10"));
        long base = (System.currentTimeMillis() / 60_000 - 60) * 60_000; // an hour ago, aligned to a minute
        Map<String, Map<Long, Long>> sent = new TreeMap<>(); // scope -> second -> samples
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(2));
            TestProducer p = new TestProducer(RUN, "p1");
            Random random = new Random(17);
            long blocks = 0;
            try (KafkaProducer<String, byte[]> producer = TestProducer.kafkaProducer(kafka.bootstrapServers())) {
                producer.send(new ProducerRecord<>(Topics.CONTROL, RUN, Json.write(new StepStarted(RUN, base, "p1",
                        STEP, null, "oltp_test", 2, 1, 0, 60_000, OPS, 0, Map.of()))));
                for (int tenth = 0; tenth < 600; tenth++) {
                    long at = base + tenth * 100L;
                    List<Sample> batch = new ArrayList<>();
                    for (int i = 0; i < 50; i++) {
                        long end = (at + i * 2L) * 1000;
                        long latency = 100 + random.nextInt(3000);
                        int op = random.nextInt(2);
                        batch.add(new Sample(end - latency, latency, end - latency, op, SampleStatus.OK, 1, false));
                        long second = (at - base) / 1000;
                        sent.computeIfAbsent(WindowStats.scopeKey(RUN, STEP, OPS.get(op)), k -> new TreeMap<>())
                                .merge(second, 1L, Long::sum);
                        sent.computeIfAbsent(WindowStats.scopeKey(RUN, STEP, WindowStats.ALL_OPS),
                                k -> new TreeMap<>()).merge(second, 1L, Long::sum);
                    }
                    producer.send(new ProducerRecord<>(Topics.SAMPLES, 0, p.key(),
                            p.samples(STEP, OPS, batch, (at + 100) * 1000)));
                    blocks++;
                }
                // the producer's marker goes to every partition: partition 1 carries nothing else of it
                long end = (base + 60_050) * 1000;
                producer.send(new ProducerRecord<>(Topics.SAMPLES, 0, p.key(), p.endOfStep(STEP, OPS, end)));
                producer.send(new ProducerRecord<>(Topics.SAMPLES, 1, p.key(), p.endOfStep(STEP, OPS, end)));
                blocks += 2;
                producer.send(new ProducerRecord<>(Topics.CONTROL, RUN, Json.write(new StepEnded(RUN,
                        base + 60_100, "p1", STEP, 0, blocks, 0, "completed"))));
                producer.flush();
            }

            List<WindowStats> windows;
            StepSummary all;
            try (Aggregator aggregator = Aggregator.start(kafka.bootstrapServers(), config, dir)) {
                Outputs out = await(kafka.bootstrapServers(), aggregator);
                windows = out.windows;
                all = out.all;
            }
            long late = windows.stream().filter(w -> w.windowEndEpochMs() - w.windowStartEpochMs() == 1000)
                    .filter(w -> w.op().equals(WindowStats.ALL_OPS)).mapToLong(WindowStats::lateCount).sum();
            LOG.info("late samples of the * scope's base windows: {} of {}", late, all.count());
            assertThat(windows).allSatisfy(w -> assertThat(w.lateCount()).as("late samples of %s @%d",
                    w.scopeKey(), w.windowStartEpochMs()).isZero());
            assertThat(all.lateCount()).isZero();
            assertThat(all.missingBlocks()).isZero();
            for (long size : List.of(1_000L, 10_000L, 60_000L)) {
                Map<String, Long> expected = new TreeMap<>();
                sent.forEach((scope, perSecond) -> perSecond.forEach((second, n) -> expected.merge(
                        scope + "@" + (base + second * 1000 - Math.floorMod(second * 1000, size)), n, Long::sum)));
                Map<String, Long> actual = new TreeMap<>();
                for (WindowStats w : windows) {
                    if (w.windowEndEpochMs() - w.windowStartEpochMs() == size && w.count() > 0) {
                        actual.merge(w.scopeKey() + "@" + w.windowStartEpochMs(), w.count(), Long::sum);
                    }
                }
                assertThat(actual).as("windows of %d ms", size).isEqualTo(expected);
            }
        }
    }

    private record Outputs(List<WindowStats> windows, StepSummary all) {}

    /** Reads windows and summaries (read_committed) until the "*" summary is complete. */
    private static Outputs await(String bootstrap, Aggregator aggregator) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<WindowStats> windows = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = new ArrayList<>();
            for (String topic : List.of(Topics.WINDOWS, Topics.SUMMARIES)) {
                consumer.partitionsFor(topic).forEach(i -> parts.add(new TopicPartition(topic, i.partition())));
            }
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            Map<String, StepSummary> summaries = new TreeMap<>();
            // each scope's summary comes after its roll-ups (stage 3 emits them when the scope ends)
            while (summaries.size() < OPS.size() + 1 || !summaries.values().stream().allMatch(StepSummary::complete)) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.topic().equals(Topics.WINDOWS)) {
                        windows.add(Json.read(r.value(), WindowStats.class));
                    } else {
                        StepSummary s = Json.read(r.value(), StepSummary.class);
                        summaries.put(s.op(), s);
                    }
                }
                assertThat(aggregator.failure()).isEmpty();
                assertThat(System.nanoTime() - deadline).as("complete summaries within %s", TIMEOUT).isNegative();
            }
            // another partition may still hold committed windows not read yet
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            while (parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.topic().equals(Topics.WINDOWS)) {
                        windows.add(Json.read(r.value(), WindowStats.class));
                    }
                }
                assertThat(System.nanoTime() - deadline).as("windows read within %s", TIMEOUT).isNegative();
            }
            return new Outputs(windows, summaries.get(WindowStats.ALL_OPS));
        }
    }
}
