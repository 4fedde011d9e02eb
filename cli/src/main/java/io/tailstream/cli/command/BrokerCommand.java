package io.tailstream.cli.command;

import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.KafkaCluster;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.schemas.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * A real Kafka broker (KRaft) in its own process, or a cluster of several in processes of their own, for running
 * producer, aggregator and archiver as separate processes on one machine without installing Kafka.
 */
@Command(name = "broker", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run a single-node Kafka broker (KRaft, Kafka's own server code) on 127.0.0.1 with the"
                + " tailstream topics, until interrupted.",
                "With --cluster N, run N nodes instead, each in a JVM of its own, each broker and controller, the"
                        + " controller quorum made of all of them; with three or more, topics get three replicas and"
                        + " min.insync.replicas=2, so the cluster loses no acknowledged record when one node dies.",
                "For trying 'run --bootstrap-servers', 'aggregate' and 'archive' as separate processes; use a real"
                        + " cluster for anything that must survive this machine."})
public final class BrokerCommand implements Callable<Integer> {

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "9092",
            description = "Client port on 127.0.0.1 (default: ${DEFAULT-VALUE}; 0 picks a free one). With --cluster,"
                    + " the first node's; the others take the next ports.")
    int port;

    @Option(names = "--cluster", paramLabel = "N", defaultValue = "1",
            description = "Nodes, each a JVM of its own (1 to 9; default: ${DEFAULT-VALUE}: one broker in this"
                    + " process). Every node keeps its log, server.properties and console output in"
                    + " DIR/node-ID; a --log-dir that holds a cluster starts it again on its ports.")
    int nodes;

    @Option(names = "--log-dir", paramLabel = "DIR",
            description = "Where the broker keeps its log; kept after exit (default: a temporary folder, deleted"
                    + " on exit).")
    Path logDir;

    @Option(names = "--partitions", paramLabel = "N", defaultValue = "" + Topics.DEFAULT_SAMPLE_PARTITIONS,
            description = "Partitions of the samples and windows topics (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (nodes < 1 || nodes > 9) {
            throw new ParameterException(spec.commandLine(), "--cluster must be in 1..9, got " + nodes);
        }
        if (port < 0 || port + nodes - 1 > 65_535) {
            throw new ParameterException(spec.commandLine(), "--port must be in 0.." + (65_536 - nodes) + ", got "
                    + port);
        }
        if (nodes > 1) {
            return runCluster();
        }
        boolean temporary = logDir == null;
        Path dir = temporary ? Files.createTempDirectory("tailstream-broker-") : logDir;
        CountDownLatch stopped = new CountDownLatch(1);
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir, temporary, port)) {
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(partitions));
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                kafka.close();
                stopped.countDown();
            }, "tailstream-broker-shutdown"));
            System.out.println("broker ready: --bootstrap-servers " + kafka.bootstrapServers() + " (log dir " + dir
                    + "); Ctrl-C to stop");
            stopped.await();
        }
        return 0;
    }

    private int runCluster() throws Exception {
        boolean temporary = logDir == null;
        Path dir = temporary ? Files.createTempDirectory("tailstream-cluster-") : logDir;
        CountDownLatch stopped = new CountDownLatch(1);
        try (KafkaCluster cluster = KafkaCluster.start(nodes, dir, temporary, port)) {
            TopicProvisioner.ensure(cluster.bootstrapServers(), Topics.all(partitions));
            TopicProvisioner.Replication replication = TopicProvisioner.replication(cluster.bootstrapServers(),
                    java.util.Map.of());
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                cluster.close();
                stopped.countDown();
            }, "tailstream-cluster-shutdown"));
            System.out.println("cluster of " + nodes + " nodes ready: --bootstrap-servers "
                    + cluster.bootstrapServers() + " (topics: " + replication.factor()
                    + " replicas, min.insync.replicas=" + replication.minInSync() + "; directory " + dir
                    + "); Ctrl-C to stop");
            stopped.await();
        }
        return 0;
    }
}
