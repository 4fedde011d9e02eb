package io.tailstream.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tailstream.producer.driver.StepResult;
import io.tailstream.producer.emit.EmitterSettings;
import io.tailstream.producer.emit.KafkaSampleSink;
import io.tailstream.producer.emit.ListTransport;
import io.tailstream.producer.emit.SampleSink;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.target.TargetException;
import io.tailstream.producer.time.Clock;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.schemas.block.BlockHeader;
import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleBlockDecoder;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.ClientHealth;
import io.tailstream.schemas.event.ServerCounters;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RunEnded;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** Both sysbench workloads on embedded H2 through the whole runner, with an in-memory transport. */
class BenchmarkRunnerH2IntegrationTest {

    static final Map<String, String> SMALL = Map.of("table_size", "1000");
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final PrintStream console = new PrintStream(out, true, StandardCharsets.UTF_8);

    @Test
    void bothWorkloads_oneThread_queriesPerTransactionExact_andEverySampleEmitted() {
        Target h2 = Target.h2InMemory("h2-mem", "runner1");
        RunPlan plan = RunPlan.of("run-h2", "test", List.of(h2),
                List.of(new WorkloadSpec("oltp_read_write", SMALL), new WorkloadSpec("oltp_point_select", SMALL)),
                List.of(1), 1, Duration.ofMillis(300), Duration.ofMillis(1200), 1);
        ListTransport transport = new ListTransport(2);
        RunResult result;
        try (SampleSink sink = new KafkaSampleSink("run-h2", "p1", transport, Clock.system(),
                EmitterSettings.defaults())) {
            result = new BenchmarkRunner(sink, console).run(plan);
        }
        assertThat(result.steps()).hasSize(2);
        StepResult rw = result.steps().get(0);
        StepResult ps = result.steps().get(1);
        assertThat(rw.workload()).isEqualTo("oltp_read_write");
        assertThat(ps.workload()).isEqualTo("oltp_point_select");
        for (StepResult r : result.steps()) {
            assertThat(r.transactions()).isPositive();
            assertThat(r.errors()).isZero();
            assertThat(r.samplesSent()).isEqualTo(r.samplesRecorded()).isGreaterThan(r.transactions());
            assertThat(r.p95Ms()).isLessThanOrEqualTo(r.p99Ms()).isLessThanOrEqualTo(r.maxMs());
            // the planned 1.2 s and the time the workers took to stop, which a busy machine may stretch
            assertThat(r.measureSeconds()).isBetween(1.2, 10.0);
        }
        assertThat(rw.queries()).isEqualTo(20 * rw.transactions());
        assertThat(rw.qps() / rw.tps()).isCloseTo(20.0, Offset.offset(1e-9));
        assertThat(ps.queries()).isEqualTo(ps.transactions());
        assertThat(ps.qps() / ps.tps()).isCloseTo(1.0, Offset.offset(1e-9));

        // every sample is in exactly one block; sequences are 0..n-1; warm-up samples are flagged, not dropped
        List<BlockHeader> headers = new ArrayList<>();
        long samples = 0;
        long measured = 0;
        long queries20 = 0;
        for (ListTransport.Sent s : transport.blocks()) {
            headers.add(SampleBlockDecoder.readHeader(s.block()));
            for (Sample sample : SampleBlockDecoder.samples(s.block())) {
                samples++;
                if (!sample.warmup()) {
                    measured++;
                }
                if (sample.queries() == 20) {
                    queries20++;
                }
            }
        }
        assertThat(headers).extracting(BlockHeader::blockSeq)
                .containsExactlyElementsOf(java.util.stream.LongStream.range(0, headers.size()).boxed().toList());
        assertThat(samples).isEqualTo(rw.samplesRecorded() + ps.samplesRecorded()).isEqualTo(result.samplesSent());
        assertThat(measured).isEqualTo(rw.transactions() + ps.transactions());
        assertThat(queries20).isEqualTo(rw.samplesRecorded());
        assertThat(result.blocksSent()).isEqualTo(headers.size());
        assertThat(headers.stream().filter(BlockHeader::endOfStep).count()).isEqualTo(2 * 2);

        List<ControlEvent> all = transport.control().stream().map(b -> Json.read(b, ControlEvent.class)).toList();
        // client health events interleave (at least one per step: the step-end sample); the rest is the run's story
        assertThat(all.stream().filter(e -> e instanceof ClientHealth).map(e -> ((ClientHealth) e).stepId()))
                .contains(1, 2);
        // so do the server's counters: a reading when each step starts and when it ends, all before run_ended
        List<ServerCounters> readings = all.stream().filter(e -> e instanceof ServerCounters)
                .map(e -> (ServerCounters) e).toList();
        for (int step = 1; step <= 2; step++) {
            int id = step;
            assertThat(readings).filteredOn(r -> r.stepId() == id).hasSizeGreaterThanOrEqualTo(2)
                    .allSatisfy(r -> {
                        assertThat(r.error()).isNull();
                        assertThat(r.target()).isEqualTo("h2-mem");
                        assertThat(r.producerId()).isEqualTo("p1");
                        // the worker's session, and the pools' idle ones; the sampler's own is left out
                        assertThat(r.gauges()).containsKeys("sessions.all", "sessions.executing",
                                "sessions.blocked", "sessions.uncommitted");
                    });
        }
        assertThat(readings).extracting(ServerCounters::stepId).containsOnly(1, 2);
        assertThat(all.get(all.size() - 1)).isInstanceOf(RunEnded.class);
        List<ControlEvent> events = controlEvents(transport);
        assertThat(events).hasSize(6);
        StepStarted started = (StepStarted) events.get(1);
        assertThat(started.queriesPerTransaction()).isEqualTo(20.0);
        assertThat(started.target().product()).isEqualTo("H2");
        assertThat(started.rtt()).isNotNull();
        assertThat(started.rtt().samples()).isBetween(1, 200);
        assertThat(started.rtt().method()).startsWith("SELECT 1 compiled in process");
        assertThat(started.options()).containsEntry("table_size", "1000").containsEntry("rand_type", "special");
        StepEnded ended = (StepEnded) events.get(2);
        assertThat(ended.samplesSent()).isEqualTo(rw.samplesSent());
        assertThat(ended.blocksSent()).isEqualTo(rw.blocksSent());
        assertThat(ended.threads()).isEqualTo(1);
        assertThat(ended.reconnects()).isZero();
        assertThat(new StepResult.Phases(ended.startEpochMicros(), ended.measureStartEpochMicros(),
                ended.measureEndEpochMicros())).isEqualTo(rw.phases());
        assertThat(ended.measureStartEpochMicros() - ended.startEpochMicros()).isEqualTo(300_000);

        // the step's TPS is exactly its successful measured samples over the span the event carries
        for (int step = 1; step <= 2; step++) {
            StepEnded e = (StepEnded) events.get(2 * step);
            StepResult r = result.steps().get(step - 1);
            List<Sample> own = new ArrayList<>();
            for (ListTransport.Sent s : transport.blocks()) {
                if (SampleBlockDecoder.readHeader(s.block()).stepId() == step) {
                    own.addAll(SampleBlockDecoder.samples(s.block()));
                }
            }
            long okMeasured = own.stream().filter(x -> !x.warmup() && x.status() == SampleStatus.OK).count();
            double exact = okMeasured / ((e.measureEndEpochMicros() - e.measureStartEpochMicros()) / 1e6);
            assertThat(r.tps()).isCloseTo(exact, Offset.offset(exact * 1e-9));
            assertThat(own).allSatisfy(x -> {
                if (x.warmup()) {
                    assertThat(x.startEpochMicros()).isBetween(e.startEpochMicros(), e.measureStartEpochMicros() - 1);
                } else {
                    assertThat(x.startEpochMicros()).isGreaterThanOrEqualTo(e.measureStartEpochMicros());
                    assertThat(x.endEpochMicros()).isLessThanOrEqualTo(e.measureEndEpochMicros());
                }
            });
        }
        RunEnded end = (RunEnded) events.get(5);
        assertThat(end.samplesSent()).isEqualTo(samples);
        assertThat(end.blocksSent()).isEqualTo(headers.size());
        assertThat(end.outcome()).isEqualTo("completed");

        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(text).containsPattern("\\[ 1s \\] thds: 1 tps: \\d+\\.\\d\\d qps: \\d+\\.\\d\\d lat \\(ms,95%\\): "
                + "\\d+\\.\\d\\d err/s: 0\\.00");
        assertThat(text).contains("Creating table 'sbtest1'...");
    }

    /**
     * An embedded database runs on the workers' threads, so the load generator's CPU is the database's too: with a
     * CPU limit every step exceeds (0.1% of the machine), the step is still never judged client-bound, its CPU is
     * still measured, and the target is marked embedded for the report.
     */
    @Test
    void embeddedTarget_isNeverJudgedClientBound_butItsCpuIsMeasured() {
        Target h2 = Target.h2InMemory("h2-mem", "runner-embedded");
        RunPlan plan = RunPlan.of("run-emb", "test", List.of(h2), List.of(new WorkloadSpec("oltp_point_select", SMALL)),
                List.of(2), 1, Duration.ofMillis(200), Duration.ofMillis(1500), 1).withDriver(null, null, null, 0.1);
        ListTransport transport = new ListTransport(2);
        RunResult result;
        try (SampleSink sink = new KafkaSampleSink("run-emb", "p1", transport, Clock.system(),
                EmitterSettings.defaults())) {
            result = new BenchmarkRunner(sink, console).run(plan);
        }
        assertThat(result.completed()).isTrue();
        List<ControlEvent> all = transport.control().stream().map(b -> Json.read(b, ControlEvent.class)).toList();
        StepEnded ended = all.stream().filter(e -> e instanceof StepEnded).map(e -> (StepEnded) e).findFirst()
                .orElseThrow();
        assertThat(ended.clientBound()).isFalse();
        assertThat(ended.loadGenCpuPct()).isGreaterThan(0.1);
        assertThat(all).filteredOn(e -> e instanceof ClientHealth).extracting(e -> ((ClientHealth) e).clientBound())
                .containsOnly(false);
        StepStarted started = all.stream().filter(e -> e instanceof StepStarted).map(e -> (StepStarted) e)
                .findFirst().orElseThrow();
        assertThat(started.target().variables()).containsEntry("tailstream.embedded", "true");
        assertThat(result.steps().get(0).summary()).doesNotContain("CLIENT-BOUND");
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("embedded: the database runs on the workers'"
                + " threads").doesNotContain("!! client-bound");
    }

    @Test
    void readWrite_fourThreads_accountsForEveryStatement() {
        Target h2 = Target.h2InMemory("h2-mem", "runner2");
        RunPlan plan = RunPlan.of("run-h2b", "test", List.of(h2), List.of(new WorkloadSpec("oltp_read_write", SMALL)),
                List.of(4), 1, Duration.ZERO, Duration.ofMillis(1000), 0);
        RunResult result = new BenchmarkRunner(SampleSink.noop("p1"), console).run(plan);
        StepResult r = result.steps().get(0);
        assertThat(r.transactions()).isPositive();
        // queries are the statements that succeeded: 20 per successful transaction, and of a failed one those before
        // the failing statement (0 to 19)
        assertThat(r.queries()).isBetween(20 * r.transactions(), 20 * r.transactions() + 19 * r.errors());
        assertThat(r.samplesSent()).isZero();
    }

    @Test
    void unreachableSecondTarget_runEndsCleanly_firstTargetsStepsKept() {
        Target h2 = Target.h2InMemory("h2-mem", "runner-unreachable");
        Target bad = Target.of("nowhere", "jdbc:mysql://127.0.0.1:1/none?connectTimeout=500", "u", () -> "secret");
        RunPlan plan = RunPlan.of("run-bad", "test", List.of(h2, bad), List.of(new WorkloadSpec("oltp_point_select",
                SMALL)), List.of(1), 1, Duration.ZERO, Duration.ofMillis(300), 0);
        ListTransport transport = new ListTransport(1);
        RunResult result;
        try (SampleSink sink = new KafkaSampleSink("run-bad", "p1", transport, Clock.system(),
                EmitterSettings.defaults())) {
            result = new BenchmarkRunner(sink, console).run(plan);
        }
        assertThat(result.completed()).isFalse();
        assertThat(result.outcome())
                .startsWith("failed: cannot connect to target 'nowhere' (jdbc:mysql://127.0.0.1:1/none")
                .doesNotContain("secret").doesNotContain("\n");
        assertThat(result.steps()).singleElement().satisfies(s -> {
            assertThat(s.target()).isEqualTo("h2-mem");
            assertThat(s.completed()).isTrue();
            assertThat(s.samplesSent()).isEqualTo(s.samplesRecorded()).isPositive();
        });
        List<ControlEvent> events = controlEvents(transport);
        assertThat(events).extracting(e -> e.getClass().getSimpleName())
                .containsExactly("RunStarted", "StepStarted", "StepEnded", "RunEnded");
        assertThat(((RunEnded) events.get(3)).outcome()).isEqualTo(result.outcome());
        assertThatThrownBy(() -> BenchmarkRunner.checkTargets(plan)).isInstanceOf(TargetException.class)
                .hasMessageStartingWith("cannot connect to target 'nowhere' (jdbc:mysql://127.0.0.1:1/none")
                .hasMessageNotContaining("secret");
    }

    @Test
    void thirdStepFails_stepsOneAndTwoKept_everyControlEventPublished() {
        Target h2 = Target.h2InMemory("h2-third", "runner-third");
        WorkloadSpec oneTable = new WorkloadSpec("oltp_point_select", SMALL);
        // the second workload needs a table that was never created: its first step cannot open a session
        WorkloadSpec twoTables = new WorkloadSpec("oltp_point_select", Map.of("tables", "2", "table_size", "1000"));
        WorkloadData.prepare(h2, List.of(oneTable), 1, console);
        RunPlan plan = RunPlan.of("run-third", "test", List.of(h2), List.of(oneTable, twoTables), List.of(1, 2), 1,
                Duration.ofMillis(100), Duration.ofMillis(400), 0).withPrepare(false);
        ListTransport transport = new ListTransport(2);
        RunResult result;
        try (SampleSink sink = new KafkaSampleSink("run-third", "p1", transport, Clock.system(),
                EmitterSettings.defaults())) {
            result = new BenchmarkRunner(sink, console).run(plan);
        }
        assertThat(result.completed()).isFalse();
        assertThat(result.outcome()).startsWith("failed: step 3 (target 'h2-third', oltp_point_select, 1 thread,"
                + " round 1) failed: worker 0 cannot open its connection or session: ").contains("SBTEST2");
        assertThat(result.steps()).hasSize(3);
        assertThat(result.steps().subList(0, 2)).allSatisfy(s -> {
            assertThat(s.completed()).isTrue();
            assertThat(s.transactions()).isPositive();
            assertThat(s.samplesSent()).isEqualTo(s.samplesRecorded());
        });
        StepResult third = result.steps().get(2);
        assertThat(third.outcome()).startsWith("failed: worker 0 cannot open its connection or session: ");
        assertThat(third.transactions()).isZero();

        List<ControlEvent> events = controlEvents(transport);
        assertThat(events).extracting(e -> e.getClass().getSimpleName()).containsExactly("RunStarted",
                "StepStarted", "StepEnded", "StepStarted", "StepEnded", "StepStarted", "StepEnded", "RunEnded");
        assertThat(((StepEnded) events.get(2)).completed()).isTrue();
        assertThat(((StepEnded) events.get(4)).completed()).isTrue();
        assertThat(((StepEnded) events.get(6)).outcome()).isEqualTo(third.outcome());
        RunEnded end = (RunEnded) events.get(7);
        assertThat(end.outcome()).isEqualTo(result.outcome());
        // every block of every step sent, the failed one's end-of-step marker included
        List<BlockHeader> headers = transport.blocks().stream().map(b -> SampleBlockDecoder.readHeader(b.block()))
                .toList();
        assertThat(headers).extracting(BlockHeader::blockSeq)
                .containsExactlyElementsOf(java.util.stream.LongStream.range(0, headers.size()).boxed().toList());
        assertThat(headers.stream().filter(BlockHeader::endOfStep).map(BlockHeader::stepId).distinct())
                .containsExactly(1, 2, 3);
        assertThat(end.samplesSent()).isEqualTo(result.samplesSent())
                .isEqualTo(result.steps().stream().mapToLong(StepResult::samplesSent).sum());
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("| failed: worker 0 cannot open")
                .contains("== run run-third failed: step 3 (target 'h2-third'");
    }

    @Test
    void stopFromAnotherThread_midStep_interruptsIt_noFurtherStep_runReturns() throws Exception {
        Target h2 = Target.h2InMemory("h2-stop", "runner-stop");
        RunPlan plan = RunPlan.of("run-stop", "test", List.of(h2), List.of(new WorkloadSpec("oltp_point_select",
                SMALL)), List.of(2, 4), 1, Duration.ZERO, Duration.ofMinutes(10), 0);
        ListTransport transport = new ListTransport(1);
        try (SampleSink sink = new KafkaSampleSink("run-stop", "p1", transport, Clock.system(),
                EmitterSettings.defaults())) {
            BenchmarkRunner runner = new BenchmarkRunner(sink, console);
            java.util.concurrent.CompletableFuture<RunResult> running =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> runner.run(plan));
            // mid-step: the first step has handed over measured samples
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
            while (transport.blocks().stream()
                    .noneMatch(b -> SampleBlockDecoder.readHeader(b.block()).sampleCount() > 0)) {
                assertThat(running).isNotDone();
                assertThat(System.nanoTime()).as("a block of samples within 60 s").isLessThan(deadline);
                Thread.sleep(10);
            }
            runner.stop("user pressed Ctrl-C");
            RunResult result = running.get(60, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(result.outcome()).isEqualTo("interrupted: user pressed Ctrl-C");
            assertThat(result.completed()).isFalse();
            StepResult step = result.steps().get(0);
            assertThat(result.steps()).hasSize(1);
            assertThat(step.outcome()).isEqualTo("interrupted: user pressed Ctrl-C");
            assertThat(step.transactions()).isPositive();
            // the measurement ended with the last transaction, well before its nominal 10 minutes
            assertThat(step.measureSeconds()).isPositive().isLessThan(600);
            assertThat(step.samplesSent()).isEqualTo(step.samplesRecorded());
            List<ControlEvent> events = controlEvents(transport);
            assertThat(events).extracting(e -> e.getClass().getSimpleName())
                    .containsExactly("RunStarted", "StepStarted", "StepEnded", "RunEnded");
            assertThat(((StepEnded) events.get(2)).outcome()).isEqualTo("interrupted: user pressed Ctrl-C");
            assertThat(((RunEnded) events.get(3)).outcome()).isEqualTo("interrupted: user pressed Ctrl-C");
        }
    }

    /** The run's story: the control events but the periodic ones (client health, server counters). */
    private static List<ControlEvent> controlEvents(ListTransport transport) {
        return transport.control().stream().map(b -> Json.read(b, ControlEvent.class))
                .filter(e -> !(e instanceof ClientHealth) && !(e instanceof ServerCounters)).toList();
    }
}
