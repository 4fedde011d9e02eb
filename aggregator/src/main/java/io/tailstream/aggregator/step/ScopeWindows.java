package io.tailstream.aggregator.step;

import io.tailstream.aggregator.stall.Stall;
import io.tailstream.schemas.event.WindowStats;
import java.util.List;

/**
 * What one closed window of a scope, or a late correction, does to the scope's state: its measured part goes into the
 * summary's sums ({@link StepSummaries#measure}), all of it into the roll-ups ({@link Rollups}), and an on-time window
 * (not a late correction) into the series the stall rules and trend read ({@link StallSeries}).
 *
 * <p>Window bounds in ms since the epoch. Immutable and thread safe.
 */
final class ScopeWindows {

    private final Rollups rollups;
    private final StallSeries series;

    ScopeWindows(Rollups rollups, StallSeries series) {
        this.rollups = rollups;
        this.series = series;
    }

    /**
     * The scope after one window.
     *
     * @param scope   the scope's next state
     * @param rollups roll-up windows the window completed, or roll-up late corrections, to emit first, in order
     * @param stalls  the declared stalls it opened, extended or ended, in order
     */
    record Applied(ScopeState scope, List<WindowStats> rollups, List<Stall> stalls) {}

    /**
     * The scope after window {@code w}; {@code insideUnlessEarlyEndMs} is {@link StepMeta#insideUnlessEarlyEndMs}
     * (-1 = not known), for the stall events published before the windows are fed for good.
     */
    Applied apply(ScopeState s, WindowStats w, boolean late, long insideUnlessEarlyEndMs) {
        PartSum.Decoded whole = PartSum.Decoded.of(w.whole());
        // a wholly measured window (the common case) is decoded once
        PartSum.Decoded measured = w.measured() == null && w.warmupCount() == 0 ? whole
                : PartSum.Decoded.of(w.measuredPart());
        Rollups.Merged merged = late ? rollups.late(s, w, whole, measured) : rollups.onTime(s, w, whole, measured);
        s = StepSummaries.measure(s, w, measured).withRollups(merged.open());
        if (late) {
            return new Applied(s, merged.complete(), List.of());
        }
        StallSeries.Fed fed = series.onTime(s, w, insideUnlessEarlyEndMs);
        return new Applied(fed.scope(), merged.complete(), fed.stalls());
    }
}
