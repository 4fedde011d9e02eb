package io.tailstream.aggregator.step;

import static io.tailstream.aggregator.step.ScopeWindowsFixture.T0;
import static io.tailstream.aggregator.step.ScopeWindowsFixture.scope;
import static io.tailstream.aggregator.step.ScopeWindowsFixture.window;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.tailstream.schemas.event.WindowStats;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link Rollups}: 1 s windows into 10 s and 60 s roll-ups, on time, late, and at the scope's end. */
class RollupsTest {

    private final Rollups rollups = new Rollups(List.of(10_000L, 60_000L));
    private final List<WindowStats> complete = new ArrayList<>();
    private ScopeState s = scope("*");

    /** Seconds 0 to 10, 5 samples each: the 11th window opens the second 10 s roll-up. */
    @BeforeEach
    void elevenWindows() {
        for (int second = 0; second <= 10; second++) {
            s = merge(window("*", second, 5, 800), false);
        }
    }

    @Test
    void onTime_windowOfALaterPeriod_completesTheOpenRollupFirst_theEndCompletesTheRest() {
        assertThat(complete).extracting(WindowStats::windowStartEpochMs, WindowStats::windowEndEpochMs,
                WindowStats::count, WindowStats::qps).containsExactly(tuple(T0, T0 + 10_000, 50L, 5.0));
        assertThat(Rollups.closed(s)).extracting(WindowStats::windowStartEpochMs, WindowStats::windowEndEpochMs,
                WindowStats::count).containsExactly(tuple(T0 + 10_000, T0 + 20_000, 5L), tuple(T0, T0 + 60_000, 55L));
    }

    @Test
    void late_ofAnEmittedRollup_isACorrectionOfTheLateSamplesOnly_ofAnOpenRollupIsMergedIntoIt() {
        complete.clear();
        s = merge(window("*", 3, 2, 900, 0, 2), true);
        // the 10 s roll-up of second 3 was emitted: a correction holding the 2 late samples
        assertThat(complete).extracting(WindowStats::windowStartEpochMs, WindowStats::windowEndEpochMs,
                WindowStats::count, WindowStats::lateCount).containsExactly(tuple(T0, T0 + 10_000, 2L, 2L));
        // the 60 s one is still open: they join it
        assertThat(Rollups.closed(s)).extracting(WindowStats::windowStartEpochMs, WindowStats::count,
                WindowStats::lateCount).containsExactly(tuple(T0 + 10_000, 5L, 0L), tuple(T0, 57L, 2L));
    }

    @Test
    void late_ofTheOpenRollupPeriod_isMergedWithoutAnyRecord() {
        complete.clear();
        s = merge(window("*", 10, 1, 900, 0, 1), true);
        assertThat(complete).isEmpty();
        assertThat(Rollups.closed(s)).extracting(WindowStats::count, WindowStats::lateCount)
                .containsExactly(tuple(6L, 1L), tuple(56L, 1L));
    }

    private ScopeState merge(WindowStats w, boolean late) {
        PartSum.Decoded whole = PartSum.Decoded.of(w.whole());
        Rollups.Merged merged = late ? rollups.late(s, w, whole, whole) : rollups.onTime(s, w, whole, whole);
        complete.addAll(merged.complete());
        return s.withRollups(merged.open());
    }
}
