package io.tailstream.aggregator;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.aggregator.testing.TestProducer;
import io.tailstream.aggregator.topology.AggregatorTopology;
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
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.ThreadMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stage 3 keyed and partitioned by run: two aggregator instances of one application id against the in-process broker
 * (3 samples partitions) aggregate three concurrent runs whose ids hash to three different stage-3 partitions. The
 * step-input topic has as many partitions as the samples topic, and every run's summary counts exactly the samples
 * sent, complete, whichever instance analysed it.
 */
class StepStageByRunIntegrationTest {

    private static final Logger LOG = LoggerFactory.getLogger(StepStageByRunIntegrationTest.class);
    private static final List<String> OPS = List.of("read", "write");
    private static final int PARTITIONS = 3;
    private static final String APP = "it-by-run-aggregator";

    @TempDir
    Path stateA;
    @TempDir
    Path stateB;

    @Test
    void twoInstances_threeRuns_eachRunsSummaryExact_stepStagePartitionedLikeTheSamples() throws Exception {
        List<String> runs = runsOnDistinctPartitions();
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(PARTITIONS));
            AggregatorConfig config = AggregatorConfig.defaults().withApplicationId(APP);
            // each advertises its live monitor, as `aggregate --http` does, so each can link the other
            try (Aggregator a = Aggregator.start(kafka.bootstrapServers(), config.withClientOverrides(Map.of(
                         StreamsConfig.APPLICATION_SERVER_CONFIG, "127.0.0.1:19464")), stateA);
                 Aggregator b = Aggregator.start(kafka.bootstrapServers(), config.withClientOverrides(Map.of(
                         StreamsConfig.APPLICATION_SERVER_CONFIG, "127.0.0.1:19465")), stateB);
                 KafkaProducer<String, byte[]> producer = TestProducer.kafkaProducer(kafka.bootstrapServers())) {
                assertThat(a.awaitRunning(Duration.ofSeconds(60))).isTrue();
                assertThat(b.awaitRunning(Duration.ofSeconds(60))).isTrue();
                Map<String, Long> sent = send(producer, runs);

                Map<String, StepSummary> summaries = awaitSummaries(kafka.bootstrapServers(), runs, a, b);
                for (String run : runs) {
                    StepSummary s = summaries.get(run);
                    assertThat(s).as(run).isNotNull();
                    assertThat(s.complete()).as(run).isTrue();
                    assertThat(s.missingBlocks()).as(run).isZero();
                    assertThat(s.count()).as(run).isEqualTo(sent.get(run));
                }
                try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                        kafka.bootstrapServers()))) {
                    String topic = APP + "-" + AggregatorTopology.STEP_INPUT_REPARTITION + "-repartition";
                    assertThat(admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions())
                            .as(topic).hasSize(PARTITIONS);
                }
                LOG.info("step-input partitions owned: instance A {}, instance B {}", stepInputPartitions(a),
                        stepInputPartitions(b));
                assertThat(a.instances()).containsExactly("127.0.0.1:19464", "127.0.0.1:19465");
                assertThat(b.instances()).isEqualTo(a.instances());
                assertThat(a.failure()).isEmpty();
                assertThat(b.failure()).isEmpty();
            }
        }
    }

    /** Three run ids whose records the default partitioner sends to three different partitions. */
    private static List<String> runsOnDistinctPartitions() {
        Map<Integer, String> byPartition = new TreeMap<>();
        for (int i = 0; byPartition.size() < PARTITIONS; i++) {
            String run = "by-run-" + i;
            int partition = Utils.toPositive(Utils.murmur2(run.getBytes(StandardCharsets.UTF_8))) % PARTITIONS;
            byPartition.putIfAbsent(partition, run);
        }
        return List.copyOf(byPartition.values());
    }

    /**
     * Each run: one producer, 20 blocks of 200 samples 100 ms apart with heartbeats, then its end-of-step marker on
     * every partition; {@code StepStarted} before and {@code StepEnded} after. Returns the samples sent per run.
     */
    private static Map<String, Long> send(KafkaProducer<String, byte[]> producer, List<String> runs)
            throws Exception {
        Map<String, TestProducer> producers = new HashMap<>();
        Map<String, long[]> bounds = new HashMap<>();
        Map<String, Long> samples = new HashMap<>();
        Map<String, Long> blocks = new HashMap<>();
        Random random = new Random(3);
        for (String run : runs) {
            producers.put(run, new TestProducer(run, "p"));
            producer.send(new ProducerRecord<>(Topics.CONTROL, run, Json.write(new StepStarted(run,
                    System.currentTimeMillis(), "p", 1, null, "synthetic", 2, 1, 0, 2_000, OPS, 2, Map.of())))).get();
            bounds.put(run, new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
        }
        for (int tick = 0; tick < 20; tick++) {
            long now = System.currentTimeMillis() * 1000;
            for (String run : runs) {
                TestProducer p = producers.get(run);
                List<Sample> batch = new ArrayList<>();
                for (int i = 0; i < 200; i++) {
                    long latency = 200 + random.nextInt(5_000);
                    long end = now - random.nextInt(90_000);
                    int op = random.nextInt(2);
                    batch.add(new Sample(end - latency, latency, end - latency, op, SampleStatus.OK, op + 1, false));
                    bounds.get(run)[0] = Math.min(bounds.get(run)[0], end - latency);
                    bounds.get(run)[1] = Math.max(bounds.get(run)[1], end);
                }
                producer.send(new ProducerRecord<>(Topics.SAMPLES, p.key(), p.samples(1, OPS, batch, now)));
                producer.send(new ProducerRecord<>(Topics.SAMPLES, p.key(), p.heartbeat(1, OPS, now)));
                samples.merge(run, (long) batch.size(), Long::sum);
                blocks.merge(run, 2L, Long::sum);
            }
            Thread.sleep(100); // pacing: live blocks 100 ms apart, not a wait for a condition
        }
        long end = System.currentTimeMillis() * 1000;
        for (String run : runs) {
            TestProducer p = producers.get(run);
            byte[] marker = p.endOfStep(1, OPS, end);
            for (int partition = 0; partition < PARTITIONS; partition++) {
                producer.send(new ProducerRecord<>(Topics.SAMPLES, partition, p.key(), marker)).get();
                blocks.merge(run, 1L, Long::sum);
            }
            long[] b = bounds.get(run);
            producer.send(new ProducerRecord<>(Topics.CONTROL, run, Json.write(new StepEnded(run,
                    System.currentTimeMillis(), "p", 1, samples.get(run), blocks.get(run), 0, StepEnded.COMPLETED,
                    false, 0L, 0L, 0L, b[0], b[0], b[1], 2, 0L, null, null)))).get();
        }
        producer.flush();
        return samples;
    }

    /** The last "*" summary of each run once every run has a complete one (committed only), within 90 s. */
    private static Map<String, StepSummary> awaitSummaries(String bootstrap, List<String> runs, Aggregator a,
                                                           Aggregator b) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        Map<String, StepSummary> out = new HashMap<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(p, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = consumer.partitionsFor(Topics.SUMMARIES).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (System.nanoTime() < deadline
                    && !runs.stream().allMatch(r -> out.containsKey(r) && out.get(r).complete())) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    StepSummary s = Json.read(r.value(), StepSummary.class);
                    if (runs.contains(s.runId()) && s.op().equals(WindowStats.ALL_OPS)) {
                        out.put(s.runId(), s);
                    }
                }
                assertThat(a.failure()).isEmpty();
                assertThat(b.failure()).isEmpty();
            }
        }
        return out;
    }

    private static Set<Integer> stepInputPartitions(Aggregator aggregator) {
        Set<Integer> out = new TreeSet<>();
        for (ThreadMetadata t : aggregator.streams().metadataForLocalThreads()) {
            t.activeTasks().forEach(task -> task.topicPartitions().stream()
                    .filter(tp -> tp.topic().endsWith(AggregatorTopology.STEP_INPUT_REPARTITION + "-repartition"))
                    .forEach(tp -> out.add(tp.partition())));
        }
        return out;
    }
}
