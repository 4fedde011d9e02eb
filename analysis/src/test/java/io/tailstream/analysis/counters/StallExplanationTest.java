package io.tailstream.analysis.counters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class StallExplanationTest {

    /** Readings once a second from 0 to 60 s; the stall from 40 s to 45 s. */
    static final long START = 40_000;
    static final long END = 45_000;

    private static long[] times() {
        long[] at = new long[61];
        for (int i = 0; i <= 60; i++) {
            at[i] = 1_000L * i + 250; // the reading starts a quarter second into each window
        }
        return at;
    }

    private static boolean inStall(long at) {
        return at >= START && at <= END;
    }

    /** A FLUSH TABLES WITH READ LOCK: sessions pile up waiting, the redo log stops, the load's echo drops. */
    private static List<CounterSeries> globalReadLock() {
        long[] at = times();
        double[] waiting = new double[at.length];
        double[] running = new double[at.length];
        double[] log = new double[at.length];
        double[] questions = new double[at.length];
        double[] steady = new double[at.length];
        double logged = 0;
        for (int i = 0; i < at.length; i++) {
            boolean stalled = inStall(at[i]);
            waiting[i] = stalled ? 8 : 0;
            running[i] = stalled ? 9 : 3 + i % 3; // 3, 4, 5 before
            // 1 MB per second before, with a repeating +-10 kB pattern; nothing while stalled
            if (i > 0) {
                boolean intervalStalled = inStall((at[i] + at[i - 1]) / 2);
                logged += intervalStalled ? 0 : 1_000_000 + (i % 3 - 1) * 10_000;
            }
            log[i] = logged;
            questions[i] = 20_000.0 * i;
            steady[i] = 8_112;
        }
        return List.of(new CounterSeries("state.Waiting for backup lock", false, at, waiting),
                new CounterSeries("Threads_running", false, at, running),
                new CounterSeries("Innodb_os_log_written", true, at, log),
                new CounterSeries("Questions", true, at, questions),
                new CounterSeries("Innodb_buffer_pool_pages_free", false, at, steady));
    }

    @Test
    void aGlobalReadLock_namesTheWaitingSessionsFirst_thenTheLogAndThreads_withExactLevels() {
        StallExplanation.Explanation e = StallExplanation.explain(globalReadLock(), START, END);
        assertThat(e.refusal()).isNull();
        // by z: the sessions never waited before (infinite), the log's rate varied by 1%, the threads by 20%
        assertThat(e.moves()).extracting(CounterMove::name).containsExactly("state.Waiting for backup lock",
                "Innodb_os_log_written", "Threads_running");
        CounterMove waiting = e.moves().get(0);
        assertThat(waiting.before()).isZero();
        assertThat(waiting.during()).isEqualTo(8);
        assertThat(waiting.z()).isInfinite();
        assertThat(waiting.describe()).isEqualTo("state.Waiting for backup lock 0 → 8");

        // the 30 readings before 40 s (10.25 s .. 39.25 s): 3, 4, 5 repeating from i = 10, ten of each
        CounterMove threads = e.moves().get(2);
        assertThat(threads.before()).isEqualTo(4.0);
        assertThat(threads.during()).isEqualTo(9.0);
        double sd = Math.sqrt(20.0 / 29); // ten deviations of -1, ten of +1 around 4
        // the readings at 40.25 .. 44.25 s fall in the stall: five
        assertThat(threads.z()).isCloseTo(5.0 / (sd * Math.sqrt(1.0 / 30 + 1.0 / 5)), within(1e-9));

        // rates: the intervals ending at 11.25 .. 40.25 s are before, wholly ones with their middle in the stall
        CounterMove log = e.moves().get(1);
        assertThat(log.z()).isGreaterThan(threads.z());
        assertThat(log.before()).isCloseTo(1_000_000 + expectedPatternMean(), within(1e-6));
        assertThat(log.during()).isZero();
        assertThat(log.describe()).isEqualTo("Innodb_os_log_written 1 MB/s → 0 B/s");
    }

    /** The mean of the +-10 kB pattern over the intervals before the stall, computed as the test built it. */
    private static double expectedPatternMean() {
        long[] at = times();
        double sum = 0;
        int n = 0;
        for (int i = 1; i < at.length; i++) {
            if (at[i] <= START && at[i] >= START - StallExplanation.LOOKBACK_MS) {
                sum += (i % 3 - 1) * 10_000;
                n++;
            }
        }
        return sum / n;
    }

    @Test
    void theLoadsEchoAndASteadyGauge_areNeverListed() {
        StallExplanation.Explanation e = StallExplanation.explain(globalReadLock(), START, END);
        assertThat(e.moves()).extracting(CounterMove::name).doesNotContain("Questions",
                "Innodb_buffer_pool_pages_free");
    }

    @Test
    void tooFewReadingsBefore_isARefusal_notAnEmptyExplanation() {
        StallExplanation.Explanation e = StallExplanation.explain(globalReadLock(), 2_000, 4_000);
        assertThat(e.moves()).isEmpty();
        assertThat(e.refusal()).contains("too few counter readings around the stall");
        assertThat(StallExplanation.explain(List.of(), START, END).refusal())
                .isEqualTo("no server counters were read");
    }

    @Test
    void aStallShorterThanTheReadingsSpacing_takesTheReadingAndIntervalOverItsStart() {
        // a stall of 300 ms between two readings
        long[] at = times();
        double[] waiting = new double[at.length];
        waiting[41] = 5; // the reading at 41.25 s, the first after the stall's start at 41.0 s
        StallExplanation.Explanation e = StallExplanation.explain(
                List.of(new CounterSeries("state.Waiting for table metadata lock", false, at, waiting)), 41_000,
                41_300);
        assertThat(e.moves()).singleElement().satisfies(m -> assertThat(m.during()).isEqualTo(5));
    }

    @Test
    void readings_fillAbsentSessionStatesWithZero_failedReadingsWithNothing_andDeriveTheRatios() {
        CounterReadings r = new CounterReadings()
                .value(1_000, "state.Updating", false, 2)
                .value(1_000, "Innodb_buffer_pool_pages_dirty", false, 910)
                .value(1_000, "Innodb_buffer_pool_pages_total", false, 1_000)
                .value(1_000, "Innodb_checkpoint_age", false, 50)
                .value(1_000, "Innodb_checkpoint_max_age", false, 200)
                .reading(2_000, false)
                .value(3_000, "Innodb_buffer_pool_pages_dirty", false, 990)
                .value(3_000, "Innodb_buffer_pool_pages_total", false, 1_000);
        List<CounterSeries> s = r.series();
        CounterSeries updating = s.stream().filter(x -> x.name().equals("state.Updating")).findFirst().orElseThrow();
        assertThat(updating.atMs()).containsExactly(1_000, 2_000, 3_000);
        assertThat(updating.values()).containsExactly(2, Double.NaN, 0);
        CounterSeries dirty = s.stream().filter(x -> x.name().equals(StallExplanation.DIRTY_PAGES_PCT)).findFirst()
                .orElseThrow();
        assertThat(dirty.values()).containsExactly(91.0, Double.NaN, 99.0);
        CounterSeries age = s.stream().filter(x -> x.name().equals(StallExplanation.CHECKPOINT_AGE_PCT))
                .findFirst().orElseThrow();
        assertThat(age.values()[0]).isEqualTo(25.0);
        assertThat(age.values()[1]).isNaN();
        assertThat(age.values()[2]).isNaN(); // the age was not read at 3 s
    }

    @Test
    void describe_roundsToThreeDigits_andGivesAGaugesPeak() {
        assertThat(new CounterMove("dirty pages %", false, 91.23, 98.61, 99.4, 7).describe())
                .isEqualTo("dirty pages % 91.2 → 98.6 (peak 99.4)");
        assertThat(new CounterMove("Innodb_row_lock_waits", true, 1.5, 240.4, Double.NaN, 9).describe())
                .isEqualTo("Innodb_row_lock_waits 1.50/s → 240/s");
        assertThat(new CounterMove("pg_stat_wal.wal_bytes", true, 2_500_000, 1_200, Double.NaN, 9).describe())
                .isEqualTo("pg_stat_wal.wal_bytes 2.50 MB/s → 1.20 kB/s");
    }

    /**
     * Known truth: series of normal noise (mean 100, sd 5), one of which moves by 3 sd during a 5-second stall. Over
     * 2,000 stalls (a fixed seed: 0.043% and 96.95%) the still ones are listed for fewer than 1 stall in 1,000 each,
     * the moved one in more than 95%.
     */
    @Test
    void simulation_stillSeriesRarelyListed_movedOneAlmostAlways() {
        SplittableRandom rnd = new SplittableRandom(20261204);
        int stalls = 2_000;
        int still = 20;
        long falseListings = 0;
        long found = 0;
        long[] at = times();
        for (int trial = 0; trial < stalls; trial++) {
            List<CounterSeries> series = new ArrayList<>();
            for (int k = 0; k <= still; k++) {
                double[] v = new double[at.length];
                for (int i = 0; i < at.length; i++) {
                    v[i] = 100 + 5 * gaussian(rnd) + (k == still && inStall(at[i]) ? 15 : 0);
                }
                series.add(new CounterSeries(k == still ? "moved" : "still" + k, false, at, v));
            }
            List<String> listed = StallExplanation.explain(series, START, END).moves().stream()
                    .map(CounterMove::name).toList();
            found += listed.contains("moved") ? 1 : 0;
            falseListings += listed.stream().filter(n -> n.startsWith("still")).count();
        }
        double falseRate = (double) falseListings / (stalls * (long) still);
        assertThat(falseRate).as("still series listed per series and stall").isLessThan(0.001);
        assertThat((double) found / stalls).as("moved series listed").isGreaterThan(0.95);
    }

    private static double gaussian(SplittableRandom rnd) {
        // Box-Muller: the JDK 17 SplittableRandom has no nextGaussian
        double u = 1 - rnd.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd.nextDouble());
    }
}
