package io.tailstream.producer.driver;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.producer.target.Target;
import io.tailstream.producer.target.TargetConnections;
import io.tailstream.producer.time.Clock;
import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** The driver's figures against an exact computation from the samples it wrote, with a scripted workload on H2. */
class StepDriverH2IntegrationTest {

    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final PrintStream console = new PrintStream(out, true, StandardCharsets.UTF_8);

    StepResult run(StepSpec spec, String database, RecordingEmission emission) {
        try (TargetConnections tc = TargetConnections.open(Target.h2InMemory("h2", database), spec.threads() + 1)) {
            return new StepDriver(Clock.system(), console).run(spec, tc.dataSource(), tc.dialect(), emission);
        }
    }

    @Test
    void aSessionsPause_comesBetweenTransactions_outsideTheirLatency_andEndsWithTheStep() {
        // 100 ms before every transaction: in a measurement of 1 s the worker runs at most 10, each starting at least
        // 100 ms after the one before it ended (the pause inside a latency would leave no gap)
        long pauseMicros = 100_000;
        StepSpec spec = new StepSpec(1, "h2", new PausedWorkload(pauseMicros * 1000), 1, 1, Duration.ZERO,
                Duration.ofSeconds(1), 0, Set.of());
        RecordingEmission emission = new RecordingEmission();
        run(spec, "driver-pause", emission);
        List<Sample> samples = emission.samples();
        assertThat(samples).isNotEmpty().hasSizeLessThanOrEqualTo(10);
        for (int i = 1; i < samples.size(); i++) {
            assertThat(samples.get(i).startEpochMicros() - samples.get(i - 1).endEpochMicros())
                    .as("gap before transaction %d", i).isGreaterThanOrEqualTo(pauseMicros - 1);
        }
        // a pause far longer than the step ends with the step, not after it
        long started = System.nanoTime();
        StepResult longPause = run(new StepSpec(2, "h2", new PausedWorkload(3_600_000_000_000L), 2, 1, Duration.ZERO,
                Duration.ofMillis(300), 0, Set.of()), "driver-long-pause", new RecordingEmission());
        assertThat(longPause.transactions()).isZero();
        assertThat(System.nanoTime() - started).as("ns until the step returned").isLessThan(60_000_000_000L);
    }

    @Test
    void failedTransactions_countedApart_neverInThePercentiles_throughputIsWorkDone() {
        // every 4th transaction of a worker fails at its 2nd of 3 statements with a deadlock (ignored): exactly 400
        // measured transactions, so at least one worker measures 200 and fails at least 50 of them
        ScriptedWorkload workload = new ScriptedWorkload(3, 4, 2, "40001");
        StepSpec spec = new StepSpec(1, "h2", workload, 2, 1, Duration.ofMillis(50), Duration.ofSeconds(60), 1,
                Set.of(SampleStatus.DEADLOCK), 400L, null);
        RecordingEmission emission = new RecordingEmission();
        StepResult r = run(spec, "driver-failures", emission);

        List<Sample> measured = emission.samples().stream().filter(s -> !s.warmup()).toList();
        List<Sample> ok = measured.stream().filter(s -> s.status() == SampleStatus.OK).toList();
        List<Sample> failed = measured.stream().filter(s -> s.status() != SampleStatus.OK).toList();
        assertThat(measured).hasSize(400);
        assertThat(failed).isNotEmpty().allSatisfy(s -> {
            assertThat(s.status()).isEqualTo(SampleStatus.DEADLOCK);
            assertThat(s.queries()).isEqualTo(2);
        });
        assertThat(r.transactions()).isEqualTo(ok.size());
        assertThat(r.errors()).isEqualTo(failed.size());
        // statements that succeeded: all 3 of a successful transaction, the 1 before the failing one of a failed one
        long succeededStatements = ok.stream().mapToLong(Sample::queries).sum()
                + failed.stream().mapToLong(s -> s.queries() - 1).sum();
        assertThat(r.queries()).isEqualTo(succeededStatements).isEqualTo(3L * ok.size() + failed.size());
        double secs = r.phases().measuredMicros() / 1e6;
        assertThat(r.measureSeconds()).isEqualTo(secs);
        assertThat(r.tps()).isEqualTo(ok.size() / secs);
        assertThat(r.qps()).isEqualTo(succeededStatements / secs);
        assertThat(r.errorsPerSecond()).isEqualTo(failed.size() / secs);

        // percentiles over the successful transactions only, exactly as HdrHistogram computes them
        Histogram h = LatencyHistograms.create();
        ok.forEach(s -> LatencyHistograms.record(h, s.latencyMicros()));
        assertThat(r.avgMs()).isEqualTo(h.getMean() / 1000.0);
        assertThat(r.p95Ms()).isEqualTo(h.getValueAtPercentile(95) / 1000.0);
        assertThat(r.p99Ms()).isEqualTo(h.getValueAtPercentile(99) / 1000.0);
        assertThat(r.maxMs()).isEqualTo(h.getMaxValue() / 1000.0);
        // the failed ones apart: count by class, exact mean and max
        assertThat(r.failures().byClass()).isEqualTo(Map.of("deadlock", (long) failed.size()));
        assertThat(r.failures().avgMs()).isCloseTo(failed.stream().mapToLong(Sample::latencyMicros).average()
                .orElseThrow() / 1000.0, Offset.offset(1e-12));
        assertThat(r.failures().maxMs()).isEqualTo(failed.stream().mapToLong(Sample::latencyMicros).max()
                .orElseThrow() / 1000.0);
        assertThat(r.summary()).contains("errors: " + failed.size() + " (err/s: ")
                .contains("; deadlock " + failed.size() + "; failed lat (ms) avg: ");
    }

    @Test
    void phases_areTheExactSpan_everySampleOnItsSide() {
        StepSpec spec = new StepSpec(1, "h2", ScriptedWorkload.clean(1), 2, 1, Duration.ofMillis(300),
                Duration.ofMillis(700), 0, Set.of());
        RecordingEmission emission = new RecordingEmission();
        StepResult r = run(spec, "driver-phases", emission);
        StepResult.Phases p = r.phases();

        List<Sample> samples = emission.samples();
        List<Sample> warmup = samples.stream().filter(Sample::warmup).toList();
        List<Sample> measured = samples.stream().filter(s -> !s.warmup()).toList();
        assertThat(warmup).isNotEmpty().allSatisfy(s -> assertThat(s.startEpochMicros())
                .isGreaterThanOrEqualTo(p.startEpochMicros()).isLessThan(p.measureStartEpochMicros()));
        assertThat(measured).isNotEmpty().allSatisfy(s -> {
            assertThat(s.startEpochMicros()).isGreaterThanOrEqualTo(p.measureStartEpochMicros())
                    .isLessThan(p.measureEndEpochMicros());
            assertThat(s.endEpochMicros()).isLessThanOrEqualTo(p.measureEndEpochMicros());
        });
        assertThat(p.measureStartEpochMicros() - p.startEpochMicros()).isEqualTo(300_000);
        assertThat(p.measuredMicros()).isGreaterThanOrEqualTo(700_000);
        double exact = measured.size() / ((p.measureEndEpochMicros() - p.measureStartEpochMicros()) / 1e6);
        assertThat(r.tps()).isCloseTo(exact, Offset.offset(exact * 1e-9));
    }
}
