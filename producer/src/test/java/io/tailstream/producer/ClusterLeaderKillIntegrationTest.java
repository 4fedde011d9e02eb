package io.tailstream.producer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.kafka.KafkaCluster;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.producer.emit.EmitterSettings;
import io.tailstream.producer.emit.KafkaSampleSink;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.BlockHeader;
import io.tailstream.schemas.block.SampleBlockDecoder;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RunEnded;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * A three-node cluster, each node a JVM of its own, loses the leader of the samples partition to SIGKILL in the
 * middle of a step: the step finishes and every block sequence is on the topic exactly once, with every sample the
 * producer sent (idempotent {@code acks=all} producer; three replicas, two in sync).
 */
class ClusterLeaderKillIntegrationTest {

    @Test
    void leaderKilledMidStep_stepFinishes_everySequenceOnceNoSampleLost() throws Exception {
        try (KafkaCluster cluster = KafkaCluster.start(3)) {
            String bootstrap = cluster.bootstrapServers();
            // one partition, so every block goes to the leader that is killed
            TopicProvisioner.ensure(bootstrap, Topics.all(1));
            RunPlan plan = RunPlan.of("leader-kill", "t", List.of(Target.h2InMemory("h2", "leaderkill")),
                    List.of(new WorkloadSpec("oltp_point_select", Map.of("table_size", "500"))), List.of(1), 1,
                    Duration.ZERO, Duration.ofSeconds(15), 0);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            PrintStream console = new PrintStream(out, true, StandardCharsets.UTF_8);
            RunResult result;
            int leader;
            long ackedAtKill;
            long recoveryMs;
            try (KafkaSampleSink sink = KafkaSampleSink.create(bootstrap, plan.runId(), "p1", Map.of(),
                    EmitterSettings.defaults())) {
                CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(
                        () -> new BenchmarkRunner(sink, console).run(plan));
                SpoolIntegrationTest.awaitTrue(() -> sink.blocksAcked() >= 5 || run.isDone(), 60);
                assertThat(run).as("the step ended before the kill").isNotDone();
                leader = cluster.leaderOf(Topics.SAMPLES, 0);
                ackedAtKill = sink.blocksAcked();
                long killedAt = System.nanoTime();
                cluster.kill(leader);
                // the recovery time is a figure to print, not a condition: this loop only measures it
                SpoolIntegrationTest.awaitTrue(() -> sink.blocksAcked() > ackedAtKill || run.isDone(), 60);
                recoveryMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
                result = run.get(120, TimeUnit.SECONDS);
            }
            assertThat(cluster.leaderOf(Topics.SAMPLES, 0)).isNotEqualTo(leader);

            List<Long> sequences = new ArrayList<>();
            long samplesOnTopic = 0;
            for (ConsumerRecord<byte[], byte[]> r : TopicReader.readAll(bootstrap, Topics.SAMPLES,
                    result.blocksSent())) {
                BlockHeader h = SampleBlockDecoder.readHeader(r.value());
                sequences.add(h.blockSeq());
                samplesOnTopic += h.sampleCount();
            }
            sequences.sort(null);
            RunEnded runEnded = null;
            for (ConsumerRecord<byte[], byte[]> r : TopicReader.readAll(bootstrap, Topics.CONTROL, 1)) {
                if (Json.read(r.value(), ControlEvent.class) instanceof RunEnded e) {
                    runEnded = e;
                }
            }
            assertThat(result.blocksSent()).isGreaterThan(ackedAtKill);
            assertThat(result.steps().get(0).samplesSent()).isEqualTo(result.steps().get(0).samplesRecorded());
            assertThat(sequences).containsExactlyElementsOf(
                    LongStream.range(0, result.blocksSent()).boxed().toList());
            assertThat(samplesOnTopic).isEqualTo(result.samplesSent());
            assertThat(runEnded).isNotNull();
            assertThat(runEnded.outcome()).isEqualTo("completed");
            assertThat(runEnded.samplesSent()).isEqualTo(result.samplesSent());
            System.out.printf("leader kill: node %d killed after %d blocks acknowledged; next block acknowledged"
                    + " %d ms after the kill; run: %,d blocks, %,d samples, each sequence once%n", leader,
                    ackedAtKill, recoveryMs, result.blocksSent(), result.samplesSent());
        }
    }
}
