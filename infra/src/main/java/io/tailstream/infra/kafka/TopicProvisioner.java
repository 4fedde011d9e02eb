package io.tailstream.infra.kafka;

import io.tailstream.schemas.TopicSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the contract's topics, the same way against the in-process broker and an external cluster: missing
 * topics are created with their partitions and configs; existing ones are left as they are (an operator may have
 * tuned them), but a topic with fewer partitions than asked for is reported.
 *
 * <p>Replication is chosen from the cluster's size ({@link Replication#forBrokers}): three replicas and
 * {@code min.insync.replicas=2} from three brokers on, so a topic survives the loss of one broker and an
 * acknowledged ({@code acks=all}) record is on two of them; one replica on a one-broker cluster. A spec that sets
 * {@code min.insync.replicas} itself keeps its value.
 */
public final class TopicProvisioner {

    private static final Logger log = LoggerFactory.getLogger(TopicProvisioner.class);
    private static final long TIMEOUT_S = 60;

    private TopicProvisioner() {}

    /**
     * Replication of tailstream's topics on a cluster.
     *
     * @param factor    replicas per partition
     * @param minInSync {@code min.insync.replicas}: replicas that must have a record before an {@code acks=all}
     *                  producer is told it is written
     */
    public record Replication(int factor, int minInSync) {

        /** {@code min(brokers, 3)} replicas; two in sync from three replicas on, else one. */
        public static Replication forBrokers(int brokers) {
            if (brokers < 1) {
                throw new IllegalArgumentException("a cluster has at least one broker, not " + brokers);
            }
            int factor = Math.min(brokers, 3);
            return new Replication(factor, factor >= 3 ? 2 : 1);
        }
    }

    /**
     * The replication tailstream's topics get on the cluster at {@code bootstrapServers}, from the brokers it has
     * now; {@code clientConfig} may carry security settings for the admin client.
     */
    public static Replication replication(String bootstrapServers, Map<String, Object> clientConfig) {
        try (Admin admin = Admin.create(adminProperties(bootstrapServers, clientConfig))) {
            return replication(admin);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking " + bootstrapServers + " for its brokers", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot ask " + bootstrapServers + " for its brokers: "
                    + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()), e);
        }
    }

    private static Replication replication(Admin admin)
            throws InterruptedException, ExecutionException, TimeoutException {
        return Replication.forBrokers(admin.describeCluster().nodes().get(TIMEOUT_S, TimeUnit.SECONDS).size());
    }

    private static Properties adminProperties(String bootstrapServers, Map<String, Object> clientConfig) {
        Properties p = new Properties();
        p.putAll(clientConfig);
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return p;
    }

    /** Ensures the topics exist; {@code clientConfig} may carry security settings (SASL/TLS) for the admin client. */
    public static void ensure(String bootstrapServers, List<TopicSpec> specs, Map<String, Object> clientConfig) {
        try (Admin admin = Admin.create(adminProperties(bootstrapServers, clientConfig))) {
            Replication replication = replication(admin);
            Set<String> existing = admin.listTopics().names().get(TIMEOUT_S, TimeUnit.SECONDS);
            List<NewTopic> toCreate = new ArrayList<>();
            for (TopicSpec spec : specs) {
                if (!existing.contains(spec.name())) {
                    Map<String, String> configs = new HashMap<>(spec.configs());
                    configs.putIfAbsent(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG,
                            String.valueOf(replication.minInSync()));
                    toCreate.add(new NewTopic(spec.name(), java.util.Optional.of(spec.partitions()),
                            java.util.Optional.of((short) replication.factor())).configs(configs));
                }
            }
            for (var entry : admin.createTopics(toCreate).values().entrySet()) {
                try {
                    entry.getValue().get(TIMEOUT_S, TimeUnit.SECONDS);
                    log.info("created topic {} ({})", entry.getKey(), replication);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("cannot create topic " + entry.getKey() + " on "
                                + bootstrapServers + ": " + e.getCause().getMessage(), e.getCause());
                    }
                }
            }
            Map<String, TopicDescription> described = awaitLeaders(admin, specs, bootstrapServers);
            for (TopicSpec spec : specs) {
                int actual = described.get(spec.name()).partitions().size();
                if (actual < spec.partitions()) {
                    log.warn("topic {} has {} partitions, fewer than the {} asked for; left unchanged",
                            spec.name(), actual, spec.partitions());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while provisioning topics on " + bootstrapServers, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot provision topics on " + bootstrapServers + ": "
                    + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()), e);
        }
    }

    /**
     * Waits until every partition of the topics has a leader. A freshly created topic may be unknown to the
     * answering broker for a moment (metadata propagation: {@code UnknownTopicOrPartitionException}, retried), and
     * is listed before its partitions are hosted; a client that writes or reads offsets in that gap gets "does not
     * host this topic-partition" (seen on a loaded 2-core machine). A partition's leader may be named before it has
     * created the partition's log: its log directories are asked too.
     */
    private static Map<String, TopicDescription> awaitLeaders(Admin admin, List<TopicSpec> specs,
                                                              String bootstrapServers)
            throws InterruptedException, ExecutionException, TimeoutException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
        List<String> names = specs.stream().map(TopicSpec::name).toList();
        while (true) {
            List<String> leaderless;
            Map<String, TopicDescription> described = null;
            try {
                described = admin.describeTopics(names).allTopicNames().get(TIMEOUT_S, TimeUnit.SECONDS);
                leaderless = described.values().stream()
                        .flatMap(d -> d.partitions().stream()
                                .filter(p -> p.leader() == null || p.leader().isEmpty())
                                .map(p -> d.name() + "-" + p.partition()))
                        .toList();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
                log.debug("topics not yet known to the broker, retrying: {}", e.getCause().getMessage());
                leaderless = names;
            }
            if (leaderless.isEmpty() && hosted(admin, described)) {
                return described;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("topics or partitions not ready on " + bootstrapServers + " after "
                        + TIMEOUT_S + " s: " + leaderless);
            }
            Thread.sleep(50);
        }
    }

    /**
     * Whether each partition's leader holds the partition in one of its log directories; true as well if the
     * cluster does not let this client describe log directories (the leaders alone must do then).
     */
    private static boolean hosted(Admin admin, Map<String, TopicDescription> described)
            throws InterruptedException, TimeoutException {
        Map<Integer, Set<TopicPartition>> byLeader = new HashMap<>();
        for (TopicDescription d : described.values()) {
            for (TopicPartitionInfo p : d.partitions()) {
                byLeader.computeIfAbsent(p.leader().id(), id -> new HashSet<>())
                        .add(new TopicPartition(d.name(), p.partition()));
            }
        }
        Map<Integer, Map<String, LogDirDescription>> dirs;
        try {
            dirs = admin.describeLogDirs(byLeader.keySet()).allDescriptions().get(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            log.debug("cannot describe the leaders' log directories, relying on the leaders alone: {}",
                    e.getCause().toString());
            return true;
        }
        for (var leader : byLeader.entrySet()) {
            Set<TopicPartition> held = new HashSet<>();
            dirs.getOrDefault(leader.getKey(), Map.of()).values()
                    .forEach(dir -> held.addAll(dir.replicaInfos().keySet()));
            if (!held.containsAll(leader.getValue())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Ensures the topics exist if the cluster answers within {@code wait}; if it does not, returns false at once and
     * keeps trying in a daemon thread until they are ensured, so a producer that starts while the cluster is away
     * (and spools meanwhile) finds its topics when the cluster comes up.
     *
     * @return true if the topics were ensured now
     */
    public static boolean ensureOrDefer(String bootstrapServers, List<TopicSpec> specs,
                                        Map<String, Object> clientConfig, java.time.Duration wait) {
        if (reachable(bootstrapServers, clientConfig, wait)) {
            ensure(bootstrapServers, specs, clientConfig);
            return true;
        }
        Thread t = new Thread(() -> {
            while (true) {
                try {
                    if (reachable(bootstrapServers, clientConfig, wait)) {
                        ensure(bootstrapServers, specs, clientConfig);
                        log.info("topics ensured on {}, which answers again", bootstrapServers);
                        return;
                    }
                } catch (IllegalStateException e) {
                    if (Thread.currentThread().isInterrupted()) {
                        return;
                    }
                    log.debug("topics not yet ensured on {}: {}", bootstrapServers, e.getMessage());
                }
            }
        }, "tailstream-topic-provisioner");
        t.setDaemon(true);
        t.start();
        return false;
    }

    /**
     * Whether the cluster names its brokers within {@code wait}.
     *
     * @throws IllegalStateException if it answers but refuses the client (authentication, authorization)
     */
    private static boolean reachable(String bootstrapServers, Map<String, Object> clientConfig,
                                     java.time.Duration wait) {
        Admin admin = Admin.create(adminProperties(bootstrapServers, clientConfig));
        try {
            return !admin.describeCluster().nodes().get(wait.toMillis(), TimeUnit.MILLISECONDS).isEmpty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking " + bootstrapServers + " for its brokers", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AuthenticationException || e.getCause() instanceof AuthorizationException) {
                // it answers, and says no: spooling until it answers would wait forever
                throw new IllegalStateException("Kafka at " + bootstrapServers + " refused this client: "
                        + e.getCause().getMessage(), e.getCause());
            }
            return false;
        } catch (TimeoutException e) {
            return false;
        } finally {
            // at once: a plain close() waits for the unanswered request until Kafka's API timeout (60 s)
            admin.close(java.time.Duration.ZERO);
        }
    }

    /** Ensures the topics exist, with a plain (unauthenticated) admin client. */
    public static void ensure(String bootstrapServers, List<TopicSpec> specs) {
        ensure(bootstrapServers, specs, Map.of());
    }
}
