package io.tailstream.aggregator.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tailstream.aggregator.AggregatorConfig;
import io.tailstream.aggregator.stall.StallConfig;
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
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.HdrHistogram.Histogram;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Step summaries (version 2) in {@link TopologyTestDriver} against an exact reference computation over the raw
 * samples sent, with the definitions the report uses on the archive: measured = warm-up flag clear, span = the
 * producers' measurement bounds ({@code StepEnded} version 3; several producers: earliest start to latest end),
 * successful = status ok. The steps are simulated closed-loop producers: workers running transactions back to back,
 * starting and ending mid-second, warm-up ending inside a window, 2 % of transactions failing fast, a block arriving
 * after its window closed. QPS, TPS and err/s must be exact (to rounding); percentiles the nearest-rank value's
 * HdrHistogram bucket; trends absent on short steps and equal to a two-pass computation over the whole windows of a
 * long one; no stall from the partial last window or the empty window after the end, with stall rules strict enough
 * (one window below half the baseline is a stall) that either would show.
 */
class ExactSummaryTopologyTest {

    private static final long BASE_MS = 1_700_000_000_000L;
    private static final String RUN = "run-x";
    private static final int STEP = 1;
    private static final List<String> OPS = List.of("read", "write");

    @TempDir
    Path stateDir;

    /** One window under half the baseline declares a throughput stall; the baseline needs 3 windows. */
    private final AggregatorConfig config = AggregatorConfig.defaults()
            .withStalls(new StallConfig(0.5, 1, 3.0, 2, 60, 3));
    private TopologyHarness harness;
    private TestInputTopic<String, byte[]> samplesTopic;
    private TestOutputTopic<String, WindowStats> windows;
    private TestOutputTopic<String, StallEvent> stalls;
    private TestOutputTopic<String, StepSummary> summaries;

    @BeforeEach
    void setUp() {
        harness = new TopologyHarness(config, stateDir, BASE_MS);
        samplesTopic = harness.samples();
        windows = harness.output(Topics.WINDOWS, WindowStats.class);
        stalls = harness.output(Topics.STALLS, StallEvent.class);
        summaries = harness.output(Topics.SUMMARIES, StepSummary.class);
    }

    @AfterEach
    void tearDown() {
        harness.close();
    }

    /**
     * Two producers: p1 from 0.370 s, warm-up 1.5 s (measured 1.870 .. 9.240 s), p2 from 0.610 s (2.110 .. 8.750 s);
     * the step's measured span is 1.870 .. 9.240 s = 7.37 s. p1's last window covers 0.24 s of measurement and its
     * heartbeats make an empty window after the end. The producers' ends arrive before the last windows close, or
     * after them: the same summary and the same (absent) stalls either way.
     */
    @ParameterizedTest(name = "producers'' ends {0} the last windows")
    @ValueSource(strings = {"before", "after"})
    void twoProducers_midSecondBounds_warmupAcrossWindows_fastFailures_lateBlock_summaryIsExact(String order) {
        SimulatedStep p1 = new SimulatedStep(new TestProducer(RUN, "p1"), 1, BASE_MS * 1000 + 370_000, 1_500_000,
                7_370_000, 2);
        SimulatedStep p2 = new SimulatedStep(new TestProducer(RUN, "p2"), 2, BASE_MS * 1000 + 610_000, 1_500_000,
                6_640_000, 3);
        p1.markerAtUs = Math.max(p1.measureEndUs, BASE_MS * 1000 + 10_300_000); // heartbeats until 10.3 s
        // a block of p1's samples completing at 3.00-3.05 s arrives at 7.2 s, after its window closed
        p1.lateBlock(BASE_MS * 1000 + 3_000_000, BASE_MS * 1000 + 3_050_000, BASE_MS * 1000 + 7_200_000);
        harness.sendControl(p1.started());
        harness.sendControl(p2.started());
        List<Timed> inputs = new ArrayList<>();
        inputs.addAll(p1.blocks());
        inputs.addAll(p2.blocks());
        inputs.sort(Comparator.comparingLong(Timed::atUs));
        for (Timed t : inputs) {
            samplesTopic.pipeInput(t.key(), t.bytes());
        }
        if (order.equals("before")) {
            harness.sendControl(p1.ended());
            harness.sendControl(p2.ended());
            harness.advanceWallClockTime(Duration.ofSeconds(15)); // past the last window's end + grace: ticks go out
        } else {
            harness.advanceWallClockTime(Duration.ofSeconds(15));
            assertThat(summaries.readValuesToList()).as("no summary before the producers' ends").isEmpty();
            harness.sendControl(p1.ended());
            harness.sendControl(p2.ended());
        }

        // every window, the mixed ones' measured parts included, against the raw samples
        ExactWindows exact = new ExactWindows(1000);
        exact.addAll(RUN, STEP, OPS, p1.samples);
        exact.addAll(RUN, STEP, OPS, p2.samples);
        List<WindowStats> out = windows.readValuesToList();
        for (WindowStats w : out) {
            List<Sample> raw = exact.windows().get(w.scopeKey()).get(w.windowStartEpochMs());
            if (w.lateCount() > 0) {
                raw = raw.stream().filter(p1.late::contains).toList();
            } else if (raw != null) {
                raw = raw.stream().filter(x -> !p1.late.contains(x)).toList();
            }
            if (w.count() > 0) {
                ExactWindows.assertMatches(w, raw);
            }
        }
        assertThat(out).filteredOn(w -> w.op().equals("*") && w.measured() != null).extracting(
                WindowStats::windowStartEpochMs).containsExactly(BASE_MS + 1000, BASE_MS + 2000);
        assertThat(out).filteredOn(w -> w.op().equals("*") && w.lateCount() > 0).singleElement()
                .satisfies(w -> assertThat(w.windowStartEpochMs()).isEqualTo(BASE_MS + 3000));

        // published once per scope, complete, with the exact figures
        List<StepSummary> published = summaries.readValuesToList();
        assertThat(published).extracting(StepSummary::key).containsExactlyInAnyOrder(key("*"), key("read"),
                key("write"));
        List<Sample> all = new ArrayList<>(p1.samples);
        all.addAll(p2.samples);
        long startUs = p1.measureStartUs;
        long endUs = p1.measureEndUs;
        assertThat(p2.measureStartUs).isGreaterThan(startUs);
        assertThat(p2.measureEndUs).isLessThan(endUs);
        for (StepSummary s : published) {
            Predicate<Sample> inScope = s.op().equals("*") ? x -> true : x -> OPS.get(x.opIndex()).equals(s.op());
            assertExact(s, all.stream().filter(inScope).toList(), startUs, endUs);
            assertThat(s.complete()).isTrue();
            assertThat(s.lateCount()).isEqualTo(p1.late.stream().filter(inScope).count()).isPositive();
            // whole windows: 3..8 s (1 and 2 hold warm-up samples; 9 reaches past the end)
            assertThat(s.trendWindows()).as(s.key()).isEqualTo(6);
            assertThat(s.qpsSlopePctPerHour()).isNull();
            assertThat(s.qpsCv()).isNull();
            assertThat(s.stallCount()).isZero();
        }
        assertThat(published).filteredOn(s -> s.op().equals("*")).singleElement()
                .satisfies(s -> assertThat(s.missingBlocks()).isZero());
        // the step's threads are both producers' (2 + 3), each producer's part as its events said
        for (StepSummary s : published) {
            assertThat(s.threads()).as(s.key()).isEqualTo(5);
            assertThat(s.missingProducers()).isEmpty();
            assertThat(s.producers()).extracting(StepSummary.ProducerPart::producerId, StepSummary.ProducerPart::threads,
                    StepSummary.ProducerPart::ended, StepSummary.ProducerPart::samplesSent,
                    StepSummary.ProducerPart::blocksSent).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("p1", 2, true, (long) p1.samples.size(), p1.blocksSent),
                    org.assertj.core.groups.Tuple.tuple("p2", 3, true, (long) p2.samples.size(), p2.blocksSent));
        }
        // the partial last window (0.24 s of measurement) and the empty one after it made no stall
        assertThat(stalls.readValuesToList()).isEmpty();

        // nothing changes any more: nothing is published again
        harness.advanceWallClockTime(config.stepEndWait().plusSeconds(1));
        assertThat(summaries.readValuesToList()).isEmpty();
    }

    /**
     * A step in which no transaction completes (its workers stuck for the whole step): heartbeats and the end-of-step
     * marker only. Its summaries still go out, complete, over the producer's measured span, with nothing done, so the
     * round is not missing from the run.
     */
    @Test
    void stepWithoutASample_summariesOverItsSpan_withNothingDone() {
        SimulatedStep p1 = new SimulatedStep(new TestProducer(RUN, "p1"), 9, BASE_MS * 1000 + 250_000, 1_000_000,
                5_000_000, 0);
        assertThat(p1.samples).isEmpty();
        harness.sendControl(p1.started());
        p1.blocks().forEach(t -> samplesTopic.pipeInput(t.key(), t.bytes()));
        harness.sendControl(p1.ended());
        harness.advanceWallClockTime(Duration.ofSeconds(15));

        List<StepSummary> published = summaries.readValuesToList();
        assertThat(published).extracting(StepSummary::key).containsExactlyInAnyOrder(key("*"), key("read"),
                key("write"));
        for (StepSummary s : published) {
            assertThat(s.complete()).as(s.key()).isTrue();
            assertThat(s.count()).as(s.key()).isZero();
            assertThat(s.okQueries()).as(s.key()).isZero();
            assertThat(s.qps()).as(s.key()).isZero();
            assertThat(s.tps()).as(s.key()).isZero();
            assertThat(s.spanSource()).as(s.key()).isEqualTo(StepSummary.SPAN_PRODUCER);
            assertThat(s.measureStartEpochMicros()).as(s.key()).isEqualTo(p1.measureStartUs);
            assertThat(s.measureEndEpochMicros()).as(s.key()).isEqualTo(p1.measureEndUs);
            assertThat(s.measuredSeconds()).as(s.key()).isEqualTo((p1.measureEndUs - p1.measureStartUs) / 1e6);
        }
        assertThat(published).filteredOn(s -> s.op().equals("*")).singleElement()
                .satisfies(s -> assertThat(s.missingBlocks()).isZero());
        harness.advanceWallClockTime(config.stepEndWait().plusSeconds(1));
        assertThat(summaries.readValuesToList()).as("nothing published again").isEmpty();
    }

    /**
     * p2 stops before its end-of-step marker and its {@code StepEnded} (killed, or cut off from Kafka). p1's end
     * closes the step; the summary waits {@code stepEndWait}, then goes out incomplete over the windows' span, then
     * once more when p2's end finally arrives with its bounds, and once more when its marker does (complete).
     */
    @Test
    void producerThatNeverEnds_summaryIsPublishedIncompleteAfterTheWait_andAgainWhenItsEndArrives() {
        SimulatedStep p1 = new SimulatedStep(new TestProducer(RUN, "p1"), 3, BASE_MS * 1000 + 250_000, 1_000_000,
                5_000_000, 2);
        SimulatedStep p2 = new SimulatedStep(new TestProducer(RUN, "p2"), 4, BASE_MS * 1000 + 300_000, 1_000_000,
                4_000_000, 1);
        harness.sendControl(p1.started());
        harness.sendControl(p2.started());
        List<Timed> inputs = new ArrayList<>(p1.blocks());
        List<Timed> p2Blocks = p2.blocks();
        inputs.addAll(p2Blocks.subList(0, p2Blocks.size() - 1)); // all but the marker
        inputs.sort(Comparator.comparingLong(Timed::atUs));
        inputs.forEach(t -> samplesTopic.pipeInput(t.key(), t.bytes()));
        harness.sendControl(p1.ended());
        harness.advanceWallClockTime(Duration.ofSeconds(12));
        assertThat(summaries.readValuesToList()).isEmpty();

        harness.advanceWallClockTime(config.stepEndWait());
        Map<String, StepSummary> first = last(summaries.readValuesToList());
        assertThat(first).containsOnlyKeys(key("*"), key("read"), key("write"));
        List<Sample> all = new ArrayList<>(p1.samples);
        all.addAll(p2.samples);
        List<Sample> measured = all.stream().filter(x -> !x.warmup()).toList();
        StepSummary s = first.get(key("*"));
        assertThat(s.complete()).isFalse();
        assertThat(s.missingBlocks()).isEqualTo(-1);
        assertThat(s.missingProducers()).containsExactly("p2");
        assertThat(s.threads()).isEqualTo(3);
        assertThat(s.producers()).extracting(StepSummary.ProducerPart::ended).containsExactly(true, false);
        assertThat(s.spanSource()).isEqualTo(StepSummary.SPAN_WINDOWS);
        // the windows holding measured samples: 1 s (p1's first) to 6 s (p1's last ends at 6.25 s)
        long firstWindowUs = (BASE_MS + 1000) * 1000;
        long lastWindowEndUs = (BASE_MS + 7000) * 1000;
        assertThat(s.measureStartEpochMicros()).isEqualTo(firstWindowUs);
        assertThat(s.measureEndEpochMicros()).isEqualTo(lastWindowEndUs);
        assertThat(s.count()).isEqualTo(measured.size());
        long okQueries = measured.stream().mapToLong(Sample::succeededStatements).sum();
        assertThat(s.qps()).isCloseTo(okQueries / 6.0, within(1e-9));
        assertThat(s.trendWindows()).isPositive();

        // p2's end comes late (a slow producer after all): exact span now, still incomplete (its last blocks and
        // marker never arrived)
        harness.sendControl(p2.ended());
        Map<String, StepSummary> second = last(summaries.readValuesToList());
        assertThat(second).containsOnlyKeys(key("*"), key("read"), key("write"));
        StepSummary t = second.get(key("*"));
        assertThat(t.spanSource()).isEqualTo(StepSummary.SPAN_PRODUCER);
        assertThat(t.complete()).isFalse();
        assertThat(t.missingBlocks()).isPositive();
        assertThat(t.measureStartEpochMicros()).isEqualTo(p1.measureStartUs);
        assertThat(t.measureEndEpochMicros()).isEqualTo(p1.measureEndUs);
        assertThat(t.qps()).isCloseTo(okQueries / ((p1.measureEndUs - p1.measureStartUs) / 1e6), within(1e-9));
        // stalls and trend were decided at the first publication
        assertThat(t.trendWindows()).isEqualTo(s.trendWindows());

        // its marker turns up at last: every block is counted, the step is complete, the figures stand
        Timed marker = p2Blocks.get(p2Blocks.size() - 1);
        samplesTopic.pipeInput(marker.key(), marker.bytes());
        harness.advanceWallClockTime(Duration.ofSeconds(5));
        Map<String, StepSummary> third = last(summaries.readValuesToList());
        assertThat(third).containsOnlyKeys(key("*"), key("read"), key("write"));
        StepSummary u = third.get(key("*"));
        assertThat(u.complete()).isTrue();
        assertThat(u.missingBlocks()).isZero();
        assertThat(u.missingProducers()).isEmpty();
        assertThat(u.qps()).isEqualTo(t.qps());
        assertThat(u.count()).isEqualTo(t.count());
    }

    /**
     * Three producers of one step with 1, 2 and 4 threads, started 0.2, 0.9 and 0.5 s into the step and measuring 3.0,
     * 3.8 and 6.0 s after a 1 s warm-up, delivered as the wall clock passes; p3's sends stall from 3.5 s to 8.5 s
     * (Kafka slow to acknowledge) and its backlog arrives then. p1's and p2's end-of-step ticks go out at 8 s (p1's
     * own would be due at 7 s; ticks of one partition's step go together), when p3's samples of windows 3 to 5 have
     * not arrived yet: they still land in regular windows, because a step's windows close only when every producer
     * of the step ended. Every window and the one summary per scope are exact over the union of the
     * samples; the step's threads are 7, each producer's part as its events said.
     */
    @Test
    void threeProducers_skewedStartsAndEnds_laggingProducer_windowsRegular_summaryIsTheExactUnion() {
        SimulatedStep p1 = new SimulatedStep(new TestProducer(RUN, "p1"), 11, BASE_MS * 1000 + 200_000, 1_000_000,
                3_000_000, 1);
        SimulatedStep p2 = new SimulatedStep(new TestProducer(RUN, "p2"), 12, BASE_MS * 1000 + 900_000, 1_000_000,
                3_800_000, 2);
        SimulatedStep p3 = new SimulatedStep(new TestProducer(RUN, "p3"), 13, BASE_MS * 1000 + 500_000, 1_000_000,
                6_000_000, 4);
        long stallFromUs = BASE_MS * 1000 + 3_500_000;
        long stallUntilUs = BASE_MS * 1000 + 8_500_000;
        List<Delivery> deliveries = new ArrayList<>();
        for (SimulatedStep p : List.of(p1, p2, p3)) {
            deliveries.add(new Delivery(p.startUs - 1, p.startUs - 1, () -> harness.sendControl(p.started())));
            for (Timed t : p.blocks()) {
                long at = p == p3 && t.atUs() >= stallFromUs ? Math.max(t.atUs(), stallUntilUs) : t.atUs();
                deliveries.add(new Delivery(at, t.atUs(), () -> samplesTopic.pipeInput(t.key(), t.bytes())));
            }
            long endAt = p == p3 ? Math.max(p.markerAtUs, stallUntilUs) + 5_000 : p.markerAtUs + 5_000;
            deliveries.add(new Delivery(endAt, endAt, () -> harness.sendControl(p.ended())));
        }
        // the scenario: p2's tick (its last window's end + grace, 8 s) precedes p3's samples of windows 3 to 5
        long p2TickUs = (Math.floorDiv(p2.markerAtUs, 1_000_000L) + 3) * 1_000_000L;
        assertThat(p2TickUs).isEqualTo(BASE_MS * 1000 + 8_000_000);
        assertThat(stallUntilUs).isGreaterThan(p2TickUs);
        assertThat(p3.samples).filteredOn(x -> x.endEpochMicros() >= stallFromUs
                && x.endEpochMicros() < BASE_MS * 1000 + 4_000_000).isNotEmpty();
        deliver(deliveries);
        harness.advanceWallClockTime(Duration.ofSeconds(5)); // p3's tick goes out

        List<Sample> all = new ArrayList<>(p1.samples);
        all.addAll(p2.samples);
        all.addAll(p3.samples);
        ExactWindows exact = new ExactWindows(1000);
        exact.addAll(RUN, STEP, OPS, all);
        List<WindowStats> out = windows.readValuesToList();
        assertThat(out).as("no late correction").allSatisfy(w -> assertThat(w.lateCount()).isZero());
        Map<String, Long> counted = new TreeMap<>();
        for (WindowStats w : out) {
            List<Sample> raw = exact.windows().get(w.scopeKey()).get(w.windowStartEpochMs());
            if (w.count() > 0) {
                ExactWindows.assertMatches(w, raw);
            }
            counted.merge(w.scopeKey(), w.count(), Long::sum);
        }
        assertThat(counted).containsEntry(key("*"), (long) all.size());
        assertThat(out).extracting(w -> w.scopeKey() + "@" + w.windowStartEpochMs()).doesNotHaveDuplicates();

        List<StepSummary> published = summaries.readValuesToList();
        assertThat(published).as("one summary per scope, complete at once").extracting(StepSummary::key)
                .containsExactlyInAnyOrder(key("*"), key("read"), key("write"));
        long startUs = Math.min(p1.measureStartUs, Math.min(p2.measureStartUs, p3.measureStartUs));
        long endUs = Math.max(p1.measureEndUs, Math.max(p2.measureEndUs, p3.measureEndUs));
        for (StepSummary s : published) {
            Predicate<Sample> inScope = s.op().equals("*") ? x -> true : x -> OPS.get(x.opIndex()).equals(s.op());
            assertExact(s, all.stream().filter(inScope).toList(), startUs, endUs);
            assertThat(s.complete()).isTrue();
            assertThat(s.lateCount()).isZero();
            assertThat(s.threads()).isEqualTo(7);
            assertThat(s.missingProducers()).isEmpty();
            assertThat(s.producers()).extracting(StepSummary.ProducerPart::producerId,
                    StepSummary.ProducerPart::threads, StepSummary.ProducerPart::samplesSent,
                    StepSummary.ProducerPart::blocksSent, StepSummary.ProducerPart::outcome).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("p1", 1, (long) p1.samples.size(), p1.blocksSent, "completed"),
                    org.assertj.core.groups.Tuple.tuple("p2", 2, (long) p2.samples.size(), p2.blocksSent, "completed"),
                    org.assertj.core.groups.Tuple.tuple("p3", 4, (long) p3.samples.size(), p3.blocksSent,
                            "completed"));
        }
        assertThat(published).filteredOn(s -> s.op().equals("*")).singleElement()
                .satisfies(s -> assertThat(s.missingBlocks()).isZero());
        harness.advanceWallClockTime(config.stepEndWait().plusSeconds(1));
        assertThat(summaries.readValuesToList()).as("nothing changes any more").isEmpty();
    }

    /**
     * Two producers (2 and 3 threads) delivered as the wall clock passes; p2 dies at 3.5 s: no more blocks, no
     * end-of-step marker, no {@code StepEnded}. p1's end does not close the step's windows; nothing is published
     * until {@code stepEndWait} after p1's tick, then one summary per scope, incomplete, naming p2, whose figures are
     * exactly those of every sample delivered (p1's and p2's until it died), all in regular windows.
     */
    @Test
    void producerThatNeverEnds_stepClosesAfterTheWait_oneIncompleteSummaryNamingIt_figuresExact() {
        SimulatedStep p1 = new SimulatedStep(new TestProducer(RUN, "p1"), 21, BASE_MS * 1000 + 300_000, 1_000_000,
                4_000_000, 2);
        SimulatedStep p2 = new SimulatedStep(new TestProducer(RUN, "p2"), 22, BASE_MS * 1000 + 600_000, 1_000_000,
                6_000_000, 3);
        long diesAtUs = BASE_MS * 1000 + 3_500_000;
        List<Delivery> deliveries = new ArrayList<>();
        deliveries.add(new Delivery(p1.startUs - 1, 0, () -> harness.sendControl(p1.started())));
        deliveries.add(new Delivery(p2.startUs - 1, 0, () -> harness.sendControl(p2.started())));
        p1.blocks().forEach(t -> deliveries.add(new Delivery(t.atUs(), t.atUs(),
                () -> samplesTopic.pipeInput(t.key(), t.bytes()))));
        deliveries.add(new Delivery(p1.markerAtUs + 5_000, 0, () -> harness.sendControl(p1.ended())));
        List<Sample> delivered = new ArrayList<>(p1.samples);
        for (Timed t : p2.blocks()) {
            if (t.atUs() < diesAtUs) {
                deliveries.add(new Delivery(t.atUs(), t.atUs(), () -> samplesTopic.pipeInput(t.key(), t.bytes())));
            }
        }
        delivered.addAll(p2.samplesSealedBefore(diesAtUs));
        deliver(deliveries);
        long p1TickMs = (Math.floorDiv(p1.markerAtUs, 1_000_000L) + 3) * 1000;
        advanceWallClockTo(p1TickMs + 200); // p1's tick goes out: the wait starts
        advanceWallClockTo(p1TickMs + config.stepEndWait().toMillis() - 1_000);
        assertThat(summaries.readValuesToList()).as("p2 is waited for").isEmpty();
        advanceWallClockTo(p1TickMs + config.stepEndWait().toMillis() + 1_000);

        List<WindowStats> out = windows.readValuesToList();
        assertThat(out).as("no late correction").allSatisfy(w -> assertThat(w.lateCount()).isZero());
        ExactWindows exact = new ExactWindows(1000);
        exact.addAll(RUN, STEP, OPS, delivered);
        for (WindowStats w : out) {
            if (w.count() > 0) {
                ExactWindows.assertMatches(w, exact.windows().get(w.scopeKey()).get(w.windowStartEpochMs()));
            }
        }
        List<StepSummary> published = summaries.readValuesToList();
        assertThat(published).as("one summary per scope").extracting(StepSummary::key)
                .containsExactlyInAnyOrder(key("*"), key("read"), key("write"));
        List<Sample> measured = delivered.stream().filter(x -> !x.warmup()).toList();
        for (StepSummary s : published) {
            Predicate<Sample> inScope = s.op().equals("*") ? x -> true : x -> OPS.get(x.opIndex()).equals(s.op());
            List<Sample> scope = measured.stream().filter(inScope).toList();
            List<Sample> ok = scope.stream().filter(x -> x.status() == SampleStatus.OK).toList();
            assertThat(s.complete()).isFalse();
            assertThat(s.missingProducers()).containsExactly("p2");
            assertThat(s.threads()).isEqualTo(5);
            assertThat(s.producers()).extracting(StepSummary.ProducerPart::producerId,
                    StepSummary.ProducerPart::ended).containsExactly(org.assertj.core.groups.Tuple.tuple("p1", true),
                    org.assertj.core.groups.Tuple.tuple("p2", false));
            assertThat(s.spanSource()).isEqualTo(StepSummary.SPAN_WINDOWS);
            assertThat(s.count()).as(s.key()).isEqualTo(scope.size());
            assertThat(s.errors()).isEqualTo(scope.size() - ok.size());
            assertThat(s.queries()).isEqualTo(scope.stream().mapToLong(Sample::queries).sum());
            assertThat(s.okQueries()).isEqualTo(scope.stream().mapToLong(Sample::succeededStatements).sum());
            assertThat(s.tps()).isCloseTo(ok.size() / s.measuredSeconds(), within(1e-9));
            assertThat(LatencyHistograms.fromBase64(s.histogram())).isEqualTo(histogram(ok));
            assertThat(s.lateCount()).isZero();
        }
        assertThat(published).filteredOn(s -> s.op().equals("*")).singleElement()
                .satisfies(s -> assertThat(s.missingBlocks()).isEqualTo(-1));
    }

    /** Something sealed at {@code sealedUs} that reaches the aggregator at {@code atUs}. */
    private record Delivery(long atUs, long sealedUs, Runnable send) {}

    /** Sends each delivery once the driver's wall clock has reached its time, in time order (a backlog as sealed). */
    private void deliver(List<Delivery> deliveries) {
        List<Delivery> sorted = new ArrayList<>(deliveries);
        sorted.sort(Comparator.comparingLong(Delivery::atUs).thenComparingLong(Delivery::sealedUs));
        for (Delivery d : sorted) {
            advanceWallClockTo(Math.floorDiv(d.atUs(), 1000L));
            d.send().run();
        }
    }

    private long wallClockMs = BASE_MS;

    private void advanceWallClockTo(long epochMs) {
        if (epochMs > wallClockMs) {
            harness.advanceWallClockTime(Duration.ofMillis(epochMs - wallClockMs));
            wallClockMs = epochMs;
        }
    }

    /**
     * Eleven minutes of measurement, started and ended mid-second without warm-up, with a known QPS ramp: the trend
     * and jitter are those of a two-pass computation over the whole windows (the first window, where the step
     * started, and the last, partly measured, left out).
     */
    @Test
    void longStep_trendAndJitter_equalATwoPassComputationOverTheWholeWindows() {
        long startUs = BASE_MS * 1000 + 437_000;
        long endUs = startUs + 660_180_000L; // at 660.617 s
        TestProducer producer = new TestProducer(RUN, "p1");
        harness.sendControl(new StepStarted(RUN, BASE_MS, "p1", STEP, null, "oltp_read_write", 1, 1, 0, 660_000, OPS, 2,
                Map.of()));
        Map<Long, Double> wholeQps = new TreeMap<>();
        long blocks = 0;
        long sampleCount = 0;
        SplittableRandom random = new SplittableRandom(5);
        long firstWindowUs = Math.floorDiv(startUs, 1_000_000L) * 1_000_000L;
        for (long w = firstWindowUs; w < endUs; w += 1_000_000L) {
            long from = Math.max(w, startUs);
            long to = Math.min(w + 1_000_000L, endUs);
            // 20 to 42 transactions a second, rising over the step, each completing within its window
            long gap = 1_000_000L / (20 + (w - firstWindowUs) / 33_000_000L + random.nextInt(3));
            List<Sample> batch = new ArrayList<>();
            long okQueries = 0;
            for (long t = from; ; t += gap) {
                long latency = 200 + random.nextInt(800);
                if (t + latency >= to) {
                    break;
                }
                boolean ok = random.nextInt(50) != 0;
                int op = random.nextInt(2);
                batch.add(new Sample(t, ok ? latency : 30, t, op, ok ? SampleStatus.OK : SampleStatus.DEADLOCK,
                        op == 0 ? 1 : 3, false));
                okQueries += Sample.succeededStatements(ok, op == 0 ? 1 : 3);
            }
            if (w > firstWindowUs && w + 1_000_000L <= endUs) {
                wholeQps.put((w - firstWindowUs) / 1000, (double) okQueries);
            }
            send(producer.key(), producer.samples(STEP, OPS, batch, to - 1));
            send(producer.key(), producer.heartbeat(STEP, OPS, to - 1));
            blocks += 2;
            sampleCount += batch.size();
        }
        send(producer.key(), producer.endOfStep(STEP, OPS, endUs + 2_000));
        blocks++;
        harness.sendControl(new StepEnded(RUN, endUs / 1000 + 10, "p1", STEP, sampleCount, blocks, 0, "completed",
                false, 0L, 0L, 0L, startUs, startUs, endUs, 1, 0L, 10.0, 12.0));
        harness.advanceWallClockTime(Duration.ofMillis(endUs / 1000 - BASE_MS + 4_000));

        StepSummary s = last(summaries.readValuesToList()).get(key("*"));
        assertThat(s.complete()).isTrue();
        // windows 1 .. 659 s: the first (the step started 0.437 s into it) and the last (measured until 660.617 s)
        // are not whole
        assertThat(s.trendWindows()).isEqualTo(wholeQps.size()).isEqualTo(659);
        double[] times = wholeQps.keySet().stream().mapToDouble(k -> k / 3_600_000.0).toArray();
        double[] q = wholeQps.values().stream().mapToDouble(Double::doubleValue).toArray();
        double meanT = java.util.Arrays.stream(times).average().orElseThrow();
        double meanQ = java.util.Arrays.stream(q).average().orElseThrow();
        double cov = 0;
        double varT = 0;
        double varQ = 0;
        for (int i = 0; i < q.length; i++) {
            cov += (times[i] - meanT) * (q[i] - meanQ);
            varT += (times[i] - meanT) * (times[i] - meanT);
            varQ += (q[i] - meanQ) * (q[i] - meanQ);
        }
        double slope = cov / varT / meanQ * 100;
        assertThat(s.qpsSlopePctPerHour()).isNotNull().isCloseTo(slope, within(1e-6 * Math.abs(slope)));
        assertThat(slope).as("the ramp is in the series").isGreaterThan(100);
        assertThat(s.qpsCv()).isNotNull().isCloseTo(Math.sqrt(varQ / q.length) / meanQ, within(1e-9));
        assertThat(stalls.readValuesToList()).isEmpty();
    }

    // ---- reference computation ----

    /** Every figure of a version-2 summary against the scope's raw samples and the exact span. */
    private static void assertExact(StepSummary s, List<Sample> scopeSamples, long startUs, long endUs) {
        String what = s.key();
        List<Sample> measured = scopeSamples.stream().filter(x -> !x.warmup()).toList();
        List<Sample> ok = measured.stream().filter(x -> x.status() == SampleStatus.OK).toList();
        List<Sample> failed = measured.stream().filter(x -> x.status() != SampleStatus.OK).toList();
        double seconds = (endUs - startUs) / 1e6;
        long okQueries = measured.stream().mapToLong(Sample::succeededStatements).sum(); // sysbench's rule
        assertThat(s.version()).isEqualTo(StepSummary.VERSION);
        assertThat(s.spanSource()).as(what).isEqualTo(StepSummary.SPAN_PRODUCER);
        assertThat(s.measureStartEpochMicros()).as(what).isEqualTo(startUs);
        assertThat(s.measureEndEpochMicros()).as(what).isEqualTo(endUs);
        assertThat(s.measureStartEpochMs()).isEqualTo(startUs / 1000);
        assertThat(s.measuredSeconds()).as(what).isEqualTo(seconds);
        assertThat(s.count()).as(what + " count").isEqualTo(measured.size());
        assertThat(s.errors()).as(what + " errors").isEqualTo(failed.size()).isPositive();
        assertThat(s.errorsByClass()).as(what).isEqualTo(Map.of("deadlock", (long) failed.size()));
        assertThat(s.queries()).as(what).isEqualTo(measured.stream().mapToLong(Sample::queries).sum());
        assertThat(s.okQueries()).as(what).isEqualTo(okQueries);
        assertThat(s.qps()).as(what + " qps").isCloseTo(okQueries / seconds, within(1e-9 * okQueries / seconds));
        assertThat(s.tps()).as(what + " tps").isCloseTo(ok.size() / seconds, within(1e-9 * ok.size() / seconds));
        assertThat(s.errorsPerSecond()).as(what + " err/s").isCloseTo(failed.size() / seconds, within(1e-9));
        long[] sorted = ok.stream().mapToLong(Sample::latencyMicros).sorted().toArray();
        ExactWindows.assertWithinPrecision(s.p50Micros(), ExactWindows.nearestRank(sorted, 50_000), what + " p50");
        ExactWindows.assertWithinPrecision(s.p90Micros(), ExactWindows.nearestRank(sorted, 90_000), what + " p90");
        ExactWindows.assertWithinPrecision(s.p95Micros(), ExactWindows.nearestRank(sorted, 95_000), what + " p95");
        ExactWindows.assertWithinPrecision(s.p99Micros(), ExactWindows.nearestRank(sorted, 99_000), what + " p99");
        ExactWindows.assertWithinPrecision(s.p999Micros(), ExactWindows.nearestRank(sorted, 99_900), what + " p99.9");
        ExactWindows.assertWithinPrecision(s.p9999Micros(), ExactWindows.nearestRank(sorted, 99_990),
                what + " p99.99");
        ExactWindows.assertWithinPrecision(s.maxMicros(), sorted[sorted.length - 1], what + " max");
        double mean = java.util.Arrays.stream(sorted).average().orElseThrow();
        assertThat(s.meanMicros()).as(what + " mean").isCloseTo(mean, within(mean * 1e-3));
        // the fast failures are apart: they do not make the step look faster
        assertThat(s.p50Micros()).isGreaterThanOrEqualTo(300);
        long[] failedSorted = failed.stream().mapToLong(Sample::latencyMicros).sorted().toArray();
        ExactWindows.assertWithinPrecision(s.errorP99Micros(), ExactWindows.nearestRank(failedSorted, 99_000),
                what + " failed p99");
        ExactWindows.assertWithinPrecision(s.errorMaxMicros(), failedSorted[failedSorted.length - 1],
                what + " failed max");
        double failedMean = java.util.Arrays.stream(failedSorted).average().orElseThrow();
        assertThat(s.errorMeanMicros()).as(what + " failed mean").isCloseTo(failedMean, within(failedMean * 1e-3));
        assertThat(LatencyHistograms.fromBase64(s.histogram())).as(what + " histogram").isEqualTo(histogram(ok));
        assertThat(LatencyHistograms.fromBase64(s.errorHistogram())).as(what + " failed histogram")
                .isEqualTo(histogram(failed));
    }

    private static Histogram histogram(List<Sample> samples) {
        Histogram h = LatencyHistograms.create();
        samples.forEach(x -> LatencyHistograms.record(h, x.latencyMicros()));
        return h;
    }

    // ---- input ----

    /** A block or marker and when the producer sealed it. */
    private record Timed(long atUs, String key, byte[] bytes) {}

    /**
     * One producer's step as its closed-loop workers run it: each worker starts its next transaction when the last
     * completed (plus up to 40 µs), successful transactions take 300-4,000 µs, 2 % fail within 20-90 µs; a sample is
     * warm-up when it started before the measurement start (as the producer flags it); the measurement ends at the
     * nominal end or the last completion, whichever is later. Blocks of at most 150 ms of completions, heartbeats
     * every 200 ms from the step's start until the end-of-step marker.
     */
    private static final class SimulatedStep {
        final TestProducer producer;
        final long startUs;
        final long measureStartUs;
        final long measureEndUs;
        final int workers;
        long markerAtUs;
        /** Every sample, in completion order. */
        final List<Sample> samples = new ArrayList<>();
        final List<Sample> late = new ArrayList<>();
        private long lateAtUs;
        long blocksSent;

        SimulatedStep(TestProducer producer, long seed, long startUs, long warmupUs, long measureUs, int workers) {
            this.producer = producer;
            this.workers = workers;
            this.startUs = startUs;
            this.measureStartUs = startUs + warmupUs;
            long nominalEnd = measureStartUs + measureUs;
            SplittableRandom random = new SplittableRandom(seed);
            long lastEnd = nominalEnd;
            for (int worker = 0; worker < workers; worker++) {
                long t = startUs + worker * 17L;
                while (t < nominalEnd) {
                    boolean ok = random.nextInt(50) != 0;
                    long latency = ok ? 300 + random.nextInt(3_700) : 20 + random.nextInt(70);
                    int op = random.nextInt(2);
                    samples.add(new Sample(t, latency, t, op, ok ? SampleStatus.OK : SampleStatus.DEADLOCK,
                            op == 0 ? 1 : 3, t < measureStartUs));
                    lastEnd = Math.max(lastEnd, t + latency);
                    t += latency + random.nextInt(40);
                }
            }
            samples.sort(Comparator.comparingLong(Sample::endEpochMicros));
            this.measureEndUs = lastEnd;
            this.markerAtUs = lastEnd + 150_000;
        }

        /** The samples in the data blocks sealed before {@code atUs} (a producer that dies then). */
        List<Sample> samplesSealedBefore(long atUs) {
            List<Sample> out = new ArrayList<>();
            List<Sample> block = new ArrayList<>();
            long blockFrom = -1;
            for (Sample x : samples) {
                if (!block.isEmpty() && (x.endEpochMicros() - blockFrom > 150_000 || block.size() == 1024)) {
                    if (block.get(block.size() - 1).endEpochMicros() + 500 < atUs) {
                        out.addAll(block);
                    }
                    block = new ArrayList<>();
                }
                if (block.isEmpty()) {
                    blockFrom = x.endEpochMicros();
                }
                block.add(x);
            }
            if (!block.isEmpty() && block.get(block.size() - 1).endEpochMicros() + 500 < atUs) {
                out.addAll(block);
            }
            return out;
        }

        /** The samples completing in [fromUs, toUs) travel in a block of their own sealed at {@code atUs}. */
        void lateBlock(long fromUs, long toUs, long atUs) {
            samples.stream().filter(x -> x.endEpochMicros() >= fromUs && x.endEpochMicros() < toUs)
                    .forEach(late::add);
            lateAtUs = atUs;
        }

        StepStarted started() {
            return new StepStarted(RUN, startUs / 1000, producer.key().substring(RUN.length() + 1), STEP, null,
                    "oltp_read_write", workers, 1, 1_500, 7_000, OPS, 2, Map.of());
        }

        StepEnded ended() {
            return new StepEnded(RUN, markerAtUs / 1000 + 5, producer.key().substring(RUN.length() + 1), STEP,
                    samples.size(), blocksSent, samples.stream().filter(x -> x.status().isError()).count(),
                    StepEnded.COMPLETED, false, 0L, 0L, 0L, startUs, measureStartUs, measureEndUs, workers, 0L, 30.0,
                    40.0);
        }

        /** Data blocks, heartbeats and, last, the end-of-step marker. */
        List<Timed> blocks() {
            List<Timed> out = new ArrayList<>();
            List<Sample> block = new ArrayList<>();
            long blockFrom = -1;
            for (Sample x : samples) {
                if (late.contains(x)) {
                    continue;
                }
                if (!block.isEmpty() && (x.endEpochMicros() - blockFrom > 150_000 || block.size() == 1024)) {
                    out.add(data(block));
                    block = new ArrayList<>();
                }
                if (block.isEmpty()) {
                    blockFrom = x.endEpochMicros();
                }
                block.add(x);
            }
            if (!block.isEmpty()) {
                out.add(data(block));
            }
            if (!late.isEmpty()) {
                out.add(new Timed(lateAtUs, producer.key(), producer.samples(STEP, OPS, late, lateAtUs)));
                blocksSent++;
            }
            for (long hb = startUs; hb < markerAtUs; hb += 200_000) {
                out.add(new Timed(hb, producer.key(), producer.heartbeat(STEP, OPS, hb)));
                blocksSent++;
            }
            out.add(new Timed(markerAtUs, producer.key(), producer.endOfStep(STEP, OPS, markerAtUs)));
            blocksSent++;
            return out;
        }

        private Timed data(List<Sample> block) {
            long sealedAt = block.get(block.size() - 1).endEpochMicros() + 500;
            blocksSent++;
            return new Timed(sealedAt, producer.key(), producer.samples(STEP, OPS, block, sealedAt));
        }
    }

    private void send(String key, byte[] block) {
        samplesTopic.pipeInput(key, block);
    }

    private static Map<String, StepSummary> last(List<StepSummary> published) {
        Map<String, StepSummary> out = new LinkedHashMap<>();
        published.forEach(s -> out.put(s.key(), s));
        return out;
    }

    private static String key(String op) {
        return RUN + "/" + STEP + "/" + op;
    }
}
