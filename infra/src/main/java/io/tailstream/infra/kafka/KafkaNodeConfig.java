package io.tailstream.infra.kafka;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Properties;
import kafka.server.KafkaConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * The server properties of one combined broker and controller node (KRaft) on 127.0.0.1, shared by the in-process
 * broker and the nodes of a {@link KafkaCluster}, and the formatting of its log directory.
 */
final class KafkaNodeConfig {

    private KafkaNodeConfig() {}

    /**
     * @param voters   {@code controller.quorum.voters}: {@code id@127.0.0.1:port} of every controller, comma separated
     * @param replicas replication factor of Kafka's own topics (consumer offsets, transaction state) and the default
     *                 of new topics; their minimum in-sync replicas is 2 from three replicas on, else 1
     */
    static Properties properties(int nodeId, int brokerPort, int controllerPort, String voters, Path logDir,
                                 int replicas) {
        String minIsr = String.valueOf(minInSyncReplicas(replicas));
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", String.valueOf(nodeId));
        p.put("controller.quorum.voters", voters);
        p.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("log.dirs", logDir.toAbsolutePath().toString());
        p.put("default.replication.factor", String.valueOf(replicas));
        p.put("offsets.topic.replication.factor", String.valueOf(replicas));
        p.put("offsets.topic.num.partitions", "4");
        p.put("transaction.state.log.replication.factor", String.valueOf(replicas));
        p.put("transaction.state.log.min.isr", minIsr);
        p.put("transaction.state.log.num.partitions", "4");
        p.put("share.coordinator.state.topic.replication.factor", String.valueOf(replicas));
        p.put("share.coordinator.state.topic.min.isr", minIsr);
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("num.partitions", "1");
        p.put("auto.create.topics.enable", "false");
        // blocks can be large; allow up to the samples topic's max.message.bytes
        p.put("message.max.bytes", String.valueOf(8 * 1024 * 1024));
        p.put("log.flush.interval.messages", String.valueOf(Long.MAX_VALUE));
        if (replicas > 1) {
            // a node that is gone is fenced, its partitions led elsewhere and its replicas dropped from the ISR
            // after this long without a heartbeat (Kafka's default: 9 s, heartbeats every 2 s)
            p.put("broker.session.timeout.ms", "6000");
            p.put("broker.heartbeat.interval.ms", "1000");
        }
        return p;
    }

    /** Minimum in-sync replicas for a replication factor: 2 from three replicas on (one may be lost), else 1. */
    static int minInSyncReplicas(int replicas) {
        return replicas >= 3 ? 2 : 1;
    }

    /** Formats {@code logDir} for {@code clusterId} unless it holds a log already. */
    static void formatIfEmpty(KafkaConfig config, String clusterId, int nodeId, Path logDir) {
        if (!EmbeddedKafka.isEmpty(logDir)) {
            return;
        }
        try {
            new Formatter()
                    .setClusterId(clusterId)
                    .setNodeId(nodeId)
                    .addDirectory(logDir.toAbsolutePath().toString())
                    .setReleaseVersion(MetadataVersion.latestProduction())
                    .setControllerListenerName("CONTROLLER")
                    .setMetadataLogDirectory(config.metadataLogDir())
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                    .run();
        } catch (Exception e) {
            throw new IllegalStateException("cannot format the Kafka log directory " + logDir, e);
        }
    }

    /** A new random cluster id. */
    static String newClusterId() {
        return Uuid.randomUuid().toString();
    }
}
