package io.tailstream.aggregator.bench;

import io.tailstream.aggregator.AggregationProgress;
import io.tailstream.aggregator.Aggregator;
import io.tailstream.aggregator.AggregatorConfig;
import io.tailstream.aggregator.testing.TestProducer;
import io.tailstream.benchmarks.CpuSnapshot;
import io.tailstream.infra.kafka.BacklogProducer;
import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.schemas.TopicSpec;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
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
 * {@code samples} samples (blocks of 1,024, ops read/write, latencies log-uniform 50 µs..200 ms), then starts the
 * aggregator and measures the time until every sample is counted in committed windows, from the first committed
 * window (steady state) and from the start (start-up included); CPU per sample by thread group; then the naive DSL
 * baseline ({@link NaiveDslBaseline}) on {@code naiveSamples} samples in the same JVM, and the ratio.
 *
 * <pre>
 * ./mvnw -B -q -pl benchmarks -am package -DskipTests
 * java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp benchmarks/target/benchmarks.jar -Dtailstream.bench.eventRate=1000000 \
 *     [-Dtailstream.bench.partitions=2] [-Dtailstream.bench.commitMs=100] [-Dtailstream.bench.overrides=k=v,...] \
 *     io.tailstream.aggregator.bench.AggregateBench 60000000 20000     # samples, naive baseline's samples
 * </pre>
 * Results are recorded in {@code docs/benchmarks.md}.
 */
public final class AggregateBench {

    private static final List<String> OPS = List.of("read", "write");
    /**
     * Samples per second of event time (system property {@code tailstream.bench.eventRate}, default 100,000): how
     * many samples each 1 s window holds, so per-window costs (window emission, stage 3) weigh 1 / rate per sample.
     */
    private static final long EVENT_RATE = Long.getLong("tailstream.bench.eventRate", 100_000L);
    /**
     * Samples partitions (system property {@code tailstream.bench.partitions}, default 1): one producer per partition,
     * blocks dealt round-robin, and as many stream threads.
     */
    private static final int PARTITIONS = Integer.getInteger("tailstream.bench.partitions", 1);

    private AggregateBench() {}

    public static void main(String[] args) throws Exception {
        long samples = args.length > 0 ? Long.parseLong(args[0]) : 5_000_000L;
        long naiveSamples = args.length > 1 ? Long.parseLong(args[1]) : 40_000L;
        String run = "bench";
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(PARTITIONS));
            TopicProvisioner.ensure(kafka.bootstrapServers(), List.of(new TopicSpec(NaiveDslBaseline.INPUT, 1,
                    Map.of())));
            long fillStart = System.nanoTime();
            long sent = prefill(kafka.bootstrapServers(), Topics.SAMPLES, run, samples, true);
            System.out.printf("pre-filled %,d samples (%,d per second of event time) in %.1f s%n", sent, EVENT_RATE,
                    (System.nanoTime() - fillStart) / 1e9);

            Path state = Files.createTempDirectory("aggregate-bench-");
            AggregatorConfig config = AggregatorConfig.defaults().withApplicationId("bench")
                    .withStreamThreads(PARTITIONS);
            String commitMs = System.getProperty("tailstream.bench.commitMs");
            if (commitMs != null) {
                config = config.withCommitInterval(Duration.ofMillis(Long.parseLong(commitMs)));
            }
            String overrides = System.getProperty("tailstream.bench.overrides"); // k=v,k=v: Streams/client configs
            if (overrides != null) {
                Map<String, String> o = new HashMap<>();
                for (String kv : overrides.split(",")) {
                    o.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
                }
                config = config.withClientOverrides(o);
            }
            double tailstreamRate;
            long started = System.nanoTime();
            try (Aggregator aggregator = Aggregator.start(kafka.bootstrapServers(), config, state);
                 AggregationProgress progress = AggregationProgress.open(kafka.bootstrapServers(), Map.of())) {
                // steady-state rate: from the first committed window to the last, start-up excluded
                long firstAt = 0;
                long firstCount = 0;
                CpuSnapshot cpuAtFirst = null;
                while (firstAt == 0) {
                    progress.poll(Duration.ofMillis(50));
                    long counted = progress.countedSamples(run, 1);
                    if (counted > 0) {
                        firstAt = System.nanoTime();
                        firstCount = counted;
                        cpuAtFirst = CpuSnapshot.take();
                    }
                }
                progress.awaitCounts(run, Map.of(1, sent), Duration.ofMinutes(30));
                long doneAt = System.nanoTime();
                Map<String, Long> cpu = CpuSnapshot.take().threadCpuByRoleSince(cpuAtFirst, AggregatorRoles::of);
                long steadySamples = sent - firstCount;
                double seconds = (doneAt - started) / 1e9;
                tailstreamRate = steadySamples / ((doneAt - firstAt) / 1e9);
                System.out.printf("tailstream, steady state: %,d samples in %.2f s after the first window: %,.0f "
                        + "samples/s%n", steadySamples, (doneAt - firstAt) / 1e9, tailstreamRate);
                System.out.printf("tailstream, start-up included: %,d samples with %s in %.2f s: %,.0f samples/s; "
                                + "heap used %,d MB%n", sent, config.processingGuarantee(), seconds, sent / seconds,
                        (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) >> 20);
                System.out.printf("tailstream, CPU per sample in steady state (ns): %s%n",
                        AggregatorRoles.perSample(cpu, steadySamples));
                double streamNs = cpu.getOrDefault(AggregatorRoles.STREAM_THREADS, 0L) / (double) steadySamples;
                System.out.printf("tailstream, one stream thread's capacity at that CPU cost: %,.0f samples/s%n",
                        1e9 / streamNs);
            }

            prefill(kafka.bootstrapServers(), NaiveDslBaseline.INPUT, run, naiveSamples, false);
            NaiveDslBaseline.Result naive = NaiveDslBaseline.run(kafka.bootstrapServers(), naiveSamples,
                    Files.createTempDirectory("aggregate-bench-naive-"));
            System.out.printf("naive DSL baseline (one record per sample, HdrHistogram serde per update, %s): "
                            + "%,d samples in %.2f s: %,.0f samples/s%n", config.processingGuarantee(), naiveSamples,
                    naive.seconds(), naive.samplesPerSecond());
            System.out.printf("ratio tailstream / naive (steady state, same run): %,.0f%n",
                    tailstreamRate / naive.samplesPerSecond());
        }
    }

    /**
     * Writes {@code samples} samples in blocks of 1,024 (one producer, ops read/write, latencies log-uniform
     * 50 µs..200 ms, 100,000 samples per second of event time, two hours ago) and, if asked, the end-of-step marker.
     *
     * @return samples written
     */
    static long prefill(String bootstrap, String topic, String run, long samples, boolean endOfStep)
            throws Exception {
        int perBlock = 1024;
        long blocks = (samples + perBlock - 1) / perBlock;
        long microsPerBlock = perBlock * 1_000_000L / EVENT_RATE; // event time one block spans
        int partitions = topic.equals(Topics.SAMPLES) ? PARTITIONS : 1;
        List<TestProducer> producers = new ArrayList<>();
        for (int i = 0; i < partitions; i++) {
            producers.add(new TestProducer(run, "p" + (i + 1)));
        }
        Random random = new Random(1);
        long baseMicros = (System.currentTimeMillis() / 1000 - 7200) * 1_000_000L;
        long sent = 0;
        try (KafkaProducer<String, byte[]> producer = producer(bootstrap)) {
            List<Sample> batch = new ArrayList<>(perBlock);
            for (long b = 0; b < blocks; b++) {
                long blockEnd = baseMicros + (b + 1) * microsPerBlock;
                batch.clear();
                int n = (int) Math.min(perBlock, samples - sent);
                for (int i = 0; i < n; i++) {
                    long end = blockEnd - random.nextInt((int) microsPerBlock);
                    long latency = (long) Math.exp(Math.log(50) + random.nextDouble()
                            * (Math.log(200_000) - Math.log(50)));
                    int op = random.nextInt(2);
                    batch.add(new Sample(end - latency, latency, end - latency, op, SampleStatus.OK, op + 1,
                            false));
                }
                sent += n;
                int home = (int) (b % partitions);
                TestProducer p = producers.get(home);
                producer.send(new ProducerRecord<>(topic, home, p.key(), p.samples(1, OPS, batch, blockEnd)));
            }
            if (endOfStep) {
                // as the real producer does: each producer's end-of-step marker to every partition
                for (TestProducer p : producers) {
                    for (int partition = 0; partition < partitions; partition++) {
                        producer.send(new ProducerRecord<>(topic, partition, p.key(),
                                p.endOfStep(1, OPS, baseMicros + blocks * microsPerBlock + 1)));
                    }
                }
            }
            producer.flush();
        }
        return sent;
    }

    private static KafkaProducer<String, byte[]> producer(String bootstrap) {
        Properties p = BacklogProducer.settings(bootstrap);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 1024 * 1024);
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }
}
