package io.tailstream.aggregator.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tailstream.aggregator.AggregatorConfig;
import io.tailstream.aggregator.testing.ExactWindows;
import io.tailstream.aggregator.testing.TestProducer;
import io.tailstream.aggregator.testing.TopologyHarness;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.StallEvent;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.StepSummary;
import io.tailstream.schemas.event.WindowStats;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stage 3 of {@link AggregatorTopology} in {@link TopologyTestDriver}: one step with warm-up, a 3 s hard stall, a
 * lost block, a late block and 10 s roll-ups, from a producer that does not report its measurement bounds; stalls,
 * roll-ups and the step summary are checked against exact computations over the samples sent. Exact spans, mixed
 * windows and trends: {@code ExactSummaryTopologyTest}.
 */
class StepAnalysisTopologyTest {

    private static final long BASE_MS = 1_700_000_000_000L;
    private static final String RUN = "run-s";
    private static final int STEP = 4;
    private static final List<String> OPS = List.of("read", "write");

    @TempDir
    Path stateDir;

    private final AggregatorConfig config = AggregatorConfig.defaults().withRollups(List.of(Duration.ofSeconds(10)));
    private TopologyHarness harness;
    private TestInputTopic<String, byte[]> samples;
    private TestOutputTopic<String, WindowStats> windows;
    private TestOutputTopic<String, StallEvent> stalls;
    private TestOutputTopic<String, StepSummary> summaries;
    private final TestProducer producer = new TestProducer(RUN, "p1");
    private long blocksSent;

    @BeforeEach
    void setUp() {
        harness = new TopologyHarness(config, stateDir, BASE_MS);
        samples = harness.samples();
        windows = harness.output(Topics.WINDOWS, WindowStats.class);
        stalls = harness.output(Topics.STALLS, StallEvent.class);
        summaries = harness.output(Topics.SUMMARIES, StepSummary.class);
    }

    @AfterEach
    void tearDown() {
        harness.close();
    }

    @Test
    void step_withWarmupHardStallLostAndLateBlocks_stallsRollupsAndSummaryMatchExactComputation() {
        harness.sendControl(new StepStarted(RUN, BASE_MS, "p1", STEP, null, "oltp_write_only", 4, 1, 2000, 18000,
                OPS, 2, Map.of()));
        ExactWindows exact = new ExactWindows(1000);
        List<Sample> measured = new ArrayList<>();
        Map<Long, Double> windowQps = new TreeMap<>();
        for (int w = 0; w < 20; w++) {
            long windowMs = BASE_MS + w * 1000L;
            if (w >= 12 && w < 15) { // hard stall: the producer is alive, nothing completes
                for (int hb = 0; hb < 4; hb++) {
                    send(producer.heartbeat(STEP, OPS, (windowMs + hb * 250) * 1000));
                }
                windowQps.put(windowMs, 0.0);
                continue;
            }
            List<Sample> batch = window(w, w < 2);
            if (w == 5) { // the second half of window 5 is a block lost on the way
                producer.samples(STEP, OPS, batch.subList(50, 100), (windowMs + 950) * 1000);
                blocksSent++;
                batch = batch.subList(0, 50);
            }
            send(producer.samples(STEP, OPS, batch, (windowMs + 900) * 1000));
            send(producer.heartbeat(STEP, OPS, (windowMs + 950) * 1000));
            exact.addAll(RUN, STEP, OPS, batch);
            if (w >= 2) {
                measured.addAll(batch);
                windowQps.put(windowMs, batch.stream().mapToLong(Sample::succeededStatements).sum() / 1.0);
            }
        }
        // a block for window 3, long closed: a late correction counted in the summary's lateCount
        List<Sample> late = List.of(new Sample((BASE_MS + 3500) * 1000, 4321, (BASE_MS + 3500) * 1000, 1,
                SampleStatus.OK, 3, false));
        send(producer.samples(STEP, OPS, late, (BASE_MS + 19_960) * 1000));
        measured.addAll(late);
        send(producer.endOfStep(STEP, OPS, (BASE_MS + 19_990) * 1000));
        harness.sendControl(new StepEnded(RUN, BASE_MS + 20_000, "p1", STEP, exact.totalSamples(scope("*")) + 1,
                blocksSent, 0, "completed"));
        harness.advanceWallClockTime(Duration.ofSeconds(23)); // past the last window's end + grace: ticks go out

        List<WindowStats> out = windows.readValuesToList();
        List<WindowStats> base = out.stream().filter(w -> w.windowEndEpochMs() - w.windowStartEpochMs() == 1000)
                .toList();
        assertThat(base).filteredOn(w -> w.op().equals("*") && w.lateCount() == 0).hasSize(20);
        for (WindowStats w : base) {
            if (w.lateCount() == 0 && w.count() > 0) {
                ExactWindows.assertMatches(w, exact.windows().get(w.scopeKey()).get(w.windowStartEpochMs()));
            }
        }
        assertThat(base).filteredOn(w -> w.lateCount() > 0 && w.op().equals("*")).singleElement()
                .satisfies(w -> {
                    assertThat(w.windowStartEpochMs()).isEqualTo(BASE_MS + 3000);
                    assertThat(w.count()).isEqualTo(1);
                });

        // roll-ups: 10 s windows merged from the base windows' histograms; the late sample came after the first
        // roll-up was out, so it is a roll-up late correction of that roll-up holding only it
        List<WindowStats> allRollups = out.stream()
                .filter(w -> w.windowEndEpochMs() - w.windowStartEpochMs() == 10_000).toList();
        assertThat(allRollups).filteredOn(w -> w.lateCount() > 0 && w.op().equals("*")).singleElement()
                .satisfies(w -> {
                    assertThat(w.windowStartEpochMs()).isEqualTo(BASE_MS);
                    ExactWindows.assertMatches(w, late);
                    assertThat(w.lateCount()).isEqualTo(1);
                });
        Map<String, List<WindowStats>> rollups = allRollups.stream().filter(w -> w.lateCount() == 0)
                .collect(Collectors.groupingBy(WindowStats::op));
        assertThat(rollups).containsOnlyKeys("read", "write", "*");
        List<Sample> firstTen = new ArrayList<>(exact.windows().get(scope("*")).subMap(BASE_MS, BASE_MS + 10_000)
                .values().stream().flatMap(List::stream).toList());
        ExactWindows.assertMatches(rollups.get("*").get(0), firstTen);
        List<Sample> secondTen = exact.windows().get(scope("*")).subMap(BASE_MS + 10_000, BASE_MS + 20_000)
                .values().stream().flatMap(List::stream).toList();
        ExactWindows.assertMatches(rollups.get("*").get(1), secondTen);

        // stalls: the hard stall, open while it lasts (three windows), then closed; nothing else
        List<StallEvent> events = stalls.readValuesToList();
        assertThat(events).extracting(StallEvent::open).containsExactly(true, true, true, false);
        assertThat(events).allSatisfy(e -> {
            assertThat(e.kind()).isEqualTo(StallEvent.HARD);
            assertThat(e.startEpochMs()).isEqualTo(BASE_MS + 12_000);
        });
        StallEvent closed = events.get(3);
        assertThat(closed.endEpochMs()).isEqualTo(BASE_MS + 15_000);
        assertThat(closed.affectedOps()).containsExactly("read", "write");
        assertThat(closed.baselineQps()).isEqualTo(median(windowQps, BASE_MS + 2000, BASE_MS + 12_000));

        // a block is missing: the summaries wait for it, then go out incomplete after the wait
        assertThat(summaries.readValuesToList()).isEmpty();
        harness.advanceWallClockTime(config.stepEndWait());
        Map<String, StepSummary> last = new LinkedHashMap<>();
        List<StepSummary> published = summaries.readValuesToList();
        published.forEach(s -> last.put(s.key(), s));
        assertThat(published).hasSize(3); // once per scope
        assertThat(last).containsOnlyKeys(RUN + "/" + STEP + "/*", RUN + "/" + STEP + "/read",
                RUN + "/" + STEP + "/write");
        StepSummary s = last.get(RUN + "/" + STEP + "/*");
        assertThat(s.complete()).isFalse();
        assertThat(s.missingBlocks()).isEqualTo(1);
        // a producer before StepEnded version 3: the span is the windows holding measured samples, 2..19
        assertThat(s.spanSource()).isEqualTo(StepSummary.SPAN_WINDOWS);
        assertThat(s.measureStartEpochMs()).isEqualTo(BASE_MS + 2000);
        assertThat(s.measureEndEpochMs()).isEqualTo(BASE_MS + 20_000);
        assertThat(s.measuredSeconds()).isEqualTo(18.0);
        assertThat(s.count()).isEqualTo(measured.size());
        List<Sample> ok = measured.stream().filter(x -> !x.status().isError()).toList();
        List<Sample> failed = measured.stream().filter(x -> x.status().isError()).toList();
        long okQueries = measured.stream().mapToLong(Sample::succeededStatements).sum();
        assertThat(s.queries()).isEqualTo(measured.stream().mapToLong(Sample::queries).sum());
        assertThat(s.okQueries()).isEqualTo(okQueries);
        assertThat(s.qps()).isEqualTo(okQueries / 18.0);
        assertThat(s.errors()).isEqualTo(failed.size()).isPositive();
        assertThat(s.tps()).isEqualTo(ok.size() / 18.0);
        assertThat(s.errorsPerSecond()).isEqualTo(failed.size() / 18.0);
        long[] sorted = ok.stream().mapToLong(Sample::latencyMicros).sorted().toArray();
        ExactWindows.assertWithinPrecision(s.p50Micros(), ExactWindows.nearestRank(sorted, 50_000), "p50");
        ExactWindows.assertWithinPrecision(s.p99Micros(), ExactWindows.nearestRank(sorted, 99_000), "p99");
        ExactWindows.assertWithinPrecision(s.p999Micros(), ExactWindows.nearestRank(sorted, 99_900), "p99.9");
        ExactWindows.assertWithinPrecision(s.maxMicros(), sorted[sorted.length - 1], "max");
        long[] failedSorted = failed.stream().mapToLong(Sample::latencyMicros).sorted().toArray();
        ExactWindows.assertWithinPrecision(s.errorP99Micros(), ExactWindows.nearestRank(failedSorted, 99_000),
                "failed p99");
        ExactWindows.assertWithinPrecision(s.errorMaxMicros(), failedSorted[failedSorted.length - 1], "failed max");
        assertThat(s.stallCount()).isEqualTo(1);
        assertThat(s.stallMs()).isEqualTo(3000);
        assertThat(s.lateCount()).isEqualTo(1);
        assertThat(s.errorsByClass()).isEqualTo(Map.of("deadlock", (long) failed.size()));
        // 18 windows are far from the ten minutes a trend needs; the last window is not known whole without the
        // producer's measurement end, so 17 whole windows
        assertThat(s.qpsSlopePctPerHour()).isNull();
        assertThat(s.qpsCv()).isNull();
        assertThat(s.trendWindows()).isEqualTo(17);
        // the op summaries count their own samples
        assertThat(last.get(RUN + "/" + STEP + "/read").count() + last.get(RUN + "/" + STEP + "/write").count())
                .isEqualTo(measured.size());
        // block accounting is the step's: only the "*" summary carries it
        assertThat(last.get(RUN + "/" + STEP + "/read").missingBlocks()).isEqualTo(-1);
        assertThat(last.get(RUN + "/" + STEP + "/read").complete()).isFalse();
        // nothing changes any more: no republication
        harness.advanceWallClockTime(config.stepEndWait());
        assertThat(summaries.readValuesToList()).isEmpty();
    }

    private static double median(Map<Long, Double> qps, long from, long to) {
        double[] v = qps.entrySet().stream().filter(e -> e.getKey() >= from && e.getKey() < to)
                .mapToDouble(Map.Entry::getValue).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** 100 samples completing inside window {@code w}; deterministic latencies, ops, statuses. */
    private static List<Sample> window(int w, boolean warmup) {
        List<Sample> batch = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            long start = (BASE_MS + w * 1000L) * 1000 + i * 9000L;
            long latency = 1000 + ((w * 100L + i) * 7919) % 5000;
            int op = i % 2;
            SampleStatus status = i == 37 ? SampleStatus.DEADLOCK : SampleStatus.OK;
            batch.add(new Sample(start, latency, start, op, status, op == 0 ? 1 : 3, warmup));
        }
        return batch;
    }

    private void send(byte[] block) {
        blocksSent++;
        samples.pipeInput(producer.key(), block);
    }

    private static String scope(String op) {
        return WindowStats.scopeKey(RUN, STEP, op);
    }
}
