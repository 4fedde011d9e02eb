package io.tailstream.producer.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tailstream.producer.target.Target;
import io.tailstream.producer.target.TargetConnections;
import io.tailstream.producer.time.Clock;
import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleStatus;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Workers that lose their connections: with {@code connection_lost} ignored they reconnect and emit nothing while
 * they have no connection; a target that stays away fails the step after {@link StepDriver#UNREACHABLE_AFTER}.
 * The outage is on cue ({@link Outage}), so every count is exact.
 */
class ReconnectH2IntegrationTest {

    static final Set<SampleStatus> IGNORING_LOST = Set.of(SampleStatus.DEADLOCK, SampleStatus.CONNECTION_LOST);
    static final int THREADS = 3;

    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final PrintStream console = new PrintStream(out, true, StandardCharsets.UTF_8);

    @Test
    void lostConnections_ignored_reconnectOncePerWorker_noSamplesWhileAway_stepCompletes() throws Exception {
        try (TargetConnections tc = TargetConnections.open(Target.h2InMemory("h2", "reconnect1"), THREADS + 1)) {
            Outage outage = new Outage(tc.dataSource(), 500);
            // ends after 2,000 measured transactions: only possible once the workers are back
            StepSpec spec = new StepSpec(1, "h2", outage.workload(), THREADS, 1, Duration.ZERO, Duration.ofMinutes(10),
                    1, IGNORING_LOST, 2_000L, null);
            RecordingEmission emission = new RecordingEmission();
            CompletableFuture<StepResult> step = CompletableFuture.supplyAsync(() -> new StepDriver(
                    Clock.system(), console).run(spec, outage.dataSource(), tc.dialect(), emission));
            // every worker has lost its connection, and the connection attempts were refused at least twice each
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (lost(emission) < THREADS || outage.refusedConnections.get() < 2 * THREADS) {
                if (step.isDone()) {
                    step.get(); // its failure, if it failed
                    throw new AssertionError("the step ended during the outage: " + console());
                }
                assertThat(System.nanoTime()).as("reconnect attempts within 60 s: %s transactions, %s lost, %s"
                        + " refused; console: %s", outage.transactions.get(), lost(emission),
                        outage.refusedConnections.get(), console()).isLessThan(deadline);
                Thread.sleep(5);
            }
            long downUntil = Clock.system().epochMicros();
            List<Sample> whileDown = emission.samples();
            outage.upWhenAllBack(THREADS);
            StepResult r = step.get(60, TimeUnit.SECONDS);

            assertThat(r.completed()).isTrue();
            assertThat(r.reconnects()).isEqualTo(THREADS);
            // one lost-connection sample per worker, then nothing until it was back
            assertThat(r.errors()).isEqualTo(THREADS);
            assertThat(r.failures().byClass()).containsExactly(java.util.Map.entry("connection_lost", (long) THREADS));
            assertThat(whileDown.stream().filter(s -> s.status() == SampleStatus.CONNECTION_LOST)).hasSize(THREADS);
            List<Sample> all = emission.samples();
            assertThat(all.subList(0, whileDown.size())).isEqualTo(whileDown);
            assertThat(all.subList(whileDown.size(), all.size())).isNotEmpty()
                    .allSatisfy(s -> {
                        assertThat(s.status()).isEqualTo(SampleStatus.OK);
                        assertThat(s.startEpochMicros()).isGreaterThan(downUntil);
                    });
            assertThat(all.stream().filter(s -> !s.warmup())).hasSize(2_000);
            assertThat(r.transactions()).isEqualTo(2_000 - THREADS);
        }
    }

    private static long lost(RecordingEmission emission) {
        return emission.samples().stream().filter(s -> s.status() == SampleStatus.CONNECTION_LOST).count();
    }

    private String console() {
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void targetThatStaysAway_failsTheStep_afterTenSecondsWithoutAConnection() {
        try (TargetConnections tc = TargetConnections.open(Target.h2InMemory("h2", "reconnect2"), THREADS + 1)) {
            Outage outage = new Outage(tc.dataSource(), 200);
            StepSpec spec = new StepSpec(1, "h2", outage.workload(), THREADS, 1, Duration.ZERO, Duration.ofMinutes(10),
                    0, IGNORING_LOST, null, null);
            RecordingEmission emission = new RecordingEmission();
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> new StepDriver(Clock.system(), console).run(spec, outage.dataSource(),
                    tc.dialect(), emission))
                    .isInstanceOf(StepFailedException.class)
                    .satisfies(e -> {
                        StepFailedException f = (StepFailedException) e;
                        assertThat(f.reason()).isEqualTo("target 'h2' unreachable: SQLState 08001, vendor code 0:"
                                + " target down (no worker had a connection for 10 s)");
                        assertThat(f.partial().outcome()).isEqualTo("failed: " + f.reason());
                        assertThat(f.partial().errors()).isEqualTo(THREADS);
                        assertThat(f.partial().reconnects()).isZero();
                    });
            assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(TimeUnit.SECONDS.toNanos(10));
            assertThat(emission.samples().stream().filter(s -> s.status() != SampleStatus.OK)).hasSize(THREADS);
        }
    }

    @Test
    void targetThatStaysAway_failsTheStep_afterTheDriversReconnectBudget() {
        try (TargetConnections tc = TargetConnections.open(Target.h2InMemory("h2", "reconnect4"), THREADS + 1)) {
            Outage outage = new Outage(tc.dataSource(), 200);
            StepSpec spec = new StepSpec(1, "h2", outage.workload(), THREADS, 1, Duration.ZERO, Duration.ofMinutes(10),
                    0, IGNORING_LOST, null, null);
            StepDriver driver = new StepDriver(Clock.system(), console,
                    new io.tailstream.producer.health.LoadGenThreads(
                            io.tailstream.producer.health.ThreadCpuSource.jvm()), Duration.ofMillis(1500));
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> driver.run(spec, outage.dataSource(), tc.dialect(), new RecordingEmission()))
                    .isInstanceOf(StepFailedException.class)
                    .satisfies(e -> assertThat(((StepFailedException) e).reason()).endsWith(
                            " (no worker had a connection for 1.5 s)"));
            assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(1500));
            assertThatThrownBy(() -> new StepDriver(Clock.system(), console,
                    new io.tailstream.producer.health.LoadGenThreads(
                            io.tailstream.producer.health.ThreadCpuSource.jvm()), Duration.ZERO))
                    .hasMessage("unreachableAfter must be > 0, was PT0S");
        }
    }

    @Test
    void lostConnection_notIgnored_failsTheStep_oneLine() {
        try (TargetConnections tc = TargetConnections.open(Target.h2InMemory("h2", "reconnect3"), THREADS + 1)) {
            Outage outage = new Outage(tc.dataSource(), 100);
            StepSpec spec = new StepSpec(1, "h2", outage.workload(), THREADS, 1, Duration.ZERO, Duration.ofMinutes(10),
                    0, Set.of(SampleStatus.DEADLOCK), null, null);
            assertThatThrownBy(() -> new StepDriver(Clock.system(), console).run(spec, outage.dataSource(),
                    tc.dialect(), new RecordingEmission()))
                    .isInstanceOf(StepFailedException.class)
                    .hasMessage("step 1 (target 'h2', outage, 3 threads, round 1) failed: connection_lost"
                            + " (not ignored): SQLState 08S01, vendor code 0: Communications link failure");
        }
    }
}
