package io.tailstream.aggregator.bench;

import io.tailstream.aggregator.AggregatorConfig;
import io.tailstream.infra.kafka.KafkaCluster;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.schemas.Topics;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Aggregation throughput against a three-node cluster and against a single node, measured in one run: both
 * clusters run at once (each node a JVM of its own, as {@code tailstream broker --cluster N} starts them), each holds
 * the same pre-filled samples topic (one partition), and one aggregator instance with one stream thread aggregates
 * it under a fresh application id, alternately on the single node and on the cluster (1, 3, 1, 3, ...). On the
 * cluster every topic has three replicas, two in sync, and the aggregator's internal topics the same, as
 * {@code aggregate} sets them for a cluster; exactly-once transactions then wait for two replicas. The rate counts
 * the input records the application committed from its first commit until every record is committed.
 *
 * <p>All nodes share this machine's cores: the figure is what replication costs the aggregator when the brokers
 * compete with it, not what brokers on machines of their own give.
 *
 * <pre>
 * ./mvnw -B -q -pl benchmarks -am package -DskipTests
 * java -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp benchmarks/target/benchmarks.jar \
 *     io.tailstream.aggregator.bench.AggregateBrokersBench 10000000 3 3     # samples, nodes, rounds
 * </pre>
 * Results are recorded in {@code docs/benchmarks.md}.
 */
public final class AggregateBrokersBench {

    private static final List<TopicPartition> SAMPLES = List.of(new TopicPartition(Topics.SAMPLES, 0));

    private AggregateBrokersBench() {}

    public static void main(String[] args) throws Exception {
        long samples = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        int nodes = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        try (KafkaCluster single = KafkaCluster.start(1); KafkaCluster cluster = KafkaCluster.start(nodes);
             Admin singleAdmin = admin(single); Admin clusterAdmin = admin(cluster)) {
            long singleRecords = prefill(single, singleAdmin, samples);
            long clusterRecords = prefill(cluster, clusterAdmin, samples);
            double[][] rates = new double[2][rounds];
            for (int round = 0; round < rounds; round++) {
                rates[0][round] = measure(single, singleAdmin, singleRecords, round);
                rates[1][round] = measure(cluster, clusterAdmin, clusterRecords, round);
            }
            double one = AggregateInstancesBench.median(rates[0]);
            double many = AggregateInstancesBench.median(rates[1]);
            System.out.printf("1 node: median %,.0f samples/s over %d rounds %s%n", one, rounds,
                    Arrays.toString(rates[0]));
            System.out.printf("%d nodes: median %,.0f samples/s over %d rounds %s%n", nodes, many, rounds,
                    Arrays.toString(rates[1]));
            System.out.printf("ratio %d nodes / 1 node (medians, same run): %.2f%n", nodes, many / one);
        }
    }

    private static Admin admin(KafkaCluster cluster) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()));
    }

    /** Creates the topics (replicated as the cluster allows) and fills the samples topic; records on it. */
    private static long prefill(KafkaCluster cluster, Admin admin, long samples) throws Exception {
        TopicProvisioner.ensure(cluster.bootstrapServers(), Topics.all(1));
        long sent = AggregateBench.prefill(cluster.bootstrapServers(), Topics.SAMPLES, "bench", samples, true);
        long records = admin.listOffsets(Map.of(SAMPLES.get(0), OffsetSpec.latest())).partitionResult(SAMPLES.get(0))
                .get().offset();
        System.out.printf("%d node(s): pre-filled %,d samples in %,d records, %s%n", cluster.size(), sent, records,
                TopicProvisioner.Replication.forBrokers(cluster.size()));
        return records;
    }

    private static double measure(KafkaCluster cluster, Admin admin, long records, int round) throws Exception {
        TopicProvisioner.Replication replication = TopicProvisioner.Replication.forBrokers(cluster.size());
        AggregatorConfig config = AggregatorConfig.defaults()
                .withApplicationId("bench-" + cluster.size() + "-" + round).withStreamThreads(1)
                .withClientOverrides(Map.of(StreamsConfig.REPLICATION_FACTOR_CONFIG,
                        String.valueOf(replication.factor()),
                        StreamsConfig.topicPrefix(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG),
                        String.valueOf(replication.minInSync())));
        double rate = AggregateInstancesBench.measure(cluster.bootstrapServers(), admin, config, 1, SAMPLES,
                records);
        System.out.printf("round %d, %d node(s): %,.0f samples/s%n", round + 1, cluster.size(), rate);
        return rate;
    }
}
