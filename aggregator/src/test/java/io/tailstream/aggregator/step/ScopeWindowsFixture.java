package io.tailstream.aggregator.step;

import io.tailstream.schemas.event.WindowStats;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * 1 s windows of one scope for the stage-3 rule tests: every sample succeeds with one statement, all at one latency.
 * Times count from {@link #T0}, a minute boundary, where roll-ups of 10 s and 60 s start.
 */
final class ScopeWindowsFixture {

    static final String RUN = "run-r";
    static final int STEP = 2;
    static final long T0 = 28_333_333L * 60_000;

    private ScopeWindowsFixture() {}

    static ScopeState scope(String op) {
        return ScopeState.start(RUN, STEP, op);
    }

    /** The measured window starting {@code second} seconds after {@link #T0}. */
    static WindowStats window(String op, int second, long samples, long latencyMicros) {
        return window(op, second, samples, latencyMicros, 0, 0);
    }

    /**
     * @param warmup samples flagged warm-up: none or all (a window mixing both would carry its measured part)
     * @param late   samples that arrived after the window closed ({@code late == samples}: a late correction)
     */
    static WindowStats window(String op, int second, long samples, long latencyMicros, long warmup, long late) {
        Histogram ok = LatencyHistograms.create();
        if (samples > 0) {
            ok.recordValueWithCount(latencyMicros, samples);
        }
        long startMs = T0 + second * 1000L;
        return WindowStats.of(RUN, STEP, op, startMs, startMs + 1000, samples, 0, Map.of(), samples, samples, ok,
                null, warmup, late, null);
    }
}
