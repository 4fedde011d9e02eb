package io.tailstream.aggregator.bench;

import io.tailstream.aggregator.Aggregator;
import io.tailstream.aggregator.AggregatorConfig;
import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.schemas.Topics;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Aggregation throughput of one instance against two in one application id, measured in one run over the same
 * pre-filled samples topic (two partitions, so two instances have a task each), in the order 1, 2, 1, 2, ...: each
 * measurement starts its instances under a fresh application id, which reads the topic from the start, and counts
 * the input records its group committed (exactly-once: offsets commit with the output) from the first commit until
 * every record is committed. Instances of one JVM share its cores, so on one machine this measures what a second
 * instance costs or gains there, not the scale-out of instances on machines of their own.
 *
 * <pre>
 * ./mvnw -B -q -pl benchmarks -am package -DskipTests
 * java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp benchmarks/target/benchmarks.jar \
 *     io.tailstream.aggregator.bench.AggregateInstancesBench 10000000 2 3     # samples, instances, rounds
 * </pre>
 * Results are recorded in {@code docs/benchmarks.md}.
 */
public final class AggregateInstancesBench {

    private static final int PARTITIONS = 2;
    private static final int SAMPLES_PER_BLOCK = 1024;

    private AggregateInstancesBench() {}

    public static void main(String[] args) throws Exception {
        long samples = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        int maxInstances = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        // before AggregateBench reads it: its pre-fill deals the blocks over this many partitions
        System.setProperty("tailstream.bench.partitions", Integer.toString(PARTITIONS));
        try (EmbeddedKafka kafka = EmbeddedKafka.start();
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                     kafka.bootstrapServers()))) {
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(PARTITIONS));
            long sent = AggregateBench.prefill(kafka.bootstrapServers(), Topics.SAMPLES, "bench", samples, true);
            List<TopicPartition> partitions = List.of(new TopicPartition(Topics.SAMPLES, 0),
                    new TopicPartition(Topics.SAMPLES, 1));
            long records = 0;
            ListOffsetsResult ends = admin.listOffsets(Map.of(partitions.get(0), OffsetSpec.latest(),
                    partitions.get(1), OffsetSpec.latest()));
            for (TopicPartition tp : partitions) {
                records += ends.partitionResult(tp).get().offset();
            }
            System.out.printf("pre-filled %,d samples in %,d records on %d partitions%n", sent, records, PARTITIONS);
            double[][] rates = new double[maxInstances + 1][rounds];
            int measurement = 0;
            for (int round = 0; round < rounds; round++) {
                for (int instances = 1; instances <= maxInstances; instances++) {
                    AggregatorConfig config = AggregatorConfig.defaults()
                            .withApplicationId("bench-" + instances + "-" + round).withStreamThreads(1);
                    double rate = measure(kafka.bootstrapServers(), admin, config, instances, partitions, records);
                    rates[instances][round] = rate;
                    System.out.printf("measurement %d: %d instance(s): %,.0f samples/s%n", ++measurement,
                            instances, rate);
                }
            }
            for (int instances = 1; instances <= maxInstances; instances++) {
                System.out.printf("%d instance(s): median %,.0f samples/s over %d rounds %s%n", instances,
                        median(rates[instances]), rounds, Arrays.toString(rates[instances]));
            }
            System.out.printf("ratio %d instances / 1 (medians, same run): %.2f%n", maxInstances,
                    median(rates[maxInstances]) / median(rates[1]));
        }
    }

    /**
     * Steady rate of {@code instances} aggregators of {@code config} (a fresh application id), samples per second:
     * input records committed from the first commit until {@code records} are, times the samples per block.
     */
    static double measure(String bootstrap, Admin admin, AggregatorConfig config, int instances,
                          List<TopicPartition> partitions, long records) throws Exception {
        String app = config.applicationId();
        List<Aggregator> running = new ArrayList<>();
        try {
            for (int i = 0; i < instances; i++) {
                running.add(Aggregator.start(bootstrap, config, Files.createTempDirectory("aggregate-bench-")));
            }
            long firstAt = 0;
            long firstCommitted = 0;
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(30);
            while (System.nanoTime() < deadline) {
                long committed = committed(admin, app, partitions);
                long now = System.nanoTime();
                if (firstAt == 0 && committed > 0) {
                    firstAt = now;
                    firstCommitted = committed;
                }
                if (committed >= records) {
                    return (records - firstCommitted) * (double) SAMPLES_PER_BLOCK / ((now - firstAt) / 1e9);
                }
                Thread.sleep(20);
            }
            throw new IllegalStateException(app + " did not commit every record within 30 minutes");
        } finally {
            for (Aggregator a : running) {
                a.close();
            }
        }
    }

    static long committed(Admin admin, String app, List<TopicPartition> partitions) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(app)
                .partitionsToOffsetAndMetadata().get(Duration.ofSeconds(30).toMillis(), TimeUnit.MILLISECONDS);
        long sum = 0;
        for (TopicPartition tp : partitions) {
            OffsetAndMetadata o = offsets.get(tp);
            sum += o == null ? 0 : o.offset();
        }
        return sum;
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
