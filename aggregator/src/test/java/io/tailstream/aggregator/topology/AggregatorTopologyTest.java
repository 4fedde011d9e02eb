package io.tailstream.aggregator.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.aggregator.AggregatorConfig;
import io.tailstream.aggregator.testing.ExactWindows;
import io.tailstream.aggregator.testing.TestProducer;
import io.tailstream.aggregator.testing.TopologyHarness;
import io.tailstream.aggregator.window.LatencyBuckets;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.WindowStats;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The topology of {@link AggregatorTopology#build} in {@link TopologyTestDriver}, with explicit event times at window
 * edges, grace and late data. Every figure is checked against {@link ExactWindows}.
 */
class AggregatorTopologyTest {

    /** Aligned to an epoch second; all event times are relative to it. */
    private static final long BASE_MS = 1_700_000_000_000L;
    private static final String RUN = "run-1";
    private static final int STEP = 3;
    private static final List<String> OPS = List.of("point_select", "read_write");

    @TempDir
    Path stateDir;

    private final AggregatorConfig config = AggregatorConfig.defaults();
    private TopologyHarness harness;
    private TestInputTopic<String, byte[]> samples;
    private TestOutputTopic<String, WindowStats> windows;
    private TestOutputTopic<byte[], byte[]> deadLetters;

    @BeforeEach
    void setUp() {
        harness = new TopologyHarness(config, stateDir, BASE_MS,
                Map.of(StreamsConfig.InternalConfig.EMIT_INTERVAL_MS_KSTREAMS_WINDOWED_AGGREGATION, 0L));
        samples = harness.samples();
        windows = harness.output(Topics.WINDOWS, WindowStats.class);
        deadLetters = harness.driver().createOutputTopic(Topics.DEAD_LETTER, new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
    }

    @AfterEach
    void tearDown() {
        harness.close();
    }

    @Test
    void windows_randomSamplesOverSeveralWindows_everyFigureMatchesExactComputation() {
        TestProducer producer = new TestProducer(RUN, "p1");
        ExactWindows exact = new ExactWindows(1000);
        Random random = new Random(42);
        // 5 windows, blocks of 500 samples sealed every ~100 ms, each spanning the blocks' completion times; warm-up
        // ends 0.3 s into the second window, which therefore carries its measured samples apart
        for (int block = 0; block < 50; block++) {
            List<Sample> batch = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                long endMicros = BASE_MS * 1000 + block * 100_000L + random.nextInt(100_000);
                batch.add(randomSample(random, endMicros, block < 13));
            }
            send(producer.key(), producer.samples(STEP, OPS, batch, BASE_MS * 1000 + (block + 1) * 100_000L));
            exact.addAll(RUN, STEP, OPS, batch);
        }
        // stream time to 5 s + grace: every window of the step closes
        send(producer.key(), producer.heartbeat(STEP, OPS, (BASE_MS + 8000) * 1000));

        List<WindowStats> out = windows.readValuesToList();
        assertThat(out).hasSize(5 * 3);
        for (WindowStats w : out) {
            List<Sample> raw = exact.windows().get(w.scopeKey()).get(w.windowStartEpochMs());
            assertThat(w.windowEndEpochMs() - w.windowStartEpochMs()).isEqualTo(1000);
            ExactWindows.assertMatches(w, raw);
        }
        assertThat(sumCounts(out, WindowStats.ALL_OPS)).isEqualTo(50 * 500);
        assertThat(out).filteredOn(w -> w.measured() != null).extracting(WindowStats::windowStartEpochMs)
                .containsOnly(BASE_MS + 1000);
    }

    @Test
    void windows_samplesCompletingAtWindowEdges_countInTheWindowTheyCompletedIn() {
        TestProducer producer = new TestProducer(RUN, "p1");
        long edge = (BASE_MS + 1000) * 1000; // µs of the first window's exclusive end
        List<Sample> batch = List.of(
                sample(edge - 1 - 700, 700, 0, SampleStatus.OK, 1),   // completes 1 µs before the edge
                sample(edge - 900, 900, 0, SampleStatus.OK, 1),       // completes exactly at the edge: next window
                sample(edge - 5000, 5000 + 999_999, 0, SampleStatus.OK, 1)); // last µs of the second window
        send(producer.key(), producer.samples(STEP, OPS, batch, edge + 1_000_000));
        send(producer.key(), producer.heartbeat(STEP, OPS, edge + 5_000_000));

        Map<Long, Long> counts = windows.readValuesToList().stream()
                .filter(w -> w.op().equals(WindowStats.ALL_OPS))
                .collect(Collectors.toMap(WindowStats::windowStartEpochMs, WindowStats::count));
        assertThat(counts).containsExactlyInAnyOrderEntriesOf(Map.of(BASE_MS, 1L, BASE_MS + 1000, 2L));
    }

    @Test
    void qpsOverTps_equalsQueriesPerTransaction() {
        TestProducer producer = new TestProducer(RUN, "p1");
        List<Sample> batch = new ArrayList<>();
        Random random = new Random(7);
        for (int i = 0; i < 1000; i++) {
            long end = BASE_MS * 1000 + random.nextInt(1_000_000);
            long latency = 100 + random.nextInt(50_000);
            int op = i % 2;
            batch.add(new Sample(end - latency, latency, end - latency, op, SampleStatus.OK, op == 0 ? 1 : 20, false));
        }
        send(producer.key(), producer.samples(STEP, OPS, batch, BASE_MS * 1000 + 1_000_000));
        send(producer.key(), producer.heartbeat(STEP, OPS, (BASE_MS + 4000) * 1000));

        Map<String, WindowStats> byOp = windows.readValuesToList().stream()
                .collect(Collectors.toMap(WindowStats::op, w -> w));
        assertThat(byOp.get("point_select").qps() / byOp.get("point_select").tps()).isEqualTo(1.0);
        assertThat(byOp.get("read_write").qps() / byOp.get("read_write").tps()).isEqualTo(20.0);
        assertThat(byOp.get(WindowStats.ALL_OPS).tps()).isEqualTo(1000.0);
        assertThat(byOp.get(WindowStats.ALL_OPS).qps()).isEqualTo(500 * 1 + 500 * 20.0);
    }

    @Test
    void heartbeats_duringHardStall_produceCountZeroWindowsForEveryOp() {
        TestProducer producer = new TestProducer(RUN, "p1");
        send(producer.key(), producer.samples(STEP, OPS,
                List.of(sample(BASE_MS * 1000 + 100_000, 500, 0, SampleStatus.OK, 1)), BASE_MS * 1000 + 200_000));
        // stall: windows 1..3 see only heartbeats, every 250 ms
        for (long t = 1000; t < 4000; t += 250) {
            send(producer.key(), producer.heartbeat(STEP, OPS, (BASE_MS + t) * 1000));
        }
        send(producer.key(), producer.samples(STEP, OPS,
                List.of(sample((BASE_MS + 4000) * 1000 + 100_000, 500, 1, SampleStatus.OK, 20)),
                (BASE_MS + 4200) * 1000));
        send(producer.key(), producer.heartbeat(STEP, OPS, (BASE_MS + 7000) * 1000));

        List<WindowStats> out = windows.readValuesToList();
        Map<String, List<Long>> zeroWindows = out.stream().filter(w -> w.count() == 0)
                .collect(Collectors.groupingBy(WindowStats::op, TreeMap::new,
                        Collectors.mapping(WindowStats::windowStartEpochMs, Collectors.toList())));
        List<Long> stalled = List.of(BASE_MS + 1000, BASE_MS + 2000, BASE_MS + 3000);
        assertThat(zeroWindows).containsOnlyKeys("point_select", "read_write", WindowStats.ALL_OPS);
        zeroWindows.values().forEach(starts -> assertThat(starts).containsExactlyElementsOf(stalled));
        assertThat(out).filteredOn(w -> w.count() == 0)
                .allSatisfy(w -> assertThat(w.qps()).isZero())
                .allSatisfy(w -> assertThat(w.p99Micros()).isZero());
        // the op without samples in window 0 still gets its heartbeat windows, and window 4 closed too
        assertThat(sumCounts(out, WindowStats.ALL_OPS)).isEqualTo(2);
    }

    @Test
    void endOfStep_ticksCloseTheLastWindowOnceGraceHasPassed_withoutAnExtraWindow() {
        TestProducer producer = new TestProducer(RUN, "p1");
        List<Sample> batch = new ArrayList<>();
        for (int i = 0; i < 30; i++) { // windows 0, 1, 2
            batch.add(sample(BASE_MS * 1000 + i * 100_000L, 1000 + i, i % 2, SampleStatus.OK, 1));
        }
        send(producer.key(), producer.samples(STEP, OPS, batch, (BASE_MS + 2950) * 1000));
        send(producer.key(), producer.endOfStep(STEP, OPS, (BASE_MS + 2990) * 1000));

        // windows 0 and 1 need stream time 3 s and 4 s: the marker itself moves nothing, so nothing is out yet
        harness.advanceWallClockTime(Duration.ofMillis(4900)); // wall clock just below window 2's end + grace
        assertThat(windows.readValuesToList()).isEmpty();

        harness.advanceWallClockTime(Duration.ofMillis(200)); // past 5 s: ticks at 5 s are sent
        List<WindowStats> out = windows.readValuesToList();
        assertThat(out).extracting(WindowStats::windowStartEpochMs).containsOnly(BASE_MS, BASE_MS + 1000,
                BASE_MS + 2000);
        assertThat(out).filteredOn(w -> w.op().equals(WindowStats.ALL_OPS)).hasSize(3);
        assertThat(sumCounts(out, WindowStats.ALL_OPS)).isEqualTo(30);

        // much later traffic of another step closes the tick-only window: it must not appear
        send(producer.key(), producer.heartbeat(STEP + 1, OPS, (BASE_MS + 60_000) * 1000));
        assertThat(windows.readValuesToList()).isEmpty();
        // the pending marker was consumed: more wall clock time sends nothing again
        harness.advanceWallClockTime(Duration.ofSeconds(10));
        assertThat(windows.readValuesToList()).isEmpty();
    }

    @Test
    void endOfStep_markerCopyOfAProducerWithoutDataOnThePartition_doesNotCloseTheStep() {
        TestProducer p1 = new TestProducer(RUN, "p1");
        TestProducer elsewhere = new TestProducer(RUN, "p2"); // its data and heartbeats go to another partition
        send(p1.key(), p1.samples(STEP, OPS, List.of(sample(BASE_MS * 1000 + 100_000, 500, 0, SampleStatus.OK, 1)),
                BASE_MS * 1000 + 200_000));
        send(elsewhere.key(), elsewhere.endOfStep(STEP, OPS, (BASE_MS + 300) * 1000));
        harness.advanceWallClockTime(Duration.ofSeconds(10));
        // p2's marker copy here cannot know whether p2's data (on its own partition) has been processed: no ticks
        assertThat(windows.readValuesToList()).isEmpty();
        // p1's marker follows p1's data on this partition: it ends the step
        send(p1.key(), p1.endOfStep(STEP, OPS, (BASE_MS + 400) * 1000));
        harness.advanceWallClockTime(Duration.ofSeconds(1));
        assertThat(windows.readValuesToList()).filteredOn(w -> w.op().equals(WindowStats.ALL_OPS)).singleElement()
                .satisfies(w -> assertThat(w.count()).isEqualTo(1));
    }

    @Test
    void lateSamples_withinGraceAreMerged_beyondGraceAreEmittedAsCorrections() {
        TestProducer producer = new TestProducer(RUN, "p1");
        send(producer.key(), producer.samples(STEP, OPS,
                List.of(sample(BASE_MS * 1000 + 10_000, 100, 0, SampleStatus.OK, 1)), BASE_MS * 1000 + 20_000));
        // stream time 2.5 s: window 0 ends at 1 s, grace 2 s -> still open
        send(producer.key(), producer.heartbeat(STEP, OPS, (BASE_MS + 2500) * 1000));
        send(producer.key(), producer.samples(STEP, OPS,
                List.of(sample(BASE_MS * 1000 + 20_000, 100, 0, SampleStatus.OK, 1)), (BASE_MS + 2600) * 1000));
        assertThat(windows.readValuesToList()).isEmpty();
        // stream time 3 s closes window 0 with both samples
        send(producer.key(), producer.heartbeat(STEP, OPS, (BASE_MS + 3000) * 1000));
        List<WindowStats> closed = windows.readValuesToList();
        assertThat(closed).filteredOn(w -> w.windowStartEpochMs() == BASE_MS && w.op().equals(WindowStats.ALL_OPS))
                .singleElement().satisfies(w -> {
                    assertThat(w.count()).isEqualTo(2);
                    assertThat(w.lateCount()).isZero();
                });
        // two samples for window 0 now are beyond grace: they come out at once as a correction of window 0 (per op
        // and "*") holding only them, lateCount = count
        send(producer.key(), producer.samples(STEP, OPS,
                List.of(sample(BASE_MS * 1000 + 30_000, 100, 0, SampleStatus.OK, 1),
                        sample(BASE_MS * 1000 + 40_000, 300, 1, SampleStatus.DEADLOCK, 20)),
                (BASE_MS + 3100) * 1000));
        List<WindowStats> corrections = windows.readValuesToList();
        assertThat(corrections).hasSize(3).allSatisfy(w -> {
            assertThat(w.windowStartEpochMs()).isEqualTo(BASE_MS);
            assertThat(w.lateCount()).isEqualTo(w.count()).isPositive();
        });
        WindowStats all = corrections.stream().filter(w -> w.op().equals(WindowStats.ALL_OPS)).findFirst()
                .orElseThrow();
        assertThat(all.count()).isEqualTo(2);
        assertThat(all.errorsByClass()).isEqualTo(Map.of("deadlock", 1L));
        assertThat(all.queries()).isEqualTo(21);
        // the failed sample's latency is apart from the successful one's
        assertThat(all.maxMicros()).isEqualTo(LatencyBuckets.highestEquivalentValue(100));
        assertThat(LatencyHistograms.fromBase64(all.errorHistogram()).getMaxValue())
                .isEqualTo(LatencyBuckets.highestEquivalentValue(300));
        // 1 statement of the successful sample, 19 of the failed one's 20 (its last one failed)
        assertThat(all.okQueries()).isEqualTo(20);
        // window 0 is never emitted again as a regular window
        send(producer.key(), producer.heartbeat(STEP, OPS, (BASE_MS + 9000) * 1000));
        assertThat(windows.readValuesToList()).noneMatch(w -> w.windowStartEpochMs() == BASE_MS);
    }

    @Test
    void corruptBlock_goesToDeadLetterTopicWithReasonAndCoordinates_andProcessingContinues() {
        TestProducer producer = new TestProducer(RUN, "p1");
        byte[] good = producer.samples(STEP, OPS,
                List.of(sample(BASE_MS * 1000 + 1000, 100, 0, SampleStatus.OK, 1)), BASE_MS * 1000 + 2000);
        byte[] corrupt = producer.samples(STEP, OPS,
                List.of(sample(BASE_MS * 1000 + 3000, 100, 0, SampleStatus.OK, 1)), BASE_MS * 1000 + 4000);
        corrupt[corrupt.length / 2] ^= 0x5A;
        byte[] truncated = Arrays.copyOf(good, 7);
        byte[] after = producer.samples(STEP, OPS,
                List.of(sample(BASE_MS * 1000 + 5000, 100, 1, SampleStatus.DEADLOCK, 20)), BASE_MS * 1000 + 6000);

        send(producer.key(), good);       // offset 0
        send(producer.key(), corrupt);    // offset 1
        send(producer.key(), truncated);  // offset 2
        send(producer.key(), after);      // offset 3
        send(producer.key(), producer.heartbeat(STEP, OPS, (BASE_MS + 4000) * 1000));

        List<TestRecord<byte[], byte[]>> dead = deadLetters.readRecordsToList();
        assertThat(dead).hasSize(2);
        assertThat(dead.get(0).value()).isEqualTo(corrupt);
        assertThat(new String(dead.get(0).key(), StandardCharsets.UTF_8)).isEqualTo(producer.key());
        assertThat(header(dead.get(0), DeadLetters.REASON)).contains("checksum mismatch");
        assertThat(header(dead.get(0), DeadLetters.TOPIC)).isEqualTo(Topics.SAMPLES);
        assertThat(header(dead.get(0), DeadLetters.PARTITION)).isEqualTo("0");
        assertThat(header(dead.get(0), DeadLetters.OFFSET)).isEqualTo("1");
        assertThat(dead.get(1).value()).isEqualTo(truncated);
        assertThat(header(dead.get(1), DeadLetters.REASON)).contains("shorter than any valid block");
        assertThat(header(dead.get(1), DeadLetters.OFFSET)).isEqualTo("2");

        WindowStats all = windows.readValuesToList().stream().filter(w -> w.op().equals(WindowStats.ALL_OPS))
                .findFirst().orElseThrow();
        assertThat(all.count()).isEqualTo(2);
        assertThat(all.errorsByClass()).isEqualTo(Map.of("deadlock", 1L));
    }

    @Test
    void twoProducersOfTheSameStep_mergeIntoTheSameWindows() {
        TestProducer p1 = new TestProducer(RUN, "p1");
        TestProducer p2 = new TestProducer(RUN, "p2");
        ExactWindows exact = new ExactWindows(1000);
        Random random = new Random(3);
        for (int block = 0; block < 20; block++) {
            for (TestProducer p : List.of(p1, p2)) {
                List<Sample> batch = new ArrayList<>();
                for (int i = 0; i < 200; i++) {
                    long end = BASE_MS * 1000 + block * 100_000L + random.nextInt(100_000);
                    batch.add(randomSample(random, end, false));
                }
                send(p.key(), p.samples(STEP, OPS, batch, BASE_MS * 1000 + (block + 1) * 100_000L));
                exact.addAll(RUN, STEP, OPS, batch);
            }
        }
        send(p2.key(), p2.endOfStep(STEP, OPS, (BASE_MS + 2000) * 1000));
        send(p1.key(), p1.endOfStep(STEP, OPS, (BASE_MS + 2010) * 1000));
        harness.advanceWallClockTime(Duration.ofSeconds(6));

        List<WindowStats> out = windows.readValuesToList();
        Map<String, Long> windowsPerScope = new HashMap<>();
        for (WindowStats w : out) {
            windowsPerScope.merge(w.scopeKey(), 1L, Long::sum);
            ExactWindows.assertMatches(w, exact.windows().get(w.scopeKey()).get(w.windowStartEpochMs()));
        }
        assertThat(windowsPerScope).containsOnly(
                Map.entry(WindowStats.scopeKey(RUN, STEP, "point_select"), 2L),
                Map.entry(WindowStats.scopeKey(RUN, STEP, "read_write"), 2L),
                Map.entry(WindowStats.scopeKey(RUN, STEP, WindowStats.ALL_OPS), 2L));
        assertThat(sumCounts(out, WindowStats.ALL_OPS)).isEqualTo(2 * 20 * 200);
    }

    private void send(String key, byte[] block) {
        samples.pipeInput(key, block);
    }

    private static long sumCounts(List<WindowStats> out, String op) {
        return out.stream().filter(w -> w.op().equals(op)).mapToLong(WindowStats::count).sum();
    }

    private static String header(TestRecord<byte[], byte[]> record, String name) {
        Header h = record.headers().lastHeader(name);
        assertThat(h).as("header " + name).isNotNull();
        return new String(h.value(), StandardCharsets.UTF_8);
    }

    private static Sample sample(long startMicros, long latencyMicros, int op, SampleStatus status, int queries) {
        return new Sample(startMicros, latencyMicros, startMicros, op, status, queries, false);
    }

    /** A sample completing at {@code endMicros}, latency log-uniform 20 µs .. 2 s, ~5% errors of every class. */
    private static Sample randomSample(Random random, long endMicros, boolean warmup) {
        long latency = (long) Math.exp(Math.log(20) + random.nextDouble() * (Math.log(2_000_000) - Math.log(20)));
        int op = random.nextInt(2);
        SampleStatus status = random.nextInt(20) == 0
                ? SampleStatus.values()[1 + random.nextInt(SampleStatus.values().length - 1)] : SampleStatus.OK;
        return new Sample(endMicros - latency, latency, endMicros - latency, op, status, op == 0 ? 1 : 20, warmup);
    }

}
