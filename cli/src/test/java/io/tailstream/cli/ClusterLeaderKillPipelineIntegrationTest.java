package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.aggregator.AggregationProgress;
import io.tailstream.aggregator.Aggregator;
import io.tailstream.aggregator.AggregatorConfig;
import io.tailstream.cli.options.KafkaOptions;
import io.tailstream.infra.kafka.KafkaCluster;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.producer.BenchmarkRunner;
import io.tailstream.producer.KafkaEmission;
import io.tailstream.producer.RunPlan;
import io.tailstream.producer.RunResult;
import io.tailstream.producer.emit.SpoolSettings;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.StepSummary;
import io.tailstream.schemas.event.WindowStats;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole pipeline on a three-node cluster (each node a JVM of its own) through the loss of a broker: a run
 * (with its spool, as {@code run} has it), the aggregator and, afterwards, the archiver, with the replication
 * `aggregate` gives a cluster. The leader of the samples partition is killed with SIGKILL mid-step. The run
 * completes, the aggregator's windows count every sample exactly once, its step summary is complete with no
 * block missing and equals the archived raw samples, and the archive holds each block sequence once.
 */
class ClusterLeaderKillPipelineIntegrationTest {

    private static final String RUN = "cluster-kill";

    @TempDir
    Path dir;

    @Test
    void leaderKilledMidStep_aggregatorAndArchiveCountEverySampleOnce() throws Exception {
        try (KafkaCluster cluster = KafkaCluster.start(3)) {
            String bootstrap = cluster.bootstrapServers();
            TopicProvisioner.ensure(bootstrap, Topics.all(1));
            AggregatorConfig config = AggregatorConfig.defaults().withApplicationId("it-cluster-kill")
                    .withClientOverrides(KafkaOptions.withStreamsReplication(Map.of(),
                            TopicProvisioner.replication(bootstrap, Map.of())));
            RunPlan plan = RunPlan.of(RUN, "t", List.of(Target.h2InMemory("h2", "clusterkill")),
                    List.of(new WorkloadSpec("oltp_point_select", Map.of("table_size", "500"))), List.of(2), 1,
                    Duration.ofSeconds(2), Duration.ofSeconds(15), 0);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            PrintStream console = new PrintStream(out, true, StandardCharsets.UTF_8);
            try (Aggregator aggregator = Aggregator.start(bootstrap, config, dir.resolve("state"))) {
                assertThat(aggregator.awaitRunning(Duration.ofSeconds(120))).isTrue();
                AtomicReference<BenchmarkRunner> runner = new AtomicReference<>();
                CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(() -> BenchmarkRunner.run(plan,
                        KafkaEmission.to(bootstrap).spool(SpoolSettings.in(dir.resolve("spool"))).build(), console,
                        runner::set));
                int leader = cluster.leaderOf(Topics.SAMPLES, 0);
                // mid-step: once blocks of the run are on the samples topic
                awaitBlocks(bootstrap, run);
                cluster.kill(leader);
                System.out.printf("injected: SIGKILL of node %d, leader of %s-0, mid-step%n", leader,
                        Topics.SAMPLES);
                RunResult result = run.get(240, TimeUnit.SECONDS);
                assertThat(result.completed()).as(out.toString(StandardCharsets.UTF_8)).isTrue();
                assertThat(cluster.leaderOf(Topics.SAMPLES, 0)).isNotEqualTo(leader);
                long sent = result.samplesSent();
                try (AggregationProgress progress = AggregationProgress.open(bootstrap, Map.of())) {
                    progress.awaitCounts(RUN, Map.of(1, sent), Duration.ofSeconds(180));
                }
                StepSummary summary = completeSummary(bootstrap);
                assertThat(summary.missingBlocks()).isZero();
                assertThat(Cli.commandLine().execute("archive", "--bootstrap-servers", bootstrap, "--archive",
                        dir.resolve("archive").toString(), "--until-caught-up")).isZero();
                try (ArchiveDatabase db = ArchiveDatabase.open(dir.resolve("archive"));
                     Statement st = db.connection().createStatement();
                     ResultSet rs = st.executeQuery("SELECT count(*), count(*) FILTER (WHERE NOT warmup),"
                             + " count(DISTINCT block_seq), (SELECT count(*) FROM blocks),"
                             + " (SELECT count(DISTINCT block_seq) FROM blocks),"
                             + " (SELECT sum(count) FROM windows WHERE op = '*') FROM samples")) {
                    rs.next();
                    assertThat(rs.getLong(1)).as("samples archived").isEqualTo(sent);
                    assertThat(rs.getLong(2)).as("measured samples = the summary's count")
                            .isEqualTo(summary.count());
                    assertThat(rs.getLong(4)).as("blocks archived").isEqualTo(result.blocksSent());
                    assertThat(rs.getLong(5)).as("each block sequence once").isEqualTo(result.blocksSent());
                    assertThat(rs.getLong(6)).as("samples in the archived windows").isEqualTo(sent);
                }
                System.out.printf("lost: nothing; %,d samples in %,d blocks, each once in the windows, the summary"
                        + " and the archive%n", sent, result.blocksSent());
                assertThat(aggregator.failure()).isEmpty();
            }
        }
    }

    /** Waits until five blocks of the run are on the samples topic (the step is under way). */
    private static void awaitBlocks(String bootstrap, CompletableFuture<RunResult> run) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrap)) {
            consumer.subscribe(List.of(Topics.SAMPLES));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            int blocks = 0;
            while (blocks < 5) {
                assertThat(System.nanoTime()).as("blocks of the run within 120 s").isLessThan(deadline);
                assertThat(run).as("the step ended before the kill").isNotDone();
                blocks += consumer.poll(Duration.ofMillis(100)).count();
            }
        }
    }

    private static StepSummary completeSummary(String bootstrap) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrap)) {
            consumer.subscribe(List.of(Topics.SUMMARIES));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
            while (true) {
                assertThat(System.nanoTime()).as("a complete summary within 180 s").isLessThan(deadline);
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    StepSummary s = Json.read(r.value(), StepSummary.class);
                    if (RUN.equals(s.runId()) && WindowStats.ALL_OPS.equals(s.op()) && s.complete()) {
                        return s;
                    }
                }
            }
        }
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String bootstrap) {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "test-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class));
    }
}
