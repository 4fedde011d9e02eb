package io.tailstream.producer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.producer.driver.StepResult;
import io.tailstream.producer.emit.EmitterSettings;
import io.tailstream.producer.emit.KafkaSampleSink;
import io.tailstream.producer.emit.ListTransport;
import io.tailstream.producer.emit.SampleSink;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.time.Clock;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleBlockDecoder;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.StepEnded;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The server kills the benchmark's connections mid-step, from an administrator's connection, once the first block of
 * samples is out: with {@code connection_lost} ignored the workers reconnect, the step completes, each worker's loss
 * is one error sample (not an error storm), the console says so in a few lines naming the target, and every sample
 * sent is in the blocks; without it the step fails with a one-line reason. One subclass per server.
 */
abstract class ServerKillContract {

    static final int THREADS = 4;
    static final List<WorkloadSpec> POINT = List.of(new WorkloadSpec("oltp_point_select",
            Map.of("table_size", "1000")));

    Target target;
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final PrintStream console = new PrintStream(out, true, StandardCharsets.UTF_8);

    /** The target to run against, with the connections {@link #kill()} ends; skips the test if there is none. */
    abstract Target target();

    /** Ends every connection of the benchmark from another connection; returns how many. */
    abstract int kill() throws SQLException;

    /** The target's password, which the console must not show; null if none. */
    abstract String password();

    @BeforeEach
    void environment() {
        target = target();
    }

    record Outcome(RunResult result, ListTransport transport, long killedAtMicros, int killed) {
        List<Sample> samples() {
            List<Sample> all = new ArrayList<>();
            transport.blocks().forEach(b -> all.addAll(SampleBlockDecoder.samples(b.block())));
            return all;
        }
    }

    /** Runs an 8 s step and kills every connection of the test's database once samples flow. */
    Outcome runAndKill(RunPlan plan) throws Exception {
        ListTransport transport = new ListTransport(1);
        try (SampleSink sink = new KafkaSampleSink(plan.runId(), "p1", transport, Clock.system(),
                EmitterSettings.defaults())) {
            BenchmarkRunner runner = new BenchmarkRunner(sink, console);
            CompletableFuture<RunResult> running = CompletableFuture.supplyAsync(() -> runner.run(plan));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (transport.blocks().stream().noneMatch(b -> SampleBlockDecoder.readHeader(b.block())
                    .sampleCount() > 0)) {
                assertThat(running).isNotDone();
                assertThat(System.nanoTime()).as("samples within 60 s").isLessThan(deadline);
                Thread.sleep(10);
            }
            long killedAt = Clock.system().epochMicros();
            int killed = kill();
            RunResult result = running.get(120, TimeUnit.SECONDS);
            return new Outcome(result, transport, killedAt, killed);
        } finally {
            WorkloadData.cleanup(target, POINT, console);
        }
    }

    @Test
    void killed_withConnectionLostIgnored_workersReconnect_stepCompletes_noErrorStorm() throws Exception {
        RunPlan plan = new RunPlan("it-reconnect-" + target.name(), "test", List.of(target), POINT,
                List.of(THREADS), 1,
                Duration.ZERO, Duration.ofSeconds(8), 1, true, EnumSet.of(SampleStatus.DEADLOCK,
                SampleStatus.LOCK_WAIT_TIMEOUT, SampleStatus.CONNECTION_LOST), null);
        Outcome o = runAndKill(plan);
        String text = out.toString(StandardCharsets.UTF_8);
        System.out.print(text);
        assertThat(o.killed()).isGreaterThanOrEqualTo(THREADS);
        assertThat(o.result().completed()).as(text).isTrue();
        StepResult step = o.result().steps().get(0);
        assertThat(step.completed()).isTrue();
        // each killed connection fails at most one transaction (a worker may be handed the pool's spare connection,
        // killed too, and lose it once more), then the worker reconnects: no error storm
        assertThat(step.errors()).isBetween(1L, (long) o.killed());
        assertThat(step.failures().byClass().keySet()).containsExactly("connection_lost");
        assertThat(step.reconnects()).isBetween(1L, (long) o.killed());
        List<Sample> samples = o.samples();
        assertThat(samples.stream().filter(s -> s.status() != SampleStatus.OK)).hasSize((int) step.errors());
        assertThat(samples).anySatisfy(s -> {
            assertThat(s.status()).isEqualTo(SampleStatus.OK);
            assertThat(s.startEpochMicros()).isGreaterThan(o.killedAtMicros());
        });
        StepEnded ended = o.transport().control().stream().map(b -> Json.read(b, ControlEvent.class))
                .filter(StepEnded.class::isInstance).map(StepEnded.class::cast).findFirst().orElseThrow();
        assertThat(ended.reconnects()).isEqualTo(step.reconnects());
        // every sample sent is in the blocks, each once
        assertThat((long) samples.size()).isEqualTo(ended.samplesSent()).isEqualTo(step.samplesSent())
                .isEqualTo(o.result().samplesSent());
        assertThat(ended.errors()).isEqualTo(step.errors());
        assertThat(text).containsPattern("reconn/s: [1-9]");
        // the console says what happened in a few lines, naming the target without credentials
        String url = target.redactedUrl();
        assertThat(text).containsPattern("(worker \\d|\\d workers): connection lost to \\Q" + url
                + "\\E \\(SQLState [^)]+.*\\); reconnecting \\(attempt \\d")
                .containsPattern("(worker \\d|\\d workers) reconnected to \\Q" + url + "\\E after ")
                .doesNotContain("\tat ");
        if (password() != null) {
            assertThat(text).doesNotContain(password());
        }
        assertThat(text.lines().filter(l -> l.contains(url))).hasSizeBetween(1, 2 * THREADS);
        assertThat(step.summary()).contains("reconnects: " + step.reconnects());
    }

    @Test
    void killed_withoutConnectionLostIgnored_stepFails_oneLineReason() throws Exception {
        RunPlan plan = RunPlan.of("it-killed-" + target.name(), "test", List.of(target), POINT, List.of(THREADS), 1,
                Duration.ZERO, Duration.ofSeconds(30), 1);
        Outcome o = runAndKill(plan);
        assertThat(o.result().completed()).isFalse();
        StepResult step = o.result().steps().get(0);
        assertThat(step.outcome()).startsWith("failed: connection_lost (not ignored): SQLState ")
                .doesNotContain("\n");
        assertThat(o.result().outcome()).isEqualTo("failed: step 1 (target '" + target.name()
                + "', oltp_point_select, " + THREADS + " threads, round 1) " + step.outcome());
        assertThat(step.errors()).isBetween(1L, (long) THREADS);
        assertThat(step.measureSeconds()).isLessThan(30);
    }
}
