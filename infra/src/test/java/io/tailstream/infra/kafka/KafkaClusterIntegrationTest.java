package io.tailstream.infra.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tailstream.infra.process.LowestPriority;
import io.tailstream.schemas.TopicSpec;
import io.tailstream.schemas.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

/**
 * Three Kafka nodes in three JVMs of their own: one cluster, and tailstream's topics replicated three times with two
 * replicas in sync required.
 */
class KafkaClusterIntegrationTest {

    @Test
    void threeNodes_separateProcesses_topicsReplicatedThreeTimesTwoInSync() throws Exception {
        long started = System.nanoTime();
        try (KafkaCluster cluster = KafkaCluster.start(3)) {
            System.out.printf("three-node cluster ready in %d ms%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            Set<Long> pids = java.util.stream.IntStream.rangeClosed(1, 3).mapToObj(cluster::process)
                    .map(ProcessHandle::pid).collect(Collectors.toSet());
            assertThat(pids).hasSize(3).doesNotContain(ProcessHandle.current().pid());
            assertThat(cluster.bootstrapServers().split(",")).hasSize(3);
            assertThat(TopicProvisioner.replication(cluster.bootstrapServers(), Map.of()))
                    .isEqualTo(new TopicProvisioner.Replication(3, 2));

            List<TopicSpec> specs = Topics.all(2);
            TopicProvisioner.ensure(cluster.bootstrapServers(), specs);
            Properties p = new Properties();
            p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
            try (Admin admin = Admin.create(p)) {
                assertThat(admin.describeCluster().clusterId().get(30, TimeUnit.SECONDS))
                        .isEqualTo(cluster.clusterId());
                List<String> names = specs.stream().map(TopicSpec::name).toList();
                Map<String, TopicDescription> described = admin.describeTopics(names).allTopicNames()
                        .get(30, TimeUnit.SECONDS);
                for (TopicDescription d : described.values()) {
                    assertThat(d.partitions()).allSatisfy(pi -> assertThat(pi.replicas()).as(d.name()).hasSize(3));
                }
                List<ConfigResource> resources = names.stream()
                        .map(n -> new ConfigResource(ConfigResource.Type.TOPIC, n)).toList();
                Map<ConfigResource, Config> configs = admin.describeConfigs(resources).all().get(30, TimeUnit.SECONDS);
                assertThat(configs.values()).allSatisfy(c ->
                        assertThat(c.get("min.insync.replicas").value()).isEqualTo("2"));
            }
        }
    }

    /**
     * The node that shares a machine with the load: its own JVM, leading a session of its own whose scheduling group
     * has nice 19, every thread under SCHED_IDLE, the quick JIT compiler only, one thread per pool and a session
     * timeout a starved node cannot exceed; back at normal priority when asked (once the load has ended), where
     * this process may raise a priority. The priority needs Linux with {@code setsid} and {@code chrt}, which this
     * test expects where it runs.
     */
    @Test
    void besideLoad_oneNodeInAProcessAndGroupOfItsOwn_allThreadsIdle_c1Only_quietSettings_normalAfter()
            throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux only");
        assertThat(LowestPriority.commandPrefix()).containsExactly("setsid", "chrt", "--idle", "0");
        try (KafkaCluster cluster = KafkaCluster.startBesideLoad()) {
            long pid = cluster.process(1).pid();
            assertThat(pid).isNotEqualTo(ProcessHandle.current().pid());
            assertThat(cluster.process(1).info().command().orElseThrow()).endsWith("/java");
            // from the kernel: ProcessHandle.Info gave no arguments for this child on Linux; among the node's own
            // options, after those every child of a test gets (ChildJvm.EXTRA_OPTIONS_PROPERTY)
            List<String> args = List.of(Files.readString(Path.of("/proc", String.valueOf(pid), "cmdline"))
                    .split("\0"));
            assertThat(args.subList(args.indexOf("-Xmx512m"), args.size())).contains("-XX:TieredStopAtLevel=1");
            assertThat(LowestPriority.sessionOf(pid)).hasValue(pid);
            if (Files.exists(Path.of("/proc/self/autogroup"))) {
                assertThat(LowestPriority.groupNice(pid)).hasValue(LowestPriority.LOWEST_NICE);
                assertThat(LowestPriority.groupNice(ProcessHandle.current().pid()))
                        .as("this process's group is left alone").isNotEqualTo(
                                java.util.OptionalInt.of(LowestPriority.LOWEST_NICE));
            }
            Map<Long, Integer> policies = new java.util.HashMap<>();
            for (long tid : LowestPriority.threadsOf(pid)) {
                // a thread may end between the listing and the read
                LowestPriority.policyOf(pid, tid).ifPresent(policy -> policies.put(tid, policy));
            }
            assertThat(policies).as("policies read").hasSizeGreaterThan(10);
            assertThat(policies).allSatisfy((tid, policy) ->
                    assertThat(policy).as("policy of thread " + tid).isEqualTo(LowestPriority.SCHED_IDLE));

            TopicProvisioner.ensure(cluster.bootstrapServers(), Topics.all(2));
            Properties p = new Properties();
            p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
            try (Admin admin = Admin.create(p)) {
                ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "1");
                Config config = admin.describeConfigs(List.of(broker)).all().get(30, TimeUnit.SECONDS).get(broker);
                assertThat(config.get("num.network.threads").value()).isEqualTo("1");
                assertThat(config.get("num.io.threads").value()).isEqualTo("1");
                assertThat(config.get("background.threads").value()).isEqualTo("1");
                assertThat(config.get("broker.session.timeout.ms").value()).isEqualTo("600000");
                assertThat(config.get("metadata.max.idle.interval.ms").value()).isEqualTo("5000");
            }

            // the load has ended: back to normal priority where this process may raise one
            boolean mayRaise = mayRaisePriority();
            assertThat(cluster.raiseToNormalPriority()).isEqualTo(mayRaise);
            int expected = mayRaise ? SCHED_OTHER : LowestPriority.SCHED_IDLE;
            Map<Long, Integer> after = new java.util.HashMap<>();
            for (long tid : LowestPriority.threadsOf(pid)) {
                LowestPriority.policyOf(pid, tid).ifPresent(policy -> after.put(tid, policy));
            }
            assertThat(after).as("policies read").hasSizeGreaterThan(10);
            assertThat(after).allSatisfy((tid, policy) ->
                    assertThat(policy).as("policy of thread " + tid).isEqualTo(expected));
            if (Files.exists(Path.of("/proc/self/autogroup"))) {
                assertThat(LowestPriority.groupNice(pid)).hasValue(mayRaise ? 0 : LowestPriority.LOWEST_NICE);
            }
        }
    }

    /** Linux's number for {@code SCHED_OTHER}, the normal policy. */
    private static final int SCHED_OTHER = 0;

    /** Whether this process may raise a priority to nice 0: root, or a soft {@code RLIMIT_NICE} of 20 or more. */
    private static boolean mayRaisePriority() throws java.io.IOException {
        List<String> status = Files.readAllLines(Path.of("/proc/self/status"));
        boolean root = status.stream().anyMatch(l -> l.matches("Uid:\\s+0\\s.*"));
        int niceLimit = Files.readAllLines(Path.of("/proc/self/limits")).stream()
                .filter(l -> l.startsWith("Max nice priority")).map(l -> l.trim().split("\\s+")[3])
                .mapToInt(v -> v.equals("unlimited") ? Integer.MAX_VALUE : Integer.parseInt(v)).findFirst().orElse(0);
        return root || niceLimit >= 20;
    }

    @Test
    void replication_fromClusterSize() {
        assertThat(TopicProvisioner.Replication.forBrokers(1)).isEqualTo(new TopicProvisioner.Replication(1, 1));
        assertThat(TopicProvisioner.Replication.forBrokers(2)).isEqualTo(new TopicProvisioner.Replication(2, 1));
        assertThat(TopicProvisioner.Replication.forBrokers(3)).isEqualTo(new TopicProvisioner.Replication(3, 2));
        assertThat(TopicProvisioner.Replication.forBrokers(7)).isEqualTo(new TopicProvisioner.Replication(3, 2));
        assertThatThrownBy(() -> TopicProvisioner.Replication.forBrokers(0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
