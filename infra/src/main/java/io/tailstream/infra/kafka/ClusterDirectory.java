package io.tailstream.infra.kafka;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.StringJoiner;
import java.util.stream.IntStream;

/**
 * The directory of a {@link KafkaCluster}: its id in {@code cluster.id}, and per node {@code node-ID/} with the
 * node's {@code server.properties}, its log and its console output. A new directory gets configurations for free (or
 * given) ports; one that holds a cluster gives back its ports and id, so the cluster starts again as it was.
 * Immutable.
 */
final class ClusterDirectory {

    private static final String CLUSTER_ID_FILE = "cluster.id";

    private final Path dir;
    private final int[] brokerPorts;
    private final String clusterId;

    private ClusterDirectory(Path dir, int[] brokerPorts, String clusterId) {
        this.dir = dir;
        this.brokerPorts = brokerPorts.clone();
        this.clusterId = clusterId;
    }

    /**
     * The cluster {@code dir} holds, or a new one of {@code nodes} nodes written there.
     *
     * @param firstPort client port of node 1 in a new cluster, the next ones follow; 0: free ports
     * @param settings  server settings of every node of a new cluster, over the defaults
     * @throws IllegalArgumentException {@code dir} holds a cluster of another size
     */
    static ClusterDirectory open(Path dir, int nodes, int firstPort, Map<String, String> settings)
            throws IOException {
        Files.createDirectories(dir);
        Path idFile = dir.resolve(CLUSTER_ID_FILE);
        int[] brokerPorts = new int[nodes];
        if (!Files.exists(idFile)) {
            String clusterId = KafkaNodeConfig.newClusterId();
            writeConfigs(dir, nodes, firstPort, brokerPorts, settings);
            Files.writeString(idFile, clusterId + "\n", StandardCharsets.UTF_8);
            return new ClusterDirectory(dir, brokerPorts, clusterId);
        }
        String clusterId = Files.readString(idFile, StandardCharsets.UTF_8).trim();
        for (int i = 0; i < nodes; i++) {
            Path props = serverProperties(dir, i + 1);
            if (!Files.exists(props)) {
                throw new IllegalArgumentException(dir + " holds a cluster of other than " + nodes
                        + " nodes (no " + props.getFileName() + " for node " + (i + 1) + ")");
            }
            brokerPorts[i] = brokerPort(load(props));
        }
        if (Files.exists(serverProperties(dir, nodes + 1))) {
            throw new IllegalArgumentException(dir + " holds a cluster of more than " + nodes + " nodes");
        }
        return new ClusterDirectory(dir, brokerPorts, clusterId);
    }

    Path dir() {
        return dir;
    }

    /** The client port of each node, node 1 first. */
    int[] brokerPorts() {
        return brokerPorts.clone();
    }

    String clusterId() {
        return clusterId;
    }

    /** Node {@code nodeId}'s directory (1-based). */
    Path nodeDir(int nodeId) {
        return dir.resolve("node-" + nodeId);
    }

    /** Node {@code nodeId}'s {@code server.properties}. */
    Path serverProperties(int nodeId) {
        return serverProperties(dir, nodeId);
    }

    /** Where node {@code nodeId}'s console output goes. */
    Path nodeLog(int nodeId) {
        return nodeDir(nodeId).resolve("node.log");
    }

    private static Path serverProperties(Path dir, int nodeId) {
        return dir.resolve("node-" + nodeId).resolve("server.properties");
    }

    private static void writeConfigs(Path dir, int nodes, int firstPort, int[] brokerPorts,
                                     Map<String, String> settings) throws IOException {
        int[] free = EmbeddedKafka.freePorts(2 * nodes, firstPort == 0 ? new int[0]
                : IntStream.range(firstPort, firstPort + nodes).toArray());
        int[] controllerPorts = new int[nodes];
        StringJoiner voters = new StringJoiner(",");
        for (int i = 0; i < nodes; i++) {
            brokerPorts[i] = firstPort == 0 ? free[nodes + i] : firstPort + i;
            controllerPorts[i] = free[i];
            voters.add((i + 1) + "@127.0.0.1:" + controllerPorts[i]);
        }
        int replicas = Math.min(nodes, 3);
        for (int i = 0; i < nodes; i++) {
            Path nodeDir = dir.resolve("node-" + (i + 1));
            Properties p = KafkaNodeConfig.properties(i + 1, brokerPorts[i], controllerPorts[i], voters.toString(),
                    nodeDir.resolve("log"), replicas);
            p.put("min.insync.replicas", String.valueOf(KafkaNodeConfig.minInSyncReplicas(replicas)));
            p.putAll(settings);
            Files.createDirectories(nodeDir);
            try (Writer w = Files.newBufferedWriter(serverProperties(dir, i + 1), StandardCharsets.UTF_8)) {
                p.store(w, "tailstream cluster node " + (i + 1));
            }
        }
    }

    private static Properties load(Path file) throws IOException {
        Properties p = new Properties();
        try (var r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        return p;
    }

    private static int brokerPort(Properties p) {
        String l = p.getProperty("advertised.listeners");
        String plain = l.split(",")[0];
        return Integer.parseInt(plain.substring(plain.lastIndexOf(':') + 1));
    }
}
