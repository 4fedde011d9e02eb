package io.tailstream.producer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.testing.RestartableBroker;
import io.tailstream.producer.emit.EmitterSettings;
import io.tailstream.producer.emit.KafkaSampleSink;
import io.tailstream.producer.emit.SampleSink;
import io.tailstream.producer.emit.SpoolSettings;
import io.tailstream.producer.emit.SpoolingTransport;
import io.tailstream.producer.emit.StepEmission;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RunEnded;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker goes away just before step 1's {@code step_ended} and comes back while step 2 runs: {@code step_ended},
 * {@code step_started} of step 2 and the client-health events of the outage wait in the spool, and every control
 * event the runner published reaches the control topic exactly once and in the order it was published.
 */
class ControlSpoolIntegrationTest {

    @TempDir
    Path dir;

    /** Records every published control event (as the JSON sent) and runs a hook before a chosen one. */
    static final class RecordingSink implements SampleSink {
        final SampleSink inner;
        final List<String> published = new ArrayList<>();
        volatile java.util.function.Consumer<ControlEvent> beforePublish = e -> { };

        RecordingSink(SampleSink inner) {
            this.inner = inner;
        }

        @Override
        public String producerId() {
            return inner.producerId();
        }

        @Override
        public void publish(ControlEvent event) {
            beforePublish.accept(event);
            // recorded in the order the transport queues them (the runner and the health thread both publish)
            synchronized (this) {
                published.add(new String(Json.write(event), StandardCharsets.UTF_8));
                inner.publish(event);
            }
        }

        synchronized List<String> published() {
            return List.copyOf(published);
        }

        @Override
        public SpoolingTransport.SpoolStats spoolStats() {
            return inner.spoolStats();
        }

        @Override
        public long takeSpoolHighWaterBytes() {
            return inner.takeSpoolHighWaterBytes();
        }

        @Override
        public StepEmission beginStep(int stepId, List<String> ops, boolean openLoop) {
            return inner.beginStep(stepId, ops, openLoop);
        }

        @Override
        public long blocksSent() {
            return inner.blocksSent();
        }

        @Override
        public long samplesSent() {
            return inner.samplesSent();
        }

        @Override
        public long backlogBlocks() {
            return inner.backlogBlocks();
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    @Test
    void brokerDownAroundAStepBoundary_everyControlEventArrivesOnceInOrder() throws Exception {
        RestartableBroker broker = RestartableBroker.start(dir.resolve("kafka"), 2);
        String bootstrap = broker.bootstrapServers();

        RunPlan plan = RunPlan.of("control-spool-run", "t", List.of(Target.h2InMemory("h2", "control-spool")),
                List.of(new WorkloadSpec("oltp_point_select", Map.of("table_size", "500"))), List.of(1, 2), 1,
                Duration.ZERO, Duration.ofSeconds(4), 0);
        SpoolSettings spool = new SpoolSettings(dir.resolve("spool"), 256L << 20, 64 * 1024, Duration.ofSeconds(90));
        Map<String, Object> kafkaConfig = Map.of(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200,
                ProducerConfig.RETRY_BACKOFF_MAX_MS_CONFIG, 200);
        PrintStream console = new PrintStream(OutputStream.nullOutputStream());
        RunResult result;
        SpoolingTransport.SpoolStats stats;
        RecordingSink sink = new RecordingSink(KafkaSampleSink.create(bootstrap, plan.runId(), "p1", kafkaConfig,
                EmitterSettings.defaults(), spool));
        CountDownLatch brokerDown = new CountDownLatch(1);
        // blocks spooled before the broker went away: a fast load can outrun the broker during step 1 already
        AtomicLong spooledBeforeDown = new AtomicLong();
        sink.beforePublish = e -> {
            if (e instanceof StepEnded s && s.stepId() == 1) {
                broker.stop(); // the broker goes away: step 1's blocks are all acknowledged, its step_ended is not
                spooledBeforeDown.set(sink.spoolStats().blocksSpooled());
                brokerDown.countDown();
            }
        };
        try (sink) {
            CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(
                    () -> new BenchmarkRunner(sink, console).run(plan));
            assertThat(brokerDown.await(60, TimeUnit.SECONDS)).isTrue();
            // step 2 starts and runs with the broker away: its step_started and health events are spooled
            SpoolIntegrationTest.awaitTrue(() -> sink.published().stream().anyMatch(j -> j.contains(
                    "\"type\":\"step_started\"") && j.contains("\"stepId\":2,")), 30);
            SpoolIntegrationTest.awaitTrue(() -> sink.spoolStats().controlEventsSpooled() > 0, 30);
            // and its blocks, once more than the 64 KiB in flight are waiting (the producer keeps what is in flight
            // until the broker is back, so a restart before that would leave the spool without a block)
            SpoolIntegrationTest.awaitTrue(() -> sink.spoolStats().blocksSpooled() > spooledBeforeDown.get(), 30);
            broker.startAgain();
            result = run.get(120, TimeUnit.SECONDS);
            stats = sink.spoolStats();
        }
        List<String> onTopic = new ArrayList<>();
        RunEnded runEnded = null;
        List<StepEnded> stepEnds = new ArrayList<>();
        try {
            List<String> published = sink.published();
            for (ConsumerRecord<byte[], byte[]> r : TopicReader.readAll(bootstrap, Topics.CONTROL,
                    published.size())) {
                ControlEvent e = Json.read(r.value(), ControlEvent.class);
                if (e.runId().equals(plan.runId())) {
                    onTopic.add(new String(r.value(), StandardCharsets.UTF_8));
                    if (e instanceof RunEnded re) {
                        runEnded = re;
                    } else if (e instanceof StepEnded se) {
                        stepEnds.add(se);
                    }
                }
            }
            assertThat(onTopic).containsExactlyElementsOf(published);
        } finally {
            broker.close();
        }
        assertThat(result.steps()).hasSize(2);
        assertThat(stats.controlEventsSpooled()).isPositive();
        assertThat(dir.resolve("spool").resolve("spool-p1-control.bin")).doesNotExist(); // drained and deleted
        assertThat(onTopic.stream().filter(j -> j.contains("\"type\":\"step_started\""))).hasSize(2);
        assertThat(stepEnds).extracting(StepEnded::stepId).containsExactly(1, 2);
        // step 2 ran with the broker away: its blocks and its step_started went through the spool
        StepEnded step2 = stepEnds.get(1);
        assertThat(step2.blocksSpooled()).isPositive();
        assertThat(step2.controlEventsSpooled()).isPositive();
        assertThat(step2.maxSpoolBytes()).isPositive();
        assertThat(step2.clientBound()).isNotNull();
        assertThat(runEnded).isNotNull();
        assertThat(runEnded.outcome()).isEqualTo("completed");
        assertThat(runEnded.blocksSent()).isEqualTo(result.blocksSent());
        assertThat(runEnded.blocksSpooled()).isGreaterThanOrEqualTo(step2.blocksSpooled());
        assertThat(runEnded.controlEventsSpooled()).isGreaterThanOrEqualTo(step2.controlEventsSpooled());
        assertThat(runEnded.maxSpoolBytes()).isGreaterThanOrEqualTo(step2.maxSpoolBytes());
        assertThat(runEnded.clientBound()).isEqualTo(result.steps().stream().anyMatch(r -> r.clientBound()));
        System.out.printf("control spool figures: %s; %d control events, each once and in order%n", stats,
                onTopic.size());
    }

}
