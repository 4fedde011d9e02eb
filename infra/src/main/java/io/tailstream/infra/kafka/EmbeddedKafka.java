package io.tailstream.infra.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Kafka broker (KRaft, combined broker and controller) running in this JVM: Kafka's own server
 * code, not a mock. Used by {@code tailstream demo}, by a local {@code run}, and by integration tests.
 *
 * <p>Ports are chosen free on 127.0.0.1; the log directory is a fresh temporary folder deleted on {@link #close()}
 * unless the caller supplied it. Replication factors are 1, so transactions (exactly-once Streams) work on one
 * node. Startup takes 2-3 s on a 2-core machine (measured with Kafka 4.4.0).
 *
 * <p>Thread safe for its accessors; {@link #close()} is idempotent.
 */
public final class EmbeddedKafka implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedKafka.class);
    private static final long READY_TIMEOUT_MS = 60_000;

    private final KafkaRaftServer server;
    private final Path logDir;
    private final boolean deleteOnClose;
    private final String bootstrapServers;
    private final int controllerPort;
    private final String saslBootstrapServers;
    private boolean closed;

    private EmbeddedKafka(KafkaRaftServer server, Path logDir, boolean deleteOnClose, String bootstrapServers,
                          int controllerPort, String saslBootstrapServers) {
        this.controllerPort = controllerPort;
        this.saslBootstrapServers = saslBootstrapServers;
        this.server = server;
        this.logDir = logDir;
        this.deleteOnClose = deleteOnClose;
        this.bootstrapServers = bootstrapServers;
    }

    /** Starts a broker with a temporary log directory that is deleted on close. */
    public static EmbeddedKafka start() {
        return start(temporaryLogDir(), true);
    }

    private static Path temporaryLogDir() {
        try {
            return Files.createTempDirectory("tailstream-kafka-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary Kafka log directory", e);
        }
    }

    /**
     * Starts a broker storing its log in {@code logDir} (formatted if empty).
     *
     * @param deleteOnClose delete {@code logDir} when the broker is closed
     */
    public static EmbeddedKafka start(Path logDir, boolean deleteOnClose) {
        return start(logDir, deleteOnClose, 0, 0);
    }

    /**
     * Starts a broker storing its log in {@code logDir} (formatted if empty), listening on 127.0.0.1 on the given
     * client port (0: a free one); the controller takes a free port.
     */
    public static EmbeddedKafka start(Path logDir, boolean deleteOnClose, int brokerPort) {
        return start(logDir, deleteOnClose, brokerPort, 0);
    }

    /**
     * Starts a broker on given ports (0: a free one), e.g. to restart a stopped broker on the same log directory
     * and address, as a producer that spooled while it was away expects.
     */
    public static EmbeddedKafka start(Path logDir, boolean deleteOnClose, int brokerPort, int controllerPort) {
        for (int port : new int[] {brokerPort, controllerPort}) {
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("port must be in 0..65535, was " + port);
            }
        }
        // both free ports are taken while both sockets are open: picked one after the other, the OS may hand out
        // the same port twice and the broker then fails to bind its second listener (seen under load)
        int[] free = freePorts(2, brokerPort, controllerPort);
        return startOn(logDir, deleteOnClose, brokerPort > 0 ? brokerPort : free[0],
                controllerPort > 0 ? controllerPort : free[1]);
    }

    /**
     * Starts a broker with a temporary log directory (deleted on close) that has, besides its PLAINTEXT listener, a
     * SASL_PLAINTEXT listener (mechanism PLAIN) admitting {@code user} with {@code password}: for trying clients'
     * security settings ({@code --kafka-config}) against Kafka's own authentication.
     */
    public static EmbeddedKafka startWithSaslPlain(String user, String password) {
        if (user == null || user.isBlank() || user.contains("\"") || password == null || password.contains("\"")) {
            throw new IllegalArgumentException("SASL user and password must be non-empty and free of quotes");
        }
        Path dir = temporaryLogDir();
        int[] free = freePorts(3);
        Properties p = KafkaNodeConfig.properties(1, free[0], free[1], "1@127.0.0.1:" + free[1], dir, 1);
        p.put("listeners", p.get("listeners") + ",SASL_PLAINTEXT://127.0.0.1:" + free[2]);
        p.put("advertised.listeners", p.get("advertised.listeners") + ",SASL_PLAINTEXT://127.0.0.1:" + free[2]);
        p.put("listener.security.protocol.map", p.get("listener.security.protocol.map")
                + ",SASL_PLAINTEXT:SASL_PLAINTEXT");
        p.put("sasl.enabled.mechanisms", "PLAIN");
        p.put("listener.name.sasl_plaintext.plain.sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required user_" + user + "=\"" + password
                        + "\";");
        return startOn(p, dir, true, free[0], free[1], "127.0.0.1:" + free[2]);
    }

    private static EmbeddedKafka startOn(Path logDir, boolean deleteOnClose, int brokerPort, int controllerPort) {
        Properties p = KafkaNodeConfig.properties(1, brokerPort, controllerPort, "1@127.0.0.1:" + controllerPort,
                logDir, 1);
        return startOn(p, logDir, deleteOnClose, brokerPort, controllerPort, null);
    }

    private static EmbeddedKafka startOn(Properties p, Path logDir, boolean deleteOnClose, int brokerPort,
                                         int controllerPort, String saslBootstrapServers) {
        KafkaConfig config = new KafkaConfig(p, false);
        KafkaNodeConfig.formatIfEmpty(config, KafkaNodeConfig.newClusterId(), 1, logDir);
        KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
        server.startup();
        String bootstrap = "127.0.0.1:" + brokerPort;
        EmbeddedKafka kafka = new EmbeddedKafka(server, logDir, deleteOnClose, bootstrap, controllerPort,
                saslBootstrapServers);
        try {
            kafka.awaitReady();
        } catch (RuntimeException e) {
            kafka.close();
            throw e;
        }
        log.info("in-process Kafka broker ready at {} (log dir {})", bootstrap, logDir);
        return kafka;
    }

    /** {@code host:port} of the broker's PLAINTEXT listener. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** {@code host:port} of the SASL_PLAINTEXT listener, if the broker was started with one. */
    public java.util.Optional<String> saslBootstrapServers() {
        return java.util.Optional.ofNullable(saslBootstrapServers);
    }

    public Path logDir() {
        return logDir;
    }

    /** Port of the PLAINTEXT listener. */
    public int brokerPort() {
        return Integer.parseInt(bootstrapServers.substring(bootstrapServers.lastIndexOf(':') + 1));
    }

    /** Port of the controller listener. */
    public int controllerPort() {
        return controllerPort;
    }

    private void awaitReady() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        long deadline = System.currentTimeMillis() + READY_TIMEOUT_MS;
        try (Admin admin = Admin.create(p)) {
            while (true) {
                try {
                    if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
                        return;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for the in-process broker", e);
                } catch (Exception e) {
                    if (System.currentTimeMillis() > deadline) {
                        throw new IllegalStateException("in-process Kafka broker at " + bootstrapServers
                                + " not ready after " + READY_TIMEOUT_MS + " ms", e);
                    }
                }
                sleep(100);
            }
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        server.shutdown();
        server.awaitShutdown();
        if (deleteOnClose) {
            deleteRecursively(logDir);
        }
    }

    static boolean isEmpty(Path dir) {
        try {
            Files.createDirectories(dir);
            try (var entries = Files.list(dir)) {
                return entries.findAny().isEmpty();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read Kafka log directory " + dir, e);
        }
    }

    /** {@code n} distinct free ports on 127.0.0.1, none equal to a port already chosen ({@code taken}). */
    static int[] freePorts(int n, int... taken) {
        java.util.List<ServerSocket> sockets = new java.util.ArrayList<>();
        try {
            int[] ports = new int[n];
            int found = 0;
            while (found < n) {
                ServerSocket s = new ServerSocket();
                sockets.add(s);
                s.setReuseAddress(true);
                s.bind(new InetSocketAddress("127.0.0.1", 0));
                int port = s.getLocalPort();
                if (java.util.Arrays.stream(taken).noneMatch(t -> t == port)) {
                    ports[found++] = port;
                }
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1", e);
        } finally {
            for (ServerSocket s : sockets) {
                try {
                    s.close();
                } catch (IOException e) {
                    log.debug("closing a port probe: {}", e.toString());
                }
            }
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the in-process broker", e);
        }
    }

    static void deleteRecursively(Path dir) {
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    Files.deleteIfExists(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            log.warn("could not delete Kafka log directory {}: {}", dir, e.toString());
        }
    }
}
