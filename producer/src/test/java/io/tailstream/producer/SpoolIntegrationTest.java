package io.tailstream.producer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.testing.RestartableBroker;
import io.tailstream.producer.emit.EmitterSettings;
import io.tailstream.producer.emit.KafkaSampleSink;
import io.tailstream.producer.emit.SpoolSettings;
import io.tailstream.producer.emit.SpoolingTransport;
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
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker goes away in the middle of a step and comes back on the same log directory and port: the producer
 * spools what Kafka cannot take, replays it, and every block sequence arrives exactly once.
 */
class SpoolIntegrationTest {

    @TempDir
    Path dir;

    @Test
    void brokerStoppedMidStep_blocksSpooledThenReplayed_everySequenceExactlyOnce() throws Exception {
        RestartableBroker broker = RestartableBroker.start(dir.resolve("kafka"), 2);
        String bootstrap = broker.bootstrapServers();

        RunPlan plan = RunPlan.of("spool-run", "t", List.of(Target.h2InMemory("h2", "spool")),
                List.of(new WorkloadSpec("oltp_point_select", Map.of("table_size", "500"))), List.of(2), 1,
                Duration.ZERO, Duration.ofSeconds(12), 0);
        // a small in-flight budget so the outage overflows into the spool within a second
        SpoolSettings spool = new SpoolSettings(dir.resolve("spool"), 256L << 20, 64 * 1024, Duration.ofSeconds(90));
        // blocks linger 10 ms, not the default 100: with 64 KB in flight, 100 ms of lingering blocks would fill the
        // budget with the broker up and spool before the outage this test is about
        Map<String, Object> kafkaConfig = Map.of(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200,
                ProducerConfig.RETRY_BACKOFF_MAX_MS_CONFIG, 200, ProducerConfig.LINGER_MS_CONFIG, 10);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream console = new PrintStream(out, true, StandardCharsets.UTF_8);
        RunResult result;
        SpoolingTransport.SpoolStats stats;
        try (broker; KafkaSampleSink sink = KafkaSampleSink.create(bootstrap, plan.runId(), "p1", kafkaConfig,
                EmitterSettings.defaults(), spool)) {
            CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(
                    () -> new BenchmarkRunner(sink, console).run(plan));
            awaitTrue(() -> sink.blocksSent() > 10, 30, () -> state("broker up", sink, null));
            broker.stop(); // the broker goes away mid-step
            // within seconds, not after Kafka's max.block.ms: the emitter once stood 30 s in KafkaProducer.send
            // waiting for metadata, and this wait (then 30 s too) timed out when it lost that race by a second
            awaitTrue(() -> sink.spoolStats().blocksSpooled() > 20, 15,
                    () -> state("broker stopped, not restarted", sink, null));
            broker.startAgain();
            try {
                result = run.get(120, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                throw new AssertionError("the run did not complete after the broker restarted: " + e + "\n"
                        + state("broker restarted", sink, bootstrap), e);
            }
            stats = sink.spoolStats();
            read(bootstrap, result.blocksSent());
        }
        assertThat(stats.blocksSpooled()).isGreaterThan(20);
        assertThat(stats.episodes()).isPositive();
        assertThat(stats.spoolingMillis()).isPositive();
        assertThat(dir.resolve("spool").resolve("spool-p1.bin")).doesNotExist(); // drained and deleted
        assertThat(result.steps().get(0).samplesSent()).isEqualTo(result.steps().get(0).samplesRecorded());
        assertThat(sequences).containsExactlyElementsOf(
                java.util.stream.LongStream.range(0, result.blocksSent()).boxed().toList());
        assertThat(samplesOnTopic).isEqualTo(result.samplesSent());
        assertThat(runEnded.blocksSent()).isEqualTo(result.blocksSent());
        assertThat(runEnded.samplesSent()).isEqualTo(result.samplesSent());
        assertThat(runEnded.outcome()).isEqualTo("completed");
        System.out.printf("spool figures: %s; run: %d blocks, %d samples, each sequence once%n", stats,
                result.blocksSent(), result.samplesSent());
    }

    List<Long> sequences;
    long samplesOnTopic;
    RunEnded runEnded;

    /** Every block on the samples topic (duplicates included) and the run's RunEnded event. */
    void read(String bootstrap, long expectedBlocks) {
        List<ConsumerRecord<byte[], byte[]>> blocks = TopicReader.readAll(bootstrap, Topics.SAMPLES, expectedBlocks);
        sequences = new java.util.ArrayList<>();
        samplesOnTopic = 0;
        for (ConsumerRecord<byte[], byte[]> r : blocks) {
            BlockHeader h = SampleBlockDecoder.readHeader(r.value());
            sequences.add(h.blockSeq());
            samplesOnTopic += h.sampleCount();
        }
        sequences.sort(null);
        for (ConsumerRecord<byte[], byte[]> r : TopicReader.readAll(bootstrap, Topics.CONTROL, 1)) {
            if (Json.read(r.value(), ControlEvent.class) instanceof RunEnded e) {
                runEnded = e;
            }
        }
    }

    static void awaitTrue(java.util.function.BooleanSupplier condition, int seconds) throws InterruptedException {
        awaitTrue(condition, seconds, () -> "");
    }

    /** Waits for {@code condition}; on timeout the error carries {@code state}, taken at that moment. */
    static void awaitTrue(java.util.function.BooleanSupplier condition, int seconds, Supplier<String> state)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + seconds + " s\n" + state.get());
            }
            Thread.sleep(20);
        }
    }

    /**
     * What a failure needs to be explained: the test's phase, the sink's counts and spool (Kafka's last error
     * included), whether the restarted broker answers, and where the producer's threads are (a thread parked in
     * {@code KafkaProducer.waitOnMetadata} is what made this test flaky once).
     */
    static String state(String phase, KafkaSampleSink sink, String restarted) {
        StringBuilder b = new StringBuilder("phase: ").append(phase)
                .append("\nsink: ").append(sink.blocksSent()).append(" blocks sent, ").append(sink.backlogBlocks())
                .append(" not yet acknowledged; spool: ").append(sink.spoolState())
                .append("\nbroker: ").append(restarted == null ? "not running" : brokerState(restarted));
        Thread.getAllStackTraces().forEach((t, frames) -> {
            if (t.getName().startsWith("tailstream-") || t.getName().startsWith("kafka-producer-network-thread")) {
                b.append("\nthread ").append(t.getName()).append(" ").append(t.getState());
                for (int i = 0; i < Math.min(frames.length, 8); i++) {
                    b.append("\n    at ").append(frames[i]);
                }
            }
        });
        return b.toString();
    }

    private static String brokerState(String bootstrap) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "2000");
        try (Admin admin = Admin.create(p)) {
            return bootstrap + " answers: nodes " + admin.describeCluster().nodes().get(3, TimeUnit.SECONDS)
                    + ", partitions of " + Topics.SAMPLES + ": " + admin.describeTopics(List.of(Topics.SAMPLES))
                    .allTopicNames().get(3, TimeUnit.SECONDS).get(Topics.SAMPLES).partitions();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return bootstrap + " does not answer: " + e;
        }
    }
}
