package io.tailstream.aggregator.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tailstream.aggregator.AggregatorConfig;
import io.tailstream.aggregator.step.RunState;
import io.tailstream.aggregator.testing.ExactWindows;
import io.tailstream.aggregator.testing.TestProducer;
import io.tailstream.aggregator.testing.TopologyHarness;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.RunEnded;
import io.tailstream.schemas.event.RunSettings;
import io.tailstream.schemas.event.RunStarted;
import io.tailstream.schemas.event.RunSummary;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.TargetInfo;
import io.tailstream.schemas.event.WindowStats;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Run summaries of stage 3 in {@link TopologyTestDriver}: one run, two targets of one product (1 node and 3 nodes),
 * a sweep of 1, 2, 4 and 8 threads, 3 rounds each (24 steps of two measured 1 s windows). Every figure across rounds
 * (mean, sample standard deviation, min, max, pooled QPS/TPS, for "*" and each op), every sweep's peak and plateau
 * and every scale-out ratio is checked against an exact computation over the samples sent: QPS and TPS count
 * successful work over the producer's exact measured span ({@code StepEnded} version 3). Latencies stay below
 * 2,048 µs, where HdrHistogram's buckets are one microsecond wide, so the step figures are exact too.
 */
class RunSummaryTopologyTest {

    private static final long BASE_MS = 1_700_000_000_000L;
    private static final long STEP_SPACING_MS = 5_000;
    private static final String RUN = "run-sweep";
    private static final String WORKLOAD = "oltp_read_write";
    private static final List<String> OPS = List.of("read", "write");
    private static final List<Integer> THREADS = List.of(1, 2, 4, 8);
    private static final int ROUNDS = 3;
    private static final TargetInfo ONE_NODE = new TargetInfo("maria-1", "jdbc:mysql://a/sbtest", "MariaDB", "10.11",
            Map.of(), null, null, 1, null);
    private static final TargetInfo THREE_NODES = new TargetInfo("maria-3", "jdbc:mysql://b/sbtest", "MariaDB",
            "10.11", Map.of(), null, null, 3, null);
    /** Base QPS of each target per thread count: maria-1 flattens after 4 threads, maria-3 scales. */
    private static final Map<String, Map<Integer, Integer>> BASE_QPS = Map.of(
            "maria-1", Map.of(1, 100, 2, 180, 4, 200, 8, 206),
            "maria-3", Map.of(1, 100, 2, 200, 4, 400, 8, 800));

    @TempDir
    Path stateDir;

    private final AggregatorConfig config = AggregatorConfig.defaults();
    private TopologyHarness harness;
    private TestInputTopic<String, byte[]> samples;
    private TestOutputTopic<String, RunSummary> runSummaries;
    private final TestProducer producer = new TestProducer(RUN, "p1");
    /** Exact per-step figures, by step and op. */
    private final Map<Integer, Map<String, StepFigures>> exact = new TreeMap<>();
    private final Map<Integer, StepStarted> started = new TreeMap<>();

    @BeforeEach
    void setUp() {
        harness = new TopologyHarness(config, stateDir, BASE_MS);
        samples = harness.samples();
        runSummaries = harness.output(Topics.RUN_SUMMARIES, RunSummary.class);
    }

    @AfterEach
    void tearDown() {
        harness.close();
    }

    @Test
    void roundsSweepsAndScaleOut_matchExactComputation_andRepublishUntilComplete() {
        harness.sendControl(new RunStarted(RUN, BASE_MS, "p1", "sweep", List.of(ONE_NODE, THREE_NODES), Map.of(),
                RunSettings.fromVersion1(Map.of("plateau", "minGainPct=15.0, patience=1", "rounds", "3"))));
        int stepId = 0;
        for (TargetInfo target : List.of(ONE_NODE, THREE_NODES)) {
            for (int threads : THREADS) {
                for (int round = 1; round <= ROUNDS; round++) {
                    stepId++;
                    runStep(stepId, target, threads, round);
                    if (stepId < 2 * THREADS.size() * ROUNDS) {
                        harness.advanceWallClockTime(Duration.ofMillis(STEP_SPACING_MS)); // its ticks close it
                    }
                }
            }
        }
        // the run ends before the last step's windows are closed: published once without it, then again
        harness.sendControl(new RunEnded(RUN, BASE_MS + stepId * STEP_SPACING_MS, "p1", 0, 0, "completed"));
        List<RunSummary> early = runSummaries.readValuesToList();
        assertThat(early).singleElement().satisfies(s -> {
            assertThat(s.stepsPending()).containsExactly(24);
            assertThat(s.stepsSummarized()).isEqualTo(23);
            assertThat(s.complete()).isFalse();
        });
        harness.advanceWallClockTime(Duration.ofMillis(STEP_SPACING_MS));
        List<RunSummary> later = runSummaries.readValuesToList();
        assertThat(later).isNotEmpty().allSatisfy(s -> assertThat(s.key()).isEqualTo(RUN));
        RunSummary s = later.get(later.size() - 1);
        assertThat(s.complete()).isTrue();
        assertThat(s.version()).isEqualTo(RunSummary.VERSION);
        assertThat(s.stepsPending()).isEmpty();
        assertThat(s.stepsSummarized()).isEqualTo(24);
        assertThat(s.plateauMinGainPct()).isEqualTo(15.0);
        assertThat(s.plateauPatience()).isEqualTo(1);
        assertThat(s.plateauSource()).isEqualTo("plan");

        checkRounds(s);
        checkSweeps(s);
        checkScaleOut(s);

        // state: kept for the grace after the last publication, then dropped
        KeyValueStore<String, RunState> store = harness.driver().getKeyValueStore(AggregatorTopology.RUN_STORE);
        assertThat(store.get(RUN)).isNotNull();
        harness.advanceWallClockTime(Duration.ofMinutes(11));
        assertThat(store.get(RUN)).isNull();
    }

    @Test
    void runWithoutPlanPlateau_usesTheDefaultAndSaysSo() {
        // no RunStarted: StepStarted alone describes the run
        runStep(1, ONE_NODE, 1, 1);
        runStep(2, ONE_NODE, 2, 1);
        harness.advanceWallClockTime(Duration.ofMillis(2 * STEP_SPACING_MS));
        harness.sendControl(new RunEnded(RUN, BASE_MS + 10_000, "p1", 0, 0, "completed"));
        RunSummary s = runSummaries.readValuesToList().get(0);
        assertThat(s.plateauSource()).isEqualTo("default");
        assertThat(s.plateauMinGainPct()).isEqualTo(5.0);
        assertThat(s.plateauPatience()).isEqualTo(1);
        assertThat(s.complete()).isTrue();
        // one round per group: the standard deviation is undefined, not 0
        assertThat(s.rounds()).allSatisfy(r -> assertThat(r.qps().stddev()).isNull());
        assertThat(s.scaleOut()).isEmpty(); // no N-node target
        assertThat(s.sweeps()).extracting(RunSummary.Sweep::plateauThreads).containsOnlyNulls(); // 100 -> 180 rises
    }

    /** A step run by two producers (2 and 3 threads) is grouped by all their threads: 5. */
    @Test
    void stepOfTwoProducers_isGroupedByAllTheirThreads() {
        harness.sendControl(new StepStarted(RUN, stepMs(1), "p2", 1, ONE_NODE, WORKLOAD, 3, 1, 0, 2000, OPS, 2,
                Map.of()));
        runStep(1, ONE_NODE, 2, 1);
        // p2 measured nothing (it sent no block): the step's figures are p1's, its threads both producers'
        harness.sendControl(new StepEnded(RUN, stepMs(1) + 2_000, "p2", 1, 0, 0, 0, "completed", false, 0L, 0L, 0L,
                stepMs(1) * 1000, stepMs(1) * 1000, (stepMs(1) + 2_000) * 1000, 3, 0L, 20.0, 30.0));
        harness.advanceWallClockTime(Duration.ofMillis(STEP_SPACING_MS));
        harness.sendControl(new RunEnded(RUN, BASE_MS + 10_000, "p1", 0, 0, "completed"));
        List<RunSummary> published = runSummaries.readValuesToList();
        RunSummary s = published.get(published.size() - 1);
        assertThat(s.rounds()).isNotEmpty().extracting(RunSummary.RoundStats::threads).containsOnly(5);
    }

    // ---- checks ----

    private void checkRounds(RunSummary s) {
        // groups: 2 targets x 4 thread counts x ("*", read, write)
        assertThat(s.rounds()).hasSize(2 * THREADS.size() * 3);
        for (RunSummary.RoundStats g : s.rounds()) {
            List<StepFigures> rs = new ArrayList<>();
            List<Integer> stepIds = new ArrayList<>();
            started.forEach((id, st) -> {
                if (st.target().name().equals(g.target()) && st.workload().equals(g.workload())
                        && st.threads() == g.threads()) {
                    rs.add(exact.get(id).get(g.op()));
                    stepIds.add(id);
                }
            });
            String what = g.target() + "/" + g.threads() + "/" + g.op();
            assertThat(g.rounds()).as(what).isEqualTo(ROUNDS);
            assertThat(g.stepIds()).as(what).isEqualTo(stepIds);
            assertFigure(g.qps(), rs, StepFigures::qps, what + " qps");
            assertFigure(g.tps(), rs, StepFigures::tps, what + " tps");
            assertFigure(g.meanMicros(), rs, StepFigures::meanMicros, what + " mean");
            assertFigure(g.p95Micros(), rs, StepFigures::p95Micros, what + " p95");
            assertFigure(g.p99Micros(), rs, StepFigures::p99Micros, what + " p99");
            double seconds = rs.stream().mapToDouble(StepFigures::seconds).sum();
            assertThat(g.pooledQps()).as(what + " pooled qps")
                    .isCloseTo(rs.stream().mapToLong(StepFigures::okQueries).sum() / seconds, within(1e-9));
            assertThat(g.pooledTps()).as(what + " pooled tps")
                    .isCloseTo(rs.stream().mapToLong(f -> f.count() - f.errors()).sum() / seconds, within(1e-9));
        }
        // the figures differ between rounds, so the spread checks are not vacuous
        assertThat(s.rounds()).allSatisfy(r -> assertThat(r.qps().stddev()).isPositive());
    }

    private static void assertFigure(RunSummary.Figure f, List<StepFigures> rounds, ToDoubleFunction<StepFigures> v,
                                     String what) {
        double[] x = rounds.stream().mapToDouble(v).toArray();
        double mean = 0;
        for (double d : x) {
            mean += d;
        }
        mean /= x.length;
        double ss = 0;
        for (double d : x) {
            ss += (d - mean) * (d - mean);
        }
        double stddev = Math.sqrt(ss / (x.length - 1));
        assertThat(f.mean()).as(what + " mean").isCloseTo(mean, within(1e-9 * Math.max(1, Math.abs(mean))));
        assertThat(f.stddev()).as(what + " stddev").isCloseTo(stddev, within(1e-9 * Math.max(1, stddev)));
        assertThat(f.min()).as(what + " min").isEqualTo(java.util.Arrays.stream(x).min().orElseThrow());
        assertThat(f.max()).as(what + " max").isEqualTo(java.util.Arrays.stream(x).max().orElseThrow());
    }

    private void checkSweeps(RunSummary s) {
        Map<String, RunSummary.Sweep> byKey = new TreeMap<>();
        s.sweeps().forEach(w -> byKey.put(w.target() + "/" + w.round(), w));
        assertThat(byKey).hasSize(2 * (ROUNDS + 1));
        for (RunSummary.Sweep w : s.sweeps()) {
            assertThat(w.workload()).isEqualTo(WORKLOAD);
            assertThat(w.levels()).extracting(RunSummary.Level::threads).isEqualTo(THREADS);
            for (RunSummary.Level l : w.levels()) {
                List<StepFigures> rs = starsOf(w.target(), l.threads(), w.round());
                double seconds = rs.stream().mapToDouble(StepFigures::seconds).sum();
                assertThat(l.rounds()).isEqualTo(rs.size());
                assertThat(l.qps()).isCloseTo(rs.stream().mapToLong(StepFigures::okQueries).sum() / seconds,
                        within(1e-9));
                assertThat(l.plateauQps()).isCloseTo(rs.stream().mapToDouble(StepFigures::qps).average()
                        .orElseThrow(), within(1e-9));
            }
            RunSummary.Level top = w.levels().stream().filter(l -> l.threads() == w.peakThreads()).findFirst()
                    .orElseThrow();
            assertThat(w.peakQps()).isEqualTo(top.qps());
            assertThat(w.levels()).allSatisfy(l -> assertThat(l.qps()).isLessThanOrEqualTo(w.peakQps()));
        }
        // maria-1 step QPS by round (n transactions per window give 2n statements, 2n - 1 for odd n, less the
        // failed first read of each window: successful work only):
        // r1 99, 179, 199, 204; r2 100, 180, 200, 207; r3 103, 183, 215, 208. At 15 %: 199/179 = +11.2 % is flat
        // in r1 and r2 (the plateau began at 2 threads), 215/183 = +17.5 % rises in r3 and 208 < 215 x 1.15 is flat
        // (began at 4); over all rounds the means are 100.7, 180.7, 204.7, 206.3: +13.3 % at 4 threads is flat
        // (began at 2). Peaks: 8 threads, except r3 (4 threads: 215).
        assertSweep(byKey.get("maria-1/1"), 8, 204.0, 2);
        assertSweep(byKey.get("maria-1/2"), 8, 207.0, 2);
        assertSweep(byKey.get("maria-1/3"), 4, 215.0, 4);
        assertSweep(byKey.get("maria-1/0"), 8, (204.0 + 207 + 208) / 3, 2);
        // maria-3 doubles with every level: no plateau, peak at 8 threads
        assertSweep(byKey.get("maria-3/1"), 8, 799.0, null);
        assertSweep(byKey.get("maria-3/3"), 8, 803.0, null);
        assertSweep(byKey.get("maria-3/0"), 8, (799.0 + 800 + 803) / 3, null);
        assertThat(byKey.get("maria-1/0").plateauQps()).isCloseTo((179.0 + 180 + 183) / 3, within(1e-9));
    }

    private static void assertSweep(RunSummary.Sweep w, int peakThreads, double peakQps, Integer plateauThreads) {
        assertThat(w.peakThreads()).as(w.target() + " round " + w.round() + " peak threads").isEqualTo(peakThreads);
        assertThat(w.peakQps()).as(w.target() + " round " + w.round() + " peak").isCloseTo(peakQps, within(1e-9));
        assertThat(w.plateauThreads()).as(w.target() + " round " + w.round() + " plateau").isEqualTo(plateauThreads);
    }

    private void checkScaleOut(RunSummary s) {
        assertThat(s.scaleOut()).hasSize(1 + THREADS.size());
        RunSummary.ScaleOut peak = s.scaleOut().get(0);
        assertThat(peak.basis()).isEqualTo(RunSummary.ScaleOut.PEAK);
        assertThat(peak.product()).isEqualTo("MariaDB");
        assertThat(peak.singleTarget()).isEqualTo("maria-1");
        assertThat(peak.multiTarget()).isEqualTo("maria-3");
        assertThat(peak.nodes()).isEqualTo(3);
        double single = pooled("maria-1", 8);
        double multi = pooled("maria-3", 8);
        assertThat(peak.singleThreads()).isEqualTo(8);
        assertThat(peak.multiThreads()).isEqualTo(8);
        assertThat(peak.ratio()).isCloseTo(multi / single, within(1e-12));
        assertThat(peak.ratio()).isCloseTo((799.0 + 800 + 803) / (204.0 + 207 + 208), within(1e-9));
        for (int i = 0; i < THREADS.size(); i++) {
            RunSummary.ScaleOut at = s.scaleOut().get(i + 1);
            int threads = THREADS.get(i);
            assertThat(at.basis()).isEqualTo(RunSummary.ScaleOut.THREADS);
            assertThat(at.singleThreads()).isEqualTo(threads);
            assertThat(at.multiThreads()).isEqualTo(threads);
            assertThat(at.singleQps()).isCloseTo(pooled("maria-1", threads), within(1e-9));
            assertThat(at.multiQps()).isCloseTo(pooled("maria-3", threads), within(1e-9));
            assertThat(at.ratio()).isCloseTo(pooled("maria-3", threads) / pooled("maria-1", threads), within(1e-12));
        }
    }

    private double pooled(String target, int threads) {
        List<StepFigures> rs = starsOf(target, threads, RunSummary.ALL_ROUNDS);
        return rs.stream().mapToLong(StepFigures::okQueries).sum() / rs.stream().mapToDouble(StepFigures::seconds).sum();
    }

    /** Exact "*" figures of the target's steps at a thread count, of one round or of all ({@code round} 0). */
    private List<StepFigures> starsOf(String target, int threads, int round) {
        List<StepFigures> out = new ArrayList<>();
        started.forEach((id, st) -> {
            if (st.target().name().equals(target) && st.threads() == threads
                    && (round == RunSummary.ALL_ROUNDS || st.round() == round)) {
                out.add(exact.get(id).get(WindowStats.ALL_OPS));
            }
        });
        return out;
    }

    // ---- input ----

    /**
     * One step: two measured 1 s windows; per window {@code base/2 + round - 1} transactions alternating read (1
     * query) and write (3 queries), the first a deadlock; latencies below 2,048 µs.
     */
    private void runStep(int stepId, TargetInfo target, int threads, int round) {
        StepStarted st = new StepStarted(RUN, stepMs(stepId), "p1", stepId, target, WORKLOAD, threads, round, 0, 2000,
                OPS, 2, Map.of());
        started.put(stepId, st);
        harness.sendControl(st);
        int base = BASE_QPS.get(target.name()).get(threads);
        if (target == ONE_NODE && threads == 4 && round == 3) {
            base = 212; // round 3 of maria-1 peaks at 4 threads
        }
        int n = base / 2 + round - 1;
        long blocks = 0;
        List<Sample> all = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            long windowMs = stepMs(stepId) + w * 1000L;
            List<Sample> batch = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                long start = windowMs * 1000 + i * (990_000L / n);
                long latency = 100 + (i * 37L + threads * 13L + round * 7L + w * 3L + stepId) % 1500;
                int op = i % 2;
                batch.add(new Sample(start, latency, start, op, i == 0 ? SampleStatus.DEADLOCK : SampleStatus.OK,
                        op == 0 ? 1 : 3, false));
            }
            send(producer.samples(stepId, OPS, batch, (windowMs + 995) * 1000));
            blocks++;
            all.addAll(batch);
        }
        send(producer.endOfStep(stepId, OPS, (stepMs(stepId) + 1_995) * 1000));
        blocks++;
        // version 3: the measurement ran from the step's start for exactly 2 s
        harness.sendControl(new StepEnded(RUN, stepMs(stepId) + 2_000, "p1", stepId, all.size(), blocks, 2, "completed",
                false, 0L, 0L, 0L, stepMs(stepId) * 1000, stepMs(stepId) * 1000, (stepMs(stepId) + 2_000) * 1000,
                threads, 0L, 20.0, 30.0));
        Map<String, StepFigures> figures = new TreeMap<>();
        figures.put(WindowStats.ALL_OPS, StepFigures.of(all));
        for (int op = 0; op < OPS.size(); op++) {
            int o = op;
            figures.put(OPS.get(op), StepFigures.of(all.stream().filter(x -> x.opIndex() == o).toList()));
        }
        exact.put(stepId, figures);
    }

    private static long stepMs(int stepId) {
        return BASE_MS + (stepId - 1) * STEP_SPACING_MS;
    }

    private void send(byte[] block) {
        samples.pipeInput(producer.key(), block);
    }

    /** A step's exact figures over its 2 s measured span: successful work, successful samples' latencies. */
    private record StepFigures(long count, long errors, long okQueries, double seconds, double qps, double tps,
                               double meanMicros, long p95Micros, long p99Micros) {
        static StepFigures of(List<Sample> samples) {
            List<Sample> ok = samples.stream().filter(x -> !x.status().isError()).toList();
            long okQueries = samples.stream().mapToLong(Sample::succeededStatements).sum();
            long[] sorted = ok.stream().mapToLong(Sample::latencyMicros).sorted().toArray();
            double mean = java.util.Arrays.stream(sorted).average().orElseThrow();
            return new StepFigures(samples.size(), samples.size() - ok.size(), okQueries, 2.0, okQueries / 2.0,
                    ok.size() / 2.0, mean, ExactWindows.nearestRank(sorted, 95_000),
                    ExactWindows.nearestRank(sorted, 99_000));
        }
    }
}
