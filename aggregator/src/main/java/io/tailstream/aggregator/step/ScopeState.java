package io.tailstream.aggregator.step;

import io.tailstream.aggregator.stall.StallDetector;
import io.tailstream.aggregator.stall.WindowPoint;
import io.tailstream.schemas.event.WindowPart;
import java.util.List;

/**
 * What stage 3 remembers about one scope (run, step, op) of a step; JSON in a change-logged store. Immutable.
 *
 * <p>Field names differ from the state of aggregators before summaries version 2 ({@code measured},
 * {@code measureStartMs}, a roll-up's {@code acc}), so such state restores as empty sums instead of being misread.
 *
 * @param measuredSum         Σ of the scope's windows' measured parts (late corrections included); null = empty
 * @param firstMeasuredMs     start of the first window holding measured samples, -1 before one
 * @param lastMeasuredEndMs   end of the last window holding measured samples, -1 before one
 * @param lateCount           late samples of the scope, measured or not
 * @param seenSamples         a window of the scope held samples (the one that did is where the step started)
 * @param seenWarmup          a window of the scope held warm-up samples
 * @param wholeFromMs         start of the first whole measured window (stall rules and trend start there), -1 before
 * @param trend               QPS sums of the whole measured windows fed so far
 * @param held                whole measured windows not yet fed to the stall rules and trend, oldest first: the last
 *                            window with samples and the empty ones after it, which may lie past the measurement's
 *                            end (see {@link StallSeries})
 * @param detector            stall rules' state
 * @param rollups             open roll-up windows, one per configured size
 * @param ended               the scope's end-of-step ticks have closed its last window
 * @param finalized           the held windows were decided, the stall rules finished: stalls and trend are final
 * @param published           fingerprint of the last summary published (without its emission time), null before
 * @param publishedThroughMs  end of the last window whose stall events were published, fed provisionally or for
 *                            good (see {@link StallSeries}); -1 before one
 */
public record ScopeState(String runId, int stepId, String op, WindowPart measuredSum, long firstMeasuredMs,
                         long lastMeasuredEndMs, long lateCount, boolean seenSamples, boolean seenWarmup,
                         long wholeFromMs, QpsTrend trend, List<HeldWindow> held, StallDetector.State detector,
                         List<Rollup> rollups, boolean ended, boolean finalized, String published,
                         long publishedThroughMs) {

    public ScopeState {
        measuredSum = measuredSum == null ? WindowPart.EMPTY : measuredSum;
        trend = trend == null ? QpsTrend.empty() : trend;
        held = held == null ? List.of() : List.copyOf(held);
        rollups = rollups == null ? List.of() : List.copyOf(rollups);
    }

    public static ScopeState start(String runId, int stepId, String op) {
        return new ScopeState(runId, stepId, op, WindowPart.EMPTY, -1, -1, 0, false, false, -1, QpsTrend.empty(),
                List.of(), StallDetector.State.empty(), List.of(), false, false, null, -1);
    }

    ScopeState withRollups(List<Rollup> next) {
        return new ScopeState(runId, stepId, op, measuredSum, firstMeasuredMs, lastMeasuredEndMs, lateCount,
                seenSamples, seenWarmup, wholeFromMs, trend, held, detector, next, ended, finalized, published,
                publishedThroughMs);
    }

    ScopeState withMeasured(WindowPart sum, long firstMs, long lastEndMs, long late) {
        return new ScopeState(runId, stepId, op, sum, firstMs, lastEndMs, late, seenSamples, seenWarmup, wholeFromMs,
                trend, held, detector, rollups, ended, finalized, published, publishedThroughMs);
    }

    ScopeState withPhase(boolean samples, boolean warmup, long wholeFrom) {
        return new ScopeState(runId, stepId, op, measuredSum, firstMeasuredMs, lastMeasuredEndMs, lateCount, samples,
                warmup, wholeFrom, trend, held, detector, rollups, ended, finalized, published, publishedThroughMs);
    }

    ScopeState withSeries(QpsTrend nextTrend, List<HeldWindow> nextHeld, StallDetector.State nextDetector) {
        return new ScopeState(runId, stepId, op, measuredSum, firstMeasuredMs, lastMeasuredEndMs, lateCount,
                seenSamples, seenWarmup, wholeFromMs, nextTrend, nextHeld, nextDetector, rollups, ended, finalized,
                published, publishedThroughMs);
    }

    ScopeState endedNow() {
        return new ScopeState(runId, stepId, op, measuredSum, firstMeasuredMs, lastMeasuredEndMs, lateCount,
                seenSamples, seenWarmup, wholeFromMs, trend, held, detector, List.of(), true, finalized, published,
                publishedThroughMs);
    }

    ScopeState finalizedNow() {
        return new ScopeState(runId, stepId, op, measuredSum, firstMeasuredMs, lastMeasuredEndMs, lateCount,
                seenSamples, seenWarmup, wholeFromMs, trend, List.of(), detector, rollups, ended, true, published,
                publishedThroughMs);
    }

    ScopeState withPublishedThrough(long endMs) {
        return endMs == publishedThroughMs ? this : new ScopeState(runId, stepId, op, measuredSum, firstMeasuredMs,
                lastMeasuredEndMs, lateCount, seenSamples, seenWarmup, wholeFromMs, trend, held, detector, rollups,
                ended, finalized, published, endMs);
    }

    ScopeState publishedAs(String fingerprint) {
        return new ScopeState(runId, stepId, op, measuredSum, firstMeasuredMs, lastMeasuredEndMs, lateCount,
                seenSamples, seenWarmup, wholeFromMs, trend, held, detector, rollups, ended, finalized, fingerprint,
                publishedThroughMs);
    }

    /**
     * A whole measured window held back from the stall rules and trend.
     *
     * @param point   the window as the stall rules see it
     * @param samples samples completed in it, successful or not (a window with samples lies inside the measurement)
     */
    public record HeldWindow(WindowPoint point, long samples) {}

    /**
     * An open roll-up window.
     *
     * @param sizeMs      roll-up size
     * @param startMs     start, aligned to the epoch
     * @param whole       Σ of its windows' samples; null = none
     * @param measured    Σ of its windows' measured parts; null while no window had warm-up samples (then the
     *                    measured samples are the whole)
     * @param warmupCount warm-up samples
     * @param lateCount   late samples
     */
    public record Rollup(long sizeMs, long startMs, WindowPart whole, WindowPart measured, long warmupCount,
                         long lateCount) {

        public Rollup {
            whole = whole == null ? WindowPart.EMPTY : whole;
        }
    }
}
