package io.tailstream.producer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.analysis.Plateau;
import io.tailstream.producer.driver.StepResult;
import io.tailstream.producer.emit.EmitterSettings;
import io.tailstream.producer.emit.KafkaSampleSink;
import io.tailstream.producer.emit.ListTransport;
import io.tailstream.producer.emit.SampleSink;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.time.Clock;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.schemas.block.BlockHeader;
import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleBlockDecoder;
import io.tailstream.schemas.event.ClientHealth;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RunSettings;
import io.tailstream.schemas.event.RunStarted;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Open loop, transaction budgets, plateau stops and the client-bound flag, through the whole runner on H2. */
class DriverModesH2IntegrationTest {

    static final List<WorkloadSpec> POINT = List.of(new WorkloadSpec("oltp_point_select", Map.of("table_size", "500")));
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final PrintStream console = new PrintStream(out, true, StandardCharsets.UTF_8);

    record Run(RunResult result, ListTransport transport) {
        List<Sample> samples() {
            List<Sample> all = new ArrayList<>();
            for (ListTransport.Sent s : transport.blocks()) {
                all.addAll(SampleBlockDecoder.samples(s.block()));
            }
            return all;
        }

        List<BlockHeader> headers() {
            return transport.blocks().stream().map(s -> SampleBlockDecoder.readHeader(s.block())).toList();
        }

        List<ControlEvent> events() {
            return transport.control().stream().map(b -> Json.read(b, ControlEvent.class)).toList();
        }
    }

    Run run(RunPlan plan) {
        ListTransport transport = new ListTransport(2);
        try (SampleSink sink = new KafkaSampleSink(plan.runId(), "p1", transport, Clock.system(),
                EmitterSettings.defaults())) {
            return new Run(new BenchmarkRunner(sink, console).run(plan), transport);
        }
    }

    @Test
    void openLoop_runsExactlyTheIntendedStarts_carriesThem_andReportsCorrectedLatency() {
        // 2 threads x 100/s, 2 s: worker 0 intends starts at 0, 10, ..., 1990 ms; worker 1 at 5, 15, ..., 1995 ms
        RunPlan plan = RunPlan.of("run-open", "t", List.of(Target.h2InMemory("h2", "modes1")), POINT, List.of(2), 1,
                Duration.ZERO, Duration.ofSeconds(2), 1).withDriver(null, 200.0, null, 50);
        Run r = run(plan);
        StepResult s = r.result().steps().get(0);
        assertThat(s.openLoop()).isTrue();
        assertThat(s.transactions() + s.errors()).isEqualTo(400);
        List<Sample> samples = r.samples();
        assertThat(samples).hasSize(400);
        assertThat(r.headers().stream().filter(h -> h.sampleCount() > 0).toList()).isNotEmpty()
                .allSatisfy(h -> assertThat(h.openLoop()).isTrue());
        assertThat(samples).allSatisfy(x -> {
            assertThat(x.intendedStartEpochMicros()).isLessThanOrEqualTo(x.startEpochMicros());
            assertThat(x.responseMicros()).isGreaterThanOrEqualTo(x.latencyMicros());
        });
        // the intended starts are the schedule: per worker 10 ms apart, the two workers 5 ms apart
        List<Long> intended = samples.stream().map(Sample::intendedStartEpochMicros).sorted().toList();
        for (int i = 1; i < intended.size(); i++) {
            assertThat(intended.get(i) - intended.get(i - 1)).as("gap %d", i).isBetween(4_999L, 5_001L);
        }
        assertThat(s.coAvgMs()).isGreaterThanOrEqualTo(s.avgMs());
        assertThat(s.coMaxMs()).isGreaterThanOrEqualTo(s.maxMs());
        assertThat(s.summary()).contains("from intended start (ms) avg:");
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("lat-intended (ms,95%):");
    }

    @Test
    void transactionBudget_measuresExactlyThatMany_andEndsEarly() {
        RunPlan plan = RunPlan.of("run-tx", "t", List.of(Target.h2InMemory("h2", "modes2")), POINT, List.of(3), 1,
                Duration.ofMillis(200), Duration.ofSeconds(60), 0).withDriver(777L, null, null, 50);
        long t0 = System.nanoTime();
        Run r = run(plan);
        double secs = (System.nanoTime() - t0) / 1e9;
        StepResult s = r.result().steps().get(0);
        assertThat(s.transactions() + s.errors()).isEqualTo(777);
        assertThat(r.samples().stream().filter(x -> !x.warmup()).count()).isEqualTo(777);
        assertThat(secs).isLessThan(30);
        // the measurement ends with the last transaction, so the rate is over the time it really took
        assertThat(s.tps() * s.measureSeconds()).isCloseTo(s.transactions(), org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void plateau_stopsTheSweepWhenQpsNoLongerRises() {
        // no level can gain 100000%: the sweep stops after the second level, both rounds of each level run
        RunPlan plan = RunPlan.of("run-plateau", "t", List.of(Target.h2InMemory("h2", "modes3")), POINT,
                List.of(1, 2, 4, 8), 2, Duration.ZERO, Duration.ofMillis(300), 0)
                .withDriver(null, null, new Plateau(100_000, 1), 50).withAccept(List.of("rtt", "isolation"));
        Run r = run(plan);
        assertThat(r.result().steps()).extracting(StepResult::threads).containsExactly(1, 1, 2, 2);
        assertThat(r.result().steps()).extracting(StepResult::round).containsExactly(1, 2, 1, 2);
        assertThat(out.toString(StandardCharsets.UTF_8))
                .containsPattern("== plateau: oltp_point_select on 'h2' gained less than 100000\\.0% QPS for 1 level\\(s\\);"
                        + " peak \\d+\\.\\d\\d qps at [12] threads; higher thread counts skipped");
        RunStarted started = (RunStarted) r.events().get(0);
        assertThat(started.settings().plateau()).isEqualTo(new RunSettings.PlateauSetting(100_000, 1));
        assertThat(started.settings().loop()).isEqualTo("closed");
        assertThat(started.settings().accept()).containsExactly("isolation", "rtt");
        assertThat(Json.writeString(started.settings())).doesNotContain("password");
    }

    /**
     * An H2 server over TCP in this JVM (not embedded: the workers only run the client side, the server has threads
     * of its own), and a limit every step exceeds.
     */
    @Test
    void clientCpuOverLimit_flagsTheStep_onConsoleInEventsAndResult() throws Exception {
        org.h2.tools.Server server = org.h2.tools.Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
        try {
            Target h2 = Target.of("h2", "jdbc:h2:tcp://localhost:" + server.getPort() + "/mem:modes4;DB_CLOSE_DELAY=-1",
                    "sa", () -> "");
            RunPlan bound = RunPlan.of("run-bound", "t", List.of(h2), POINT, List.of(2), 1, Duration.ZERO,
                    Duration.ofMillis(1500), 0).withDriver(null, null, null, 0.001).withPrepare(true);
            assertClientBound(run(bound));
            RunPlan free = bound.withRunId("run-free").withDriver(null, null, null, 100);
            StepResult f = run(free).result().steps().get(0);
            assertThat(f.clientBound()).isFalse();
            assertThat(f.summary()).doesNotContain("CLIENT-BOUND");
        } finally {
            server.stop();
        }
    }

    private void assertClientBound(Run r) {
        StepResult s = r.result().steps().get(0);
        assertThat(s.clientBound()).isTrue();
        assertThat(s.maxClientCpuPct()).isGreaterThan(0.001);
        assertThat(s.summary()).contains(String.format(java.util.Locale.ROOT,
                "CLIENT-BOUND (load generator CPU up to %.1f%%)", s.maxClientCpuPct()));
        assertThat(out.toString(StandardCharsets.UTF_8)).containsPattern("!! client-bound: load generator CPU"
                + " \\d+\\.\\d% >= 0\\.0% limit in step 1"
                + " \\(process \\d+\\.\\d%: pipeline \\d+\\.\\d%, JVM \\d+\\.\\d%\\)");
        List<ClientHealth> health = r.events().stream().filter(e -> e instanceof ClientHealth)
                .map(e -> (ClientHealth) e).filter(h -> h.stepId() == 1).toList();
        assertThat(health).isNotEmpty().anySatisfy(h -> {
            assertThat(h.clientBound()).isTrue();
            assertThat(h.processCpuPct()).isGreaterThan(0.001).isLessThanOrEqualTo(100.0);
            // decided on the load generator's own CPU
            assertThat(h.loadGenCpuPct()).isGreaterThanOrEqualTo(0.001).isLessThanOrEqualTo(100.0);
            assertThat(h.producerId()).isEqualTo("p1");
            assertThat(h.gcPauseMs()).isNotNegative();
            assertThat(h.emitBacklogBlocks()).isNotNegative();
        });
        // the SELECT 1 probe reached the target at least once in 1.5 s
        assertThat(health).anySatisfy(h -> assertThat(h.rttMillis()).containsKey("h2"));
    }

    @Test
    void healthProbesTheStepsTarget_onItsOwnConnection() {
        RunPlan plan = RunPlan.of("run-probe", "t", List.of(Target.h2InMemory("a", "modes5"),
                Target.h2InMemory("b", "modes6")), POINT, List.of(1), 1, Duration.ZERO, Duration.ofMillis(1500), 0);
        Run r = run(plan);
        List<ClientHealth> health = r.events().stream().filter(e -> e instanceof ClientHealth)
                .map(e -> (ClientHealth) e).toList();
        for (int step = 1; step <= 2; step++) {
            String target = step == 1 ? "a" : "b";
            assertThat(health.stream().filter(h -> h.stepId() == target.charAt(0) - 'a' + 1)).as(target)
                    .isNotEmpty()
                    .allSatisfy(h -> assertThat(h.rttMillis().keySet()).isSubsetOf(target))
                    .anySatisfy(h -> assertThat(h.rttMillis()).containsOnlyKeys(target)
                            .allSatisfy((name, ms) -> assertThat(ms).isNotNegative().isLessThan(5_000.0)));
        }
    }
}
