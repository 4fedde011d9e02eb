package io.tailstream.aggregator.step;

import static io.tailstream.aggregator.step.ScopeWindowsFixture.RUN;
import static io.tailstream.aggregator.step.ScopeWindowsFixture.T0;
import static io.tailstream.aggregator.step.ScopeWindowsFixture.scope;
import static io.tailstream.aggregator.step.ScopeWindowsFixture.window;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.tailstream.aggregator.stall.Stall;
import io.tailstream.aggregator.stall.StallConfig;
import io.tailstream.aggregator.stall.StallDetector;
import io.tailstream.aggregator.stall.WindowPoint;
import io.tailstream.schemas.event.StallEvent;
import io.tailstream.schemas.event.WindowStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link StallSeries}: which windows the stall rules and trend read (whole measured ones), how long the last ones are
 * held for want of the step's end, and the stall events' affected ops.
 */
class StallSeriesTest {

    private final StallSeries series = new StallSeries(StallConfig.defaults());
    private final List<Stall> stalls = new ArrayList<>();
    /** The step's planned end as {@link StepMeta#insideUnlessEarlyEndMs} gives it; -1 = not known. */
    private long until = -1;

    @Test
    void onTime_firstWindowWithSamples_isLeftOut_unlessWarmupCameBefore() {
        ScopeState cold = feed(scope("*"), window("*", 0, 0, 0), window("*", 1, 1000, 900));
        assertThat(cold.wholeFromMs()).isEqualTo(-1); // the step started inside second 1
        assertThat(feed(cold, window("*", 2, 1000, 900)).wholeFromMs()).isEqualTo(T0 + 2000);

        ScopeState warm = feed(scope("*"), window("*", 0, 1000, 900, 1000, 0), window("*", 1, 1000, 900));
        assertThat(warm.wholeFromMs()).isEqualTo(T0 + 1000);
        assertThat(warm.held()).extracting(h -> h.point().startMs()).containsExactly(T0 + 1000);
    }

    @Test
    void onTime_emptyWindowsAfterTheLastSamples_areHeldUpToHoldWindows_thenAHardStallIsThatManyWindowsLate() {
        ScopeState s = busyThenEmpty(13);
        assertThat(stalls).isEmpty();
        assertThat(s.held()).hasSize(StallSeries.HOLD_WINDOWS);

        feed(s, window("*", 14, 0, 0));
        assertThat(stalls).singleElement().satisfies(st -> {
            assertThat(st.kind()).isEqualTo(StallEvent.HARD);
            assertThat(st.open()).isTrue();
            assertThat(st.startMs()).isEqualTo(T0 + 11_000);
        });
    }

    @Test
    void finish_heldWindowsEndingByTheExactEnd_areFed_laterOnesLeftOut_thenTheRulesFinish() {
        ScopeState s = busyThenEmpty(12); // held: 10 (samples), 11 and 12 (empty)

        StallSeries.Fed atEleven = series.finish(s, new StepMeta.Bounds(T0 * 1000, (T0 + 12_000) * 1000));
        assertThat(atEleven.stalls()).extracting(Stall::kind, Stall::open)
                .containsExactly(tuple(StallEvent.HARD, true),
                        tuple(StallEvent.HARD, false));
        assertThat(atEleven.scope().finalized()).isTrue();
        assertThat(atEleven.scope().held()).isEmpty();
        assertThat(atEleven.scope().trend().n()).isEqualTo(11); // seconds 1 to 11

        StallSeries.Fed unknownEnd = series.finish(s, null);
        assertThat(unknownEnd.stalls()).isEmpty();
        assertThat(unknownEnd.scope().trend().n()).isEqualTo(9); // seconds 1 to 9
    }

    @Test
    void onTime_beforeThePlannedEnd_aHardStallIsPublishedAtItsFirstEmptyWindow_andNotAgainWhenFedForGood() {
        until = T0 + 60_000;
        ScopeState s = busyThenEmpty(11);
        assertThat(stalls).singleElement().satisfies(st -> {
            assertThat(st.kind()).isEqualTo(StallEvent.HARD);
            assertThat(st.open()).isTrue();
            assertThat(st.startMs()).isEqualTo(T0 + 11_000);
            assertThat(st.endMs()).isEqualTo(T0 + 12_000);
        });
        assertThat(s.detector().hard()).isNull(); // the stored rules have not seen it: the windows are still held

        stalls.clear();
        s = feed(s, window("*", 12, 0, 0), window("*", 13, 0, 0), window("*", 14, 0, 0), window("*", 15, 1000, 900));
        assertThat(stalls).extracting(Stall::endMs, Stall::open).containsExactly(
                tuple(T0 + 13_000, true), tuple(T0 + 14_000, true), tuple(T0 + 15_000, true),
                tuple(T0 + 15_000, false));
        // 15 has samples: everything before it is fed for good; 15 itself, which ends the stall, is still held
        assertThat(s.detector().hard().endMs()).isEqualTo(T0 + 15_000);
        assertThat(s.detector().stallCount()).isZero();

        stalls.clear();
        StallSeries.Fed done = series.finish(s, new StepMeta.Bounds(T0 * 1000, (T0 + 16_000) * 1000));
        assertThat(done.stalls()).isEmpty(); // published already
    }

    @Test
    void finish_aMeasurementThatEndedEarly_withdrawsTheStallItsHeartbeatWindowsOpened() {
        until = T0 + 60_000;
        ScopeState s = busyThenEmpty(12); // the producer stopped after second 10; 11 and 12 are heartbeats
        assertThat(stalls).extracting(Stall::open).containsExactly(true, true);

        StallSeries.Fed fed = series.finish(s, new StepMeta.Bounds(T0 * 1000, (T0 + 10_700) * 1000));

        assertThat(fed.stalls()).singleElement().satisfies(st -> {
            assertThat(st.startMs()).isEqualTo(T0 + 11_000);
            assertThat(st.endMs()).isEqualTo(st.startMs()); // withdrawn
            assertThat(st.open()).isFalse();
        });
        assertThat(series.detector(fed.scope().detector()).stallCount()).isZero();
        assertThat(fed.scope().trend().n()).isEqualTo(9); // seconds 1 to 9: 10 reaches past the end
    }

    /**
     * Publishing before the windows are fed for good changes when events go out, never what they end up saying: over
     * random series and exact ends (on time, early, unknown), the last event per stall (a closing one wins, as the
     * archive keeps it), less withdrawn ones, and the figures equal those of the rules run only on windows fed for
     * good.
     */
    @Test
    void provisionalPublication_endsWithTheSameStallsAndFiguresAsFeedingForGoodOnly() {
        java.util.Random random = new java.util.Random(20261204L);
        for (int trial = 0; trial < 2000; trial++) {
            int seconds = 20 + random.nextInt(40);
            List<WindowStats> windows = new ArrayList<>();
            int lastBusy = 0;
            for (int second = 0; second < seconds; second++) {
                int kind = random.nextInt(10);
                long samples = kind < 2 ? 0 : kind < 4 ? 200 : 1000;
                long latency = kind == 4 ? 9000 : 900;
                windows.add(window("*", second, samples, latency));
                lastBusy = samples > 0 ? second : lastBusy;
            }
            int endCase = random.nextInt(3);
            StepMeta.Bounds span = endCase == 0 ? null : new StepMeta.Bounds(T0 * 1000,
                    (T0 + (endCase == 1 ? seconds * 1000L : lastBusy * 1000L + 1000 + random.nextInt(1500))) * 1000);

            until = -1;
            Outcome reference = run(windows, span);
            until = T0 + 100_000;
            Outcome provisional = run(windows, span);

            assertThat(provisional.lastPerStall()).as("trial %d", trial).isEqualTo(reference.lastPerStall());
            assertThat(provisional.stallCount()).isEqualTo(reference.stallCount());
            assertThat(provisional.stallMs()).isEqualTo(reference.stallMs());
            assertThat(provisional.trendN()).isEqualTo(reference.trendN());
        }
    }

    private record Outcome(Map<String, Stall> lastPerStall, int stallCount, long stallMs, long trendN) {}

    private Outcome run(List<WindowStats> windows, StepMeta.Bounds span) {
        stalls.clear();
        ScopeState s = feed(scope("*"), windows.toArray(WindowStats[]::new));
        StallSeries.Fed done = series.finish(s, span);
        stalls.addAll(done.stalls());
        Map<String, Stall> last = new java.util.TreeMap<>();
        for (Stall st : stalls) {
            String key = st.kind() + "/" + st.startMs();
            Stall before = last.get(key);
            if (before == null || before.open() || !st.open()) {
                last.put(key, st);
            }
        }
        last.values().removeIf(st -> st.endMs() == st.startMs());
        StallDetector d = series.detector(done.scope().detector());
        return new Outcome(last, d.stallCount(), d.stallMs(), done.scope().trend().n());
    }

    @Test
    void events_affectedOps_areTheOpsWithAStallOfTheSameKindOverlapping_inOpOrder() {
        StallDetector.State stalled = stalledAt(11);
        Map<String, StallDetector.State> ops = Map.of("write", stalled, "read", stalled, "insert",
                StallDetector.State.empty());
        Stall hard = new Stall(StallEvent.HARD, T0 + 10_500, T0 + 13_000, 2, 1000, 900, 5, 900, true, true);
        Stall latency = new Stall(StallEvent.LATENCY, T0 + 10_500, T0 + 13_000, 2, 1000, 900, 500, 9000, false, true);

        List<StallEvent> events = series.events(scope("*"), List.of(hard, latency), ops, 42);

        assertThat(events).extracting(StallEvent::kind, StallEvent::affectedOps).containsExactly(
                tuple(StallEvent.HARD, List.of("read", "write")),
                tuple(StallEvent.LATENCY, List.of()));
        assertThat(events.get(0)).satisfies(e -> {
            assertThat(e.runId()).isEqualTo(RUN);
            assertThat(e.minQps()).isZero(); // a hard stall did no work
            assertThat(e.atEpochMs()).isEqualTo(42);
        });
        assertThat(events.get(1).minQps()).isEqualTo(500);
    }

    /** Seconds 0 to 10 with samples (0 is where the step started), then empty ones up to {@code lastSecond}. */
    private ScopeState busyThenEmpty(int lastSecond) {
        ScopeState s = scope("*");
        for (int second = 0; second <= lastSecond; second++) {
            s = feed(s, window("*", second, second <= 10 ? 1000 : 0, 900));
        }
        return s;
    }

    private ScopeState feed(ScopeState s, WindowStats... windows) {
        for (WindowStats w : windows) {
            StallSeries.Fed fed = series.onTime(s, w, until);
            stalls.addAll(fed.stalls());
            s = fed.scope();
        }
        return s;
    }

    private StallDetector.State stalledAt(int second) {
        StallDetector d = series.detector(null);
        d.accept(new WindowPoint(T0 + second * 1000L, T0 + second * 1000L + 1000, 0, 0, 0));
        return d.state();
    }
}
