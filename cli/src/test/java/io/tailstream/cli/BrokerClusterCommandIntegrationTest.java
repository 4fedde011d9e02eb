package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.process.ChildJvm;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tailstream broker --cluster 3} as a user runs it, in a process of its own: three node processes under it,
 * the bootstrap line printed, the samples topic on three replicas; SIGTERM (what Ctrl-C sets off: the same shutdown
 * hook) stops the command and all three nodes.
 */
class BrokerClusterCommandIntegrationTest {

    private static final Pattern READY = Pattern.compile(
            "cluster of 3 nodes ready: --bootstrap-servers (\\S+) \\(topics: 3 replicas, min.insync.replicas=2;");

    @TempDir
    Path dir;

    @Test
    void brokerCluster3_printsBootstrap_threeNodeProcesses_stopsAllOnSigterm() throws Exception {
        Process command = ChildJvm.of(Main.class).heap("256m").args("broker", "--cluster", "3", "--port", "0",
                "--log-dir", dir.resolve("cluster").toString()).processBuilder().redirectErrorStream(true).start();
        List<ProcessHandle> nodes;
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(command.getInputStream(),
                    StandardCharsets.UTF_8));
            CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> {
                StringBuilder seen = new StringBuilder();
                try {
                    for (String line; (line = out.readLine()) != null; ) {
                        seen.append(line).append('\n');
                        Matcher m = READY.matcher(line);
                        if (m.find()) {
                            return m.group(1);
                        }
                    }
                } catch (java.io.IOException e) {
                    seen.append(e);
                }
                throw new AssertionError("broker --cluster 3 ended without its ready line:\n" + seen);
            });
            String bootstrap = ready.get(120, TimeUnit.SECONDS);
            assertThat(bootstrap.split(",")).hasSize(3);
            // the command starts no other process than its nodes
            nodes = command.children().toList();
            assertThat(nodes).hasSize(3);

            Properties p = new Properties();
            p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            try (Admin admin = Admin.create(p)) {
                assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(3);
                TopicDescription samples = admin.describeTopics(List.of("tailstream.samples")).allTopicNames()
                        .get(30, TimeUnit.SECONDS).get("tailstream.samples");
                assertThat(samples.partitions()).allSatisfy(pi -> assertThat(pi.replicas()).hasSize(3));
            }
            // drain the rest of the output so the command never blocks on a full pipe
            CompletableFuture.runAsync(() -> out.lines().forEach(l -> { }));
        } finally {
            command.destroy();
        }
        assertThat(command.waitFor(120, TimeUnit.SECONDS)).as("the command stopped").isTrue();
        for (ProcessHandle node : nodes) {
            assertThat(node.onExit().get(30, TimeUnit.SECONDS).isAlive()).as("node pid " + node.pid()).isFalse();
        }
    }
}
