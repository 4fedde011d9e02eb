package io.tailstream.infra.kafka;

import io.tailstream.infra.process.ChildJvm;
import io.tailstream.infra.process.LowestPriority;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Kafka cluster of several KRaft nodes on 127.0.0.1, each a {@link KafkaNode} in a JVM of its own (Kafka's
 * own server code, from this process's class path): every node is broker and controller, the controller quorum is
 * all of them, so a three-node cluster keeps its quorum and its data when one node is lost. Kafka's own topics and
 * new topics get {@code min(nodes, 3)} replicas and, from three on, {@code min.insync.replicas=2}.
 *
 * <p>Each node keeps its log, its {@code server.properties} and its console output ({@code node.log}) in
 * {@code DIR/node-ID}. A directory that already holds a cluster is started again on the same ports and cluster id.
 * Startup takes 10-30 s on a loaded 2-core machine (three JVMs starting at once).
 *
 * <p>Nodes stop with {@link #close()}, and on their own when this process ends (they watch its pipe).
 * Thread safe; {@link #close()} is idempotent.
 */
public final class KafkaCluster implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KafkaCluster.class);
    private static final long READY_TIMEOUT_MS = 120_000;

    private final ClusterDirectory directory;
    private final boolean deleteOnClose;
    private final int[] brokerPorts;
    private final ChildJvm node;
    private final Process[] processes;
    // nodes killed on purpose: their exit is no startup failure
    private final java.util.Set<Integer> killed = new java.util.HashSet<>();
    private boolean closed;

    private KafkaCluster(ClusterDirectory directory, boolean deleteOnClose, ChildJvm node) {
        this.directory = directory;
        this.deleteOnClose = deleteOnClose;
        this.brokerPorts = directory.brokerPorts();
        this.node = node;
        this.processes = new Process[brokerPorts.length];
    }

    /** Starts {@code nodes} nodes in a temporary directory, on free ports; the directory is deleted on close. */
    public static KafkaCluster start(int nodes) {
        return start(nodes, List.of());
    }

    /**
     * {@link #start(int)}, each node started through {@code commandPrefix}: e.g. {@code taskset -c 0}, so that a
     * benchmark on the other CPUs measures its own work and not the broker's.
     */
    public static KafkaCluster start(int nodes, List<String> commandPrefix) {
        try {
            return start(nodes, Files.createTempDirectory("tailstream-cluster-"), true, 0, Map.of(), commandPrefix,
                    List.of(), false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary Kafka cluster directory", e);
        }
    }

    /**
     * Starts a cluster of {@code nodes} nodes (1 to 9) in {@code dir}, or the cluster {@code dir} already holds (then
     * {@code nodes} must match and {@code firstPort} is ignored: the ports are those it had).
     *
     * @param firstPort client port of node 1, the next ones follow ({@code firstPort + 1}, ...); 0: free ports
     */
    public static KafkaCluster start(int nodes, Path dir, boolean deleteOnClose, int firstPort) {
        return start(nodes, dir, deleteOnClose, firstPort, Map.of(), List.of(), List.of(), false);
    }

    /**
     * Starts one node in a temporary directory (deleted on close), on free ports, sized and scheduled to share the
     * machine with a database and the load that records it (a local {@code run}): at the lowest CPU priority
     * ({@link LowestPriority}), with the JVM options and server settings of {@link BesideLoad}. Starved, the node falls
     * behind and catches up once the load leaves it CPU: producers buffer and spool meanwhile.
     * {@link #raiseToNormalPriority()} puts it back at normal priority once the load has ended.
     */
    public static KafkaCluster startBesideLoad() {
        try {
            return start(1, Files.createTempDirectory("tailstream-kafka-"), true, 0, BesideLoad.SETTINGS,
                    LowestPriority.commandPrefix(), BesideLoad.JVM_OPTIONS, true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary Kafka directory", e);
        }
    }

    private static KafkaCluster start(int nodes, Path dir, boolean deleteOnClose, int firstPort,
                                      Map<String, String> settings, List<String> commandPrefix,
                                      List<String> jvmOptions, boolean lowestPriority) {
        if (nodes < 1 || nodes > 9) {
            throw new IllegalArgumentException("a cluster has 1 to 9 nodes, not " + nodes);
        }
        if (firstPort < 0 || firstPort + nodes - 1 > 65_535) {
            throw new IllegalArgumentException("port must be in 0.." + (65_536 - nodes) + ", was " + firstPort);
        }
        try {
            ClusterDirectory directory = ClusterDirectory.open(dir, nodes, firstPort, settings);
            // a heap fit for a test or a laptop
            ChildJvm node = ChildJvm.of(KafkaNode.class).prefix(commandPrefix)
                    .jvmOptions("-Xms64m", "-Xmx512m", "-XX:+UseSerialGC",
                            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn")
                    .jvmOptions(jvmOptions);
            KafkaCluster cluster = new KafkaCluster(directory, deleteOnClose, node);
            try {
                for (int i = 1; i <= nodes; i++) {
                    cluster.startNode(i);
                }
                cluster.awaitBrokers(nodes);
                if (lowestPriority) {
                    // after the start, which runs before any load and should be quick
                    for (int i = 1; i <= nodes; i++) {
                        LowestPriority.lowerSessionGroup(cluster.process(i).pid());
                    }
                }
            } catch (RuntimeException e) {
                cluster.close();
                throw e;
            }
            log.info("Kafka cluster of {} nodes ready at {} (directory {})", nodes, cluster.bootstrapServers(), dir);
            return cluster;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare a Kafka cluster in " + dir, e);
        }
    }

    private synchronized void startNode(int nodeId) {
        if (processes[nodeId - 1] != null && processes[nodeId - 1].isAlive()) {
            throw new IllegalStateException("node " + nodeId + " is running");
        }
        processes[nodeId - 1] = node.args(directory.serverProperties(nodeId).toString(), directory.clusterId())
                .start(directory.nodeLog(nodeId));
    }

    /**
     * Waits until {@code count} brokers are registered and unfenced. The admin client is created once every node
     * listens: before, it would log a warning for each refused connection.
     */
    private void awaitBrokers(int count) {
        long deadline = System.currentTimeMillis() + READY_TIMEOUT_MS;
        for (int port : brokerPorts) {
            while (!listening(port)) {
                checkNodesAlive();
                checkDeadline(deadline, count);
                sleep(200);
            }
        }
        try (Admin admin = admin()) {
            while (true) {
                checkNodesAlive();
                try {
                    if (admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size() >= count) {
                        return;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for the Kafka cluster", e);
                } catch (Exception e) {
                    log.debug("cluster not ready yet: {}", e.toString());
                }
                checkDeadline(deadline, count);
                sleep(200);
            }
        }
    }

    private void checkDeadline(long deadline, int count) {
        if (System.currentTimeMillis() > deadline) {
            throw new IllegalStateException("Kafka cluster at " + bootstrapServers() + " has not " + count
                    + " brokers after " + READY_TIMEOUT_MS + " ms (node logs in " + directory.dir() + ")");
        }
    }

    /** Throws if a node that was not killed on purpose has exited, with the end of its log. */
    private void checkNodesAlive() {
        for (int i = 0; i < processes.length; i++) {
            Process p = processes[i];
            if (p != null && !p.isAlive() && !killed(i + 1)) {
                throw new IllegalStateException("Kafka node " + (i + 1) + " exited with " + p.exitValue()
                        + " while starting; last lines of " + directory.nodeLog(i + 1) + ":\n"
                        + tail(directory.nodeLog(i + 1)));
            }
        }
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private synchronized boolean killed(int nodeId) {
        return killed.contains(nodeId);
    }

    /** The client listeners of all nodes, {@code 127.0.0.1:P1,127.0.0.1:P2,...}. */
    public String bootstrapServers() {
        return java.util.Arrays.stream(brokerPorts).mapToObj(p -> "127.0.0.1:" + p)
                .collect(Collectors.joining(","));
    }

    public int size() {
        return brokerPorts.length;
    }

    public String clusterId() {
        return directory.clusterId();
    }

    public Path dir() {
        return directory.dir();
    }

    /** The process of node {@code nodeId} (1-based), e.g. to check it is a JVM of its own. */
    public synchronized ProcessHandle process(int nodeId) {
        return processes[nodeId - 1].toHandle();
    }

    /**
     * Puts every node of a cluster started {@link #startBesideLoad() beside a load} back at normal priority, once the
     * load has ended and the run waits on the broker ({@link LowestPriority#raiseToNormal}); where raising a priority
     * needs a privilege this process lacks, the nodes stay at the lowest priority.
     *
     * @return whether every node is at normal priority now
     */
    public synchronized boolean raiseToNormalPriority() {
        boolean all = true;
        for (Process p : processes) {
            if (p != null && p.isAlive()) {
                all &= LowestPriority.raiseToNormal(p.pid());
            }
        }
        return all;
    }

    /** The node that leads {@code topic}'s partition {@code partition} now. */
    public int leaderOf(String topic, int partition) {
        try (Admin admin = admin()) {
            TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get(topic);
            Node leader = d.partitions().get(partition).leader();
            if (leader == null || leader.isEmpty()) {
                throw new IllegalStateException(topic + "-" + partition + " has no leader");
            }
            return leader.id();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking for the leader of " + topic, e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("cannot find the leader of " + topic + "-" + partition + " on "
                    + bootstrapServers() + ": " + e, e);
        }
    }

    /**
     * Kills node {@code nodeId}'s JVM at once (SIGKILL: no shutdown, no flush, as a machine that loses power) and
     * waits until the process is gone.
     */
    public void kill(int nodeId) {
        Process p;
        synchronized (this) {
            killed.add(nodeId);
            p = processes[nodeId - 1];
        }
        p.destroyForcibly();
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("Kafka node " + nodeId + " (pid " + p.pid() + ") still alive 30 s"
                        + " after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while killing Kafka node " + nodeId, e);
        }
    }

    private Admin admin() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        return Admin.create(p);
    }

    /**
     * Stops every node and waits for them: a clean Kafka shutdown (SIGTERM) when the directory is kept, at once
     * (SIGKILL) when it is deleted anyway.
     */
    @Override
    public void close() {
        List<Process> running = new ArrayList<>();
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            for (Process p : processes) {
                if (p != null) {
                    running.add(p);
                }
            }
        }
        for (Process p : running) {
            if (deleteOnClose) {
                p.destroyForcibly();
            } else {
                closeQuietly(p.getOutputStream()); // the node's cue to stop
                p.destroy();
            }
        }
        for (Process p : running) {
            try {
                if (!p.waitFor(60, TimeUnit.SECONDS)) {
                    log.warn("Kafka node pid {} did not stop within 60 s; killing it", p.pid());
                    p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        }
        if (deleteOnClose) {
            EmbeddedKafka.deleteRecursively(directory.dir());
        }
    }

    private static void closeQuietly(OutputStream out) {
        try {
            out.close();
        } catch (IOException e) {
            log.debug("closing a node's pipe: {}", e.toString());
        }
    }

    private static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the Kafka cluster", e);
        }
    }

    /** Client ports and directory, for messages. */
    @Override
    public String toString() {
        return "KafkaCluster[bootstrap=" + bootstrapServers() + ", dir=" + directory.dir() + "]";
    }
}
