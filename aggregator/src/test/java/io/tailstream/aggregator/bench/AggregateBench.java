package io.tailstream.aggregator.bench;

import io.tailstream.aggregator.AggregationProgress;
import io.tailstream.aggregator.Aggregator;
import io.tailstream.aggregator.AggregatorConfig;
import io.tailstream.aggregator.testing.TestProducer;
import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Aggregation throughput with exactly_once_v2 on the in-process broker: pre-fills the samples topic with
 * {@code samples} samples (blocks of 1,024, one producer, two ops, latencies log-uniform 50 µs..200 ms,
 * 100,000 samples per second of event time), then starts the aggregator and measures the time until every sample
 * is counted in committed windows (start-up and the first assignment included, so the figure is a lower bound).
 *
 * <pre>
 * ./mvnw -q -o -pl aggregator test -Dtest=AggregateBenchTest -Dtailstream.bench.samples=5000000
 * </pre>
 * Results are recorded in {@code docs/aggregator-benchmarks.md}.
 */
public final class AggregateBench {

    private AggregateBench() {}

    public static void main(String[] args) throws Exception {
        long samples = args.length > 0 ? Long.parseLong(args[0]) : 5_000_000L;
        int perBlock = 1024;
        long blocks = (samples + perBlock - 1) / perBlock;
        String run = "bench";
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(1));
            TestProducer p = new TestProducer(run, "p1");
            Random random = new Random(1);
            long baseMicros = (System.currentTimeMillis() / 1000 - 7200) * 1_000_000L;
            long fillStart = System.nanoTime();
            long sent = 0;
            try (KafkaProducer<String, byte[]> producer = producer(kafka.bootstrapServers())) {
                List<Sample> batch = new ArrayList<>(perBlock);
                for (long b = 0; b < blocks; b++) {
                    long blockEnd = baseMicros + (b + 1) * perBlock * 10L; // 100,000 samples per event second
                    batch.clear();
                    int n = (int) Math.min(perBlock, samples - sent);
                    for (int i = 0; i < n; i++) {
                        long end = blockEnd - random.nextInt(perBlock * 10);
                        long latency = (long) Math.exp(Math.log(50) + random.nextDouble()
                                * (Math.log(200_000) - Math.log(50)));
                        int op = random.nextInt(2);
                        batch.add(new Sample(end - latency, latency, end - latency, op, SampleStatus.OK, op + 1,
                                false));
                    }
                    sent += n;
                    producer.send(new ProducerRecord<>(Topics.SAMPLES, p.key(), p.samples(1, List.of("read",
                            "write"), batch, blockEnd)));
                }
                producer.send(new ProducerRecord<>(Topics.SAMPLES, p.key(),
                        p.endOfStep(1, List.of("read", "write"), baseMicros + blocks * perBlock * 10L + 1))).get();
            }
            System.out.printf("pre-filled %,d samples in %,d blocks in %.1f s%n", sent, blocks,
                    (System.nanoTime() - fillStart) / 1e9);
            Path state = Files.createTempDirectory("aggregate-bench-");
            AggregatorConfig config = AggregatorConfig.defaults().withApplicationId("bench");
            long started = System.nanoTime();
            try (Aggregator aggregator = Aggregator.start(kafka.bootstrapServers(), config, state);
                 AggregationProgress progress = AggregationProgress.open(kafka.bootstrapServers(), Map.of())) {
                // steady-state rate: from the first committed window to the last, start-up excluded
                long firstAt = 0;
                long firstCount = 0;
                while (firstAt == 0) {
                    progress.poll(Duration.ofMillis(50));
                    long counted = progress.countedSamples(run, 1);
                    if (counted > 0) {
                        firstAt = System.nanoTime();
                        firstCount = counted;
                    }
                }
                progress.awaitCounts(run, Map.of(1, sent), Duration.ofMinutes(30));
                long doneAt = System.nanoTime();
                double seconds = (doneAt - started) / 1e9;
                System.out.printf("steady state: %,d samples in %.2f s after the first window: %,.0f samples/s%n",
                        sent - firstCount, (doneAt - firstAt) / 1e9, (sent - firstCount) / ((doneAt - firstAt) / 1e9));
                System.out.printf("aggregated %,d samples with %s in %.2f s: %,.0f samples/s (start-up included); "
                                + "heap used %,d MB%n", sent, config.processingGuarantee(), seconds, sent / seconds,
                        (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) >> 20);
            }
        }
    }

    private static KafkaProducer<String, byte[]> producer(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 1024 * 1024);
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 8 * 1024 * 1024);
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }
}
