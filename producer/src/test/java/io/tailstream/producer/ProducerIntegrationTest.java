package io.tailstream.producer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.testing.SharedBroker;
import io.tailstream.producer.driver.StepResult;
import io.tailstream.producer.emit.EmitterSettings;
import io.tailstream.producer.emit.KafkaSampleSink;
import io.tailstream.producer.emit.SpoolSettings;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.BlockHeader;
import io.tailstream.schemas.block.SampleBlockDecoder;
import io.tailstream.schemas.event.ClientHealth;
import io.tailstream.schemas.event.ServerCounters;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RunEnded;
import io.tailstream.schemas.event.RunStarted;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A short run on embedded H2 through the real in-process broker, read back from the topics. */
class ProducerIntegrationTest {

    static final int PARTITIONS = 3;

    @RegisterExtension
    static final SharedBroker broker = SharedBroker.withTopics(PARTITIONS);

    @Test
    void samplesOnTheTopic_equalSamplesSent_everySequenceOnce_markersOnEveryPartition() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream console = new PrintStream(out, true, StandardCharsets.UTF_8);
        RunPlan plan = RunPlan.of("it-run-1", "integration", List.of(Target.h2InMemory("h2-mem", "producer-it")),
                List.of(new WorkloadSpec("oltp_point_select", Map.of("table_size", "1000"))), List.of(2), 1,
                Duration.ofMillis(500), Duration.ofMillis(1500), 1);
        RunResult result = BenchmarkRunner.run(plan, KafkaEmission.to(broker.bootstrapServers()).build(), console,
                runner -> { });
        StepResult step = result.steps().get(0);
        assertThat(step.samplesRecorded()).isPositive();
        assertThat(step.samplesSent()).isEqualTo(step.samplesRecorded());
        assertThat(result.samplesSent()).isEqualTo(step.samplesSent());

        List<ConsumerRecord<byte[], byte[]>> records = readAll(Topics.SAMPLES, result.blocksSent());
        Map<Long, Integer> seqCount = new TreeMap<>();
        Set<Integer> markerPartitions = new HashSet<>();
        long[] decoded = {0};
        long[] warmups = {0};
        for (ConsumerRecord<byte[], byte[]> r : records) {
            assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo("it-run-1/" + result.producerId());
            BlockHeader h = SampleBlockDecoder.decode(r.value(), (start, latency, intended, op, status, queries, warmup) -> {
                decoded[0]++;
                if (warmup) {
                    warmups[0]++;
                }
            });
            seqCount.merge(h.blockSeq(), 1, Integer::sum);
            if (h.endOfStep()) {
                markerPartitions.add(r.partition());
            }
            assertThat(h.stepId()).isEqualTo(step.stepId());
        }
        assertThat(records).hasSize((int) result.blocksSent());
        assertThat(seqCount.keySet()).containsExactlyElementsOf(
                java.util.stream.LongStream.range(0, result.blocksSent()).boxed().toList());
        assertThat(seqCount.values()).allMatch(c -> c == 1);
        assertThat(decoded[0]).isEqualTo(result.samplesSent()).isEqualTo(step.samplesRecorded());
        assertThat(decoded[0] - warmups[0]).isEqualTo(step.transactions() + step.errors());
        assertThat(warmups[0]).isPositive();
        assertThat(markerPartitions).containsExactlyInAnyOrder(0, 1, 2);

        List<ControlEvent> events = new ArrayList<>();
        List<ClientHealth> health = new ArrayList<>();
        List<ServerCounters> counters = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : readAll(Topics.CONTROL, 4)) {
            ControlEvent e = Json.read(r.value(), ControlEvent.class);
            if (e instanceof ClientHealth h) {
                health.add(h);
            } else if (e instanceof ServerCounters c) {
                counters.add(c);
            } else {
                events.add(e);
            }
        }
        // once a second during the 2 s step, plus the step-end sample
        assertThat(health).hasSizeGreaterThanOrEqualTo(2).allSatisfy(h -> {
            assertThat(h.stepId()).isIn(0, 1);
            assertThat(h.loadGenCpuPct()).isNotNull().isNotNegative();
            assertThat(h.pipelineCpuPct()).isNotNull().isNotNegative();
            assertThat(h.jvmCpuPct()).isNotNull().isNotNegative();
        });
        // the target's counters when the step starts, once a second, and when it ends
        assertThat(counters).hasSizeGreaterThanOrEqualTo(2).allSatisfy(c -> {
            assertThat(c.stepId()).isEqualTo(1);
            assertThat(c.error()).isNull();
            assertThat(c.gauges()).isNotEmpty();
        });
        assertThat(events).hasSize(4);
        assertThat(events.get(0)).isInstanceOf(RunStarted.class);
        StepStarted started = (StepStarted) events.get(1);
        assertThat(started.ops()).containsExactly("oltp_point_select");
        assertThat(started.queriesPerTransaction()).isEqualTo(1.0);
        assertThat(started.threads()).isEqualTo(2);
        StepEnded ended = (StepEnded) events.get(2);
        assertThat(ended.samplesSent()).isEqualTo(decoded[0]);
        assertThat(ended.loadGenCpuPct()).isEqualTo(step.loadGenCpuPct()).isPositive();
        assertThat(ended.processCpuPct()).isEqualTo(step.processCpuPct()).isPositive();
        assertThat(ended.blocksSent()).isEqualTo(result.blocksSent());
        RunEnded runEnded = (RunEnded) events.get(3);
        assertThat(runEnded.blocksSent()).isEqualTo(result.blocksSent());
        assertThat(runEnded.samplesSent()).isEqualTo(decoded[0]);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("[ 1s ] thds: 2 tps: ");
    }

    @Test
    void sinksOwnThreads_areRecognisedByName_theBrokersAreNot() throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("ts-threads");
        try (KafkaSampleSink sink = KafkaSampleSink.create(broker.bootstrapServers(), "it-threads", "p-threads",
                Map.of(), EmitterSettings.defaults(), SpoolSettings.in(dir))) {
            Set<String> live = Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                    .collect(java.util.stream.Collectors.toSet());
            Set<String> own = live.stream().filter(sink::ownsThread).collect(java.util.stream.Collectors.toSet());
            assertThat(own).containsExactlyInAnyOrder("tailstream-emitter-p-threads",
                    "kafka-producer-network-thread | tailstream-producer-p-threads",
                    "kafka-producer-network-thread | tailstream-producer-p-threads-control",
                    "tailstream-spool-replay-p-threads", "tailstream-spool-control-p-threads");
            // the in-process broker's threads are the pipeline's, not the load generator's
            assertThat(live.size()).isGreaterThan(own.size() + 10);
        }
    }

    /** Reads a topic from the beginning until {@code expected} records arrived (or 30 s passed). */
    static List<ConsumerRecord<byte[], byte[]>> readAll(String topic, long expected) {
        return TopicReader.readAll(broker.bootstrapServers(), topic, expected);
    }
}
