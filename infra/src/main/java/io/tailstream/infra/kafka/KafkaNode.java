package io.tailstream.infra.kafka;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.utils.Time;

/**
 * The main class of one node of a {@link KafkaCluster}, run in a JVM of its own: Kafka's own KRaft server (combined
 * broker and controller) on the server properties file it is given, its log directory formatted for the cluster id
 * on first start.
 *
 * <p>The node stops cleanly when its standard input ends, which is when the process that started it closes the
 * pipe or dies, so no node outlives its cluster; and on SIGTERM. Usage:
 * {@code java -cp CLASSPATH io.tailstream.infra.kafka.KafkaNode server.properties CLUSTER_ID}.
 */
public final class KafkaNode {

    private KafkaNode() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: KafkaNode SERVER_PROPERTIES CLUSTER_ID");
            System.exit(2);
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(Path.of(args[0]), StandardCharsets.UTF_8)) {
            p.load(r);
        }
        KafkaConfig config = new KafkaConfig(p, false);
        int nodeId = config.nodeId();
        Path logDir = Path.of(p.getProperty("log.dirs"));
        KafkaNodeConfig.formatIfEmpty(config, args[1], nodeId, logDir);
        KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
        Thread stop = new Thread(() -> {
            server.shutdown();
            server.awaitShutdown();
        }, "kafka-node-" + nodeId + "-shutdown");
        Runtime.getRuntime().addShutdownHook(stop);
        server.startup();
        System.out.println("node " + nodeId + " started");
        System.out.flush();
        Thread stdinWatch = new Thread(() -> {
            try (InputStream in = System.in) {
                while (in.read() >= 0) {
                    // nothing is sent on this pipe; it only tells the node its cluster is still there
                }
            } catch (IOException e) {
                // the pipe broke: the parent is gone
            }
            System.exit(0); // runs the shutdown hook
        }, "kafka-node-" + nodeId + "-parent-watch");
        stdinWatch.setDaemon(true);
        stdinWatch.start();
        server.awaitShutdown();
    }
}
