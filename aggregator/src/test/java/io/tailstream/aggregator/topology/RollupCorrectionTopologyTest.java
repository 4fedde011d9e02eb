package io.tailstream.aggregator.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.aggregator.AggregatorConfig;
import io.tailstream.aggregator.testing.TestProducer;
import io.tailstream.aggregator.testing.TopologyHarness;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.WindowStats;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Late corrections and roll-ups ({@link TopologyTestDriver}): summing counts per (scope, roll-up window) gives every
 * sample, whether a late correction arrives while its roll-up is open, after it was emitted, or after the scope
 * ended; and end-of-step marker copies read before the data (a restart's replay) do not turn the data late.
 */
class RollupCorrectionTopologyTest {

    /** Aligned to an epoch minute; all event times are relative to it. */
    private static final long BASE_MS = 1_700_000_040_000L;
    private static final String RUN = "run-r";
    private static final int STEP = 1;
    private static final List<String> OPS = List.of("read", "write");
    private static final long TEN_S = 10_000;
    private static final long MINUTE = 60_000;

    @TempDir
    Path stateDir;

    private final AggregatorConfig config = AggregatorConfig.defaults()
            .withRollups(List.of(Duration.ofSeconds(10), Duration.ofSeconds(60)));
    private TopologyHarness harness;
    private TestInputTopic<String, byte[]> samples;
    private TestOutputTopic<String, WindowStats> windows;
    private final Random random = new Random(42);
    /** Samples sent, per scope key and second. */
    private final Map<String, Map<Long, Long>> sent = new TreeMap<>();

    @BeforeEach
    void setUp() {
        assertThat(BASE_MS % MINUTE).isZero();
        harness = new TopologyHarness(config, stateDir, BASE_MS);
        samples = harness.samples();
        windows = harness.output(Topics.WINDOWS, WindowStats.class);
    }

    @AfterEach
    void tearDown() {
        harness.close();
    }

    @Test
    void lateCorrectionsOfClosedRollups_becomeRollupCorrections_andEveryRollupWindowSumsToItsSamples() {
        TestProducer p = new TestProducer(RUN, "p1");
        // seconds 0..24 on time, then heartbeats to 26 s: base windows up to 23 s closed, the 10 s roll-ups [0,10)
        // and [10,20) emitted, [20,30) and the minute [0,60) open
        for (int second = 0; second < 25; second++) {
            sendSamples(p, second, 20 + random.nextInt(30));
        }
        samples.pipeInput(p.key(), p.heartbeat(STEP, OPS, (BASE_MS + 26_000) * 1000));
        List<WindowStats> out = new ArrayList<>(windows.readValuesToList());
        assertThat(rollups(out, TEN_S)).extracting(WindowStats::windowStartEpochMs)
                .containsOnly(BASE_MS, BASE_MS + TEN_S);

        // late: second 3 and 15 (10 s roll-ups emitted), second 21 (its 10 s roll-up still open)
        sendSamples(p, 3, 7);
        sendSamples(p, 15, 5);
        sendSamples(p, 21, 4);
        List<WindowStats> late = windows.readValuesToList();
        out.addAll(late);
        assertThat(late).allSatisfy(w -> assertThat(w.lateCount()).isEqualTo(w.count()).isPositive());
        // two roll-up corrections per scope (seconds 3 and 15), none for second 21 (merged into its open roll-up)
        assertThat(rollups(late, TEN_S)).hasSize(2 * 3).extracting(WindowStats::windowStartEpochMs)
                .containsOnly(BASE_MS, BASE_MS + TEN_S);
        assertThat(rollups(late, MINUTE)).isEmpty();

        // the step ends: every open roll-up is emitted; then one more late correction after the scope ended
        samples.pipeInput(p.key(), p.endOfStep(STEP, OPS, (BASE_MS + 26_100) * 1000));
        harness.advanceWallClockTime(Duration.ofSeconds(30));
        sendSamples(p, 8, 3);
        samples.pipeInput(p.key(), p.heartbeat(STEP + 1, OPS, (BASE_MS + 40_000) * 1000));
        List<WindowStats> rest = windows.readValuesToList();
        out.addAll(rest);
        assertThat(rollups(rest, MINUTE)).filteredOn(w -> w.lateCount() == w.count()).hasSize(3);

        for (long size : List.of(TEN_S, MINUTE)) {
            Map<String, Long> expected = new TreeMap<>();
            sent.forEach((scope, perSecond) -> perSecond.forEach((second, n) -> expected.merge(
                    scope + "@" + (BASE_MS + second * 1000 - Math.floorMod(second * 1000, size)), n, Long::sum)));
            Map<String, Long> actual = new TreeMap<>();
            for (WindowStats w : rollups(out, size)) {
                actual.merge(w.scopeKey() + "@" + w.windowStartEpochMs(), w.count(), Long::sum);
            }
            assertThat(actual).as("roll-ups of " + size + " ms").isEqualTo(expected);
        }
        // the base windows account for every sample too
        Map<String, Long> base = new TreeMap<>();
        for (WindowStats w : out) {
            if (w.windowEndEpochMs() - w.windowStartEpochMs() == 1000) {
                base.merge(w.scopeKey(), w.count(), Long::sum);
            }
        }
        Map<String, Long> total = new TreeMap<>();
        sent.forEach((scope, perSecond) -> total.put(scope, perSecond.values().stream().mapToLong(n -> n).sum()));
        assertThat(base).isEqualTo(total);
    }

    @Test
    void markerCopyReadBeforeTheData_doesNotTurnTheDataIntoLateCorrections() {
        TestProducer p = new TestProducer(RUN, "p1");
        // a replay after a restart: the stage-1 task of a partition that carries only this producer's end-of-step
        // marker copy reads it long before the task of the producer's own partition has replayed the step's data
        samples.pipeInput(p.key(), p.endOfStep(STEP, OPS, (BASE_MS + 30_000) * 1000));
        for (int second = 0; second < 30; second++) {
            sendSamples(p, second, 10 + random.nextInt(10));
        }
        samples.pipeInput(p.key(), p.endOfStep(STEP, OPS, (BASE_MS + 30_100) * 1000));
        harness.advanceWallClockTime(Duration.ofSeconds(60));
        List<WindowStats> out = windows.readValuesToList();
        List<WindowStats> base = out.stream().filter(w -> w.windowEndEpochMs() - w.windowStartEpochMs() == 1000)
                .toList();
        assertThat(base).allSatisfy(w -> assertThat(w.lateCount()).as(w.scopeKey() + " " + w.windowStartEpochMs())
                .isZero());
        assertThat(base.stream().filter(w -> w.op().equals(WindowStats.ALL_OPS)).count()).isEqualTo(30);
        assertThat(rollups(out, TEN_S)).hasSize(3 * 3).allSatisfy(w -> assertThat(w.lateCount()).isZero());
        long all = sent.get(WindowStats.scopeKey(RUN, STEP, WindowStats.ALL_OPS)).values().stream()
                .mapToLong(n -> n).sum();
        assertThat(base.stream().filter(w -> w.op().equals(WindowStats.ALL_OPS)).mapToLong(WindowStats::count).sum())
                .isEqualTo(all);
    }

    /** {@code n} samples completing in second {@code second}, alternating ops; sealed just after that second. */
    private void sendSamples(TestProducer p, int second, int n) {
        List<Sample> batch = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long end = (BASE_MS + second * 1000L) * 1000 + 1000 + (long) i * 900_000 / n;
            long latency = 100 + random.nextInt(900);
            int op = i % 2;
            batch.add(new Sample(end - latency, latency, end - latency, op, SampleStatus.OK, 1, false));
            sent.computeIfAbsent(WindowStats.scopeKey(RUN, STEP, OPS.get(op)), k -> new TreeMap<>())
                    .merge((long) second, 1L, Long::sum);
            sent.computeIfAbsent(WindowStats.scopeKey(RUN, STEP, WindowStats.ALL_OPS), k -> new TreeMap<>())
                    .merge((long) second, 1L, Long::sum);
        }
        samples.pipeInput(p.key(), p.samples(STEP, OPS, batch, (BASE_MS + second * 1000L + 999) * 1000));
    }

    private static List<WindowStats> rollups(List<WindowStats> out, long sizeMs) {
        return out.stream().filter(w -> w.windowEndEpochMs() - w.windowStartEpochMs() == sizeMs).toList();
    }
}
