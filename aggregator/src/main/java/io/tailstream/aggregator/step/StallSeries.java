package io.tailstream.aggregator.step;

import io.tailstream.aggregator.stall.Stall;
import io.tailstream.aggregator.stall.StallConfig;
import io.tailstream.aggregator.stall.StallDetector;
import io.tailstream.aggregator.stall.WindowPoint;
import io.tailstream.schemas.event.StallEvent;
import io.tailstream.schemas.event.WindowStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The series of windows a scope's stall rules ({@link StallDetector}) and QPS trend ({@link QpsTrend}) read, and the
 * {@link StallEvent}s they give.
 *
 * <p>The stall rules and the QPS trend read only <em>whole</em> measured windows, because the first and last windows
 * of a step hold part of a second: a last window covering 0.24 s of measurement reads as a 76 % collapse. Left out are
 * windows holding warm-up samples, the scope's first window with samples when no warm-up came before it (the step
 * started inside it), and windows reaching past the end of the measurement. That end is known exactly only from the
 * producers' {@code StepEnded}, which may come before or after the last windows; so the last window with samples and
 * the empty windows after it are <em>held</em> ({@link ScopeState#held()}) until a later window with samples proves
 * them inside (no sample completes after the measurement ends), or until more than {@link #HOLD_WINDOWS} windows are
 * held (a hard stall is then reported that many windows later), or until the summary is first published
 * ({@link #finish}), when they are fed if they end by the exact measurement end and left out otherwise (all of them
 * when the end is not known). What the rules see therefore depends only on the windows and the step's end, never on
 * the order in which control events and windows arrive.
 *
 * <p>Held windows are not kept from the <em>live</em> view: one that ends before the step's planned end
 * ({@link StepMeta#insideUnlessEarlyEndMs}) lies inside the measurement unless a producer ends early, so its stall
 * events are published at once, from the rules run provisionally over the held windows; when the windows are fed for
 * good they give the same events, which are not published twice. Only a measurement that ends early (a transaction
 * budget, a stop, a failure) can contradict such a window: {@link #finish} then publishes the stalls again as decided
 * with the exact end, and withdraws a stall the rules no longer declare by a closing event whose end equals its
 * start. Figures (stall count and time, trend) come from the windows fed for good only.
 *
 * <p>Window bounds in ms since the epoch; trend time in hours since the scope's first whole window. Immutable and
 * thread safe.
 */
final class StallSeries {

    /**
     * Most whole windows held back from the stall rules after the last window with samples (see the class
     * documentation): the empty windows a producer's heartbeats make between its last transaction and its end-of-step
     * marker are a few hundred milliseconds, rarely more than one window.
     */
    static final int HOLD_WINDOWS = 3;
    /**
     * How much earlier than a producer's planned measurement end a window must end to be fed provisionally: covers the
     * difference between the time a producer stamps on its {@code StepStarted} and its samples' clock.
     */
    static final long PLANNED_END_MARGIN_MS = 1_000;
    private static final double MS_PER_HOUR = 3_600_000.0;

    private final StallConfig stallConfig;

    StallSeries(StallConfig stallConfig) {
        this.stallConfig = stallConfig;
    }

    /**
     * A scope's state after windows were fed to its stall rules and trend.
     *
     * @param scope  the scope's next state
     * @param stalls the declared stalls the windows opened, extended or ended, in order
     */
    record Fed(ScopeState scope, List<Stall> stalls) {}

    /**
     * An on-time window of the scope (already in its sums and roll-ups): held or fed if whole, else left out; held
     * windows ending by {@code insideUnlessEarlyEndMs} are fed provisionally (see the class documentation; -1 = none).
     */
    Fed onTime(ScopeState s, WindowStats w, long insideUnlessEarlyEndMs) {
        Fed fed = onTime(s, w);
        return fed.scope().finalized() ? fed : provisional(fed, insideUnlessEarlyEndMs);
    }

    private Fed onTime(ScopeState s, WindowStats w) {
        boolean samples = w.count() > 0;
        if (w.warmupCount() > 0) {
            return new Fed(s.withPhase(s.seenSamples() || samples, true, s.wholeFromMs()), List.of());
        }
        long wholeFrom = s.wholeFromMs();
        if (wholeFrom < 0) {
            // before the first whole window: empty ones are before the measurement, and the scope's first window
            // with samples is where the step started (partly covered) unless warm-up came before it
            boolean startsHere = samples && (s.seenSamples() || s.seenWarmup());
            if (!startsHere) {
                return new Fed(s.withPhase(s.seenSamples() || samples, s.seenWarmup(), -1), List.of());
            }
            wholeFrom = w.windowStartEpochMs();
        }
        s = s.withPhase(s.seenSamples() || samples, s.seenWarmup(), wholeFrom);
        if (s.finalized()) {
            // stalls and trend are final once the summary went out (a window of a producer waited out)
            return new Fed(s, List.of());
        }
        return hold(s, new ScopeState.HeldWindow(new WindowPoint(w.windowStartEpochMs(), w.windowEndEpochMs(),
                w.successful(), w.qps(), w.p99Micros()), w.count()));
    }

    /**
     * The first publication of the scope's summary: the held windows are decided with the exact measurement end of
     * {@code span} (fed if they end by it, left out otherwise; all left out when {@code span} is null, not known), then
     * the stall rules finish.
     */
    Fed finish(ScopeState s, StepMeta.Bounds span) {
        List<ScopeState.HeldWindow> inside = new ArrayList<>();
        boolean contradicted = false;
        for (ScopeState.HeldWindow h : s.held()) {
            if (span != null && h.point().endMs() * 1000 <= span.endMicros()) {
                inside.add(h);
            } else {
                contradicted |= h.point().endMs() <= s.publishedThroughMs();
            }
        }
        List<Stall> published = contradicted ? provisionalStalls(s) : List.of();
        Fed fed = feed(contradicted ? s.withPublishedThrough(-1) : s, inside, List.of());
        StallDetector detector = detector(fed.scope().detector());
        List<Stall> stalls = new ArrayList<>(fed.stalls());
        stalls.addAll(detector.finish());
        for (Stall p : published) {
            if (stalls.stream().noneMatch(d -> d.kind().equals(p.kind()) && d.startMs() == p.startMs())) {
                stalls.add(withdrawn(p));
            }
        }
        ScopeState next = fed.scope().withPublishedThrough(Math.max(fed.scope().publishedThroughMs(),
                s.publishedThroughMs()));
        return new Fed(next.withSeries(next.trend(), List.of(), detector.state()).finalizedNow(), stalls);
    }

    /**
     * The stall rules' state with the held windows that end by {@code untilMs} fed provisionally (the stored state is
     * unchanged): what the live view of an op scope shows.
     */
    StallDetector.State provisionalState(ScopeState s, long untilMs) {
        StallDetector detector = detector(s.detector());
        for (ScopeState.HeldWindow h : s.held()) {
            if (h.point().endMs() > untilMs) {
                break;
            }
            detector.accept(h.point());
        }
        return detector.state();
    }

    /**
     * The stall events of a {@code "*"} scope's stalls: {@code affectedOps} lists the ops whose own detector has a
     * stall of the same kind overlapping it.
     *
     * @param opDetectors the stall rules' state of each op scope of the step, by op
     * @param nowMs       wall clock, the events' emission time
     */
    List<StallEvent> events(ScopeState s, List<Stall> stalls, Map<String, StallDetector.State> opDetectors,
                            long nowMs) {
        Map<String, List<Stall>> opStalls = new TreeMap<>();
        opDetectors.forEach((op, state) -> opStalls.put(op, detector(state).stalls()));
        List<StallEvent> out = new ArrayList<>();
        for (Stall st : stalls) {
            List<String> affected = new ArrayList<>();
            opStalls.forEach((op, theirs) -> {
                if (theirs.stream().anyMatch(o -> o.kind().equals(st.kind()) && o.overlaps(st.startMs(), st.endMs()))) {
                    affected.add(op);
                }
            });
            out.add(new StallEvent(s.runId(), s.stepId(), st.kind(), st.startMs(), st.endMs(), st.open(),
                    st.baselineQps(), StallEvent.HARD.equals(st.kind()) ? 0 : st.minQps(), st.baselineP99Micros(),
                    st.worstP99Micros(), affected, nowMs));
        }
        return out;
    }

    /** The stall rules with a scope's state ({@link ScopeState#detector()}; null = none yet). */
    StallDetector detector(StallDetector.State state) {
        return new StallDetector(stallConfig, state);
    }

    /**
     * Holds a whole window back and feeds the stall rules and trend what is proven inside the measurement: everything
     * held before a window with samples, and the oldest windows beyond {@link #HOLD_WINDOWS}.
     */
    private Fed hold(ScopeState s, ScopeState.HeldWindow window) {
        List<ScopeState.HeldWindow> held = new ArrayList<>(s.held());
        held.add(window);
        int release = window.samples() > 0 ? held.size() - 1 : Math.max(0, held.size() - HOLD_WINDOWS);
        return feed(s, held.subList(0, release), held.subList(release, held.size()));
    }

    /**
     * Feeds {@code windows} to the stall rules and trend in order; {@code stillHeld} stay held. Returns the stalls of
     * the windows whose events were not published yet (provisionally).
     */
    private Fed feed(ScopeState s, List<ScopeState.HeldWindow> windows, List<ScopeState.HeldWindow> stillHeld) {
        if (windows.isEmpty()) {
            return new Fed(s.withSeries(s.trend(), stillHeld, s.detector()), List.of());
        }
        StallDetector detector = detector(s.detector());
        QpsTrend trend = s.trend();
        List<Stall> stalls = new ArrayList<>();
        long through = s.publishedThroughMs();
        for (ScopeState.HeldWindow h : windows) {
            WindowPoint p = h.point();
            List<Stall> theirs = detector.accept(p);
            if (p.endMs() > through) {
                stalls.addAll(theirs);
                through = p.endMs();
            }
            trend = trend.plus((p.startMs() - s.wholeFromMs()) / MS_PER_HOUR, p.qps(), p.endMs() - p.startMs());
        }
        return new Fed(s.withSeries(trend, stillHeld, detector.state()).withPublishedThrough(through), stalls);
    }

    /**
     * Adds to {@code fed} the stalls of the held windows that end by {@code untilMs} and were not published yet: the
     * rules run over them from the scope's state without storing the result.
     */
    private Fed provisional(Fed fed, long untilMs) {
        ScopeState s = fed.scope();
        StallDetector detector = detector(s.detector());
        List<Stall> stalls = new ArrayList<>(fed.stalls());
        long through = s.publishedThroughMs();
        for (ScopeState.HeldWindow h : s.held()) {
            if (h.point().endMs() > untilMs) {
                break;
            }
            List<Stall> theirs = detector.accept(h.point());
            if (h.point().endMs() > through) {
                stalls.addAll(theirs);
                through = h.point().endMs();
            }
        }
        return new Fed(s.withPublishedThrough(through), stalls);
    }

    /** The stalls that the held windows already published gave, each in its last published form. */
    private List<Stall> provisionalStalls(ScopeState s) {
        StallDetector detector = detector(s.detector());
        Map<String, Stall> last = new TreeMap<>();
        for (ScopeState.HeldWindow h : s.held()) {
            if (h.point().endMs() > s.publishedThroughMs()) {
                break;
            }
            detector.accept(h.point()).forEach(st -> last.put(st.kind() + "/" + st.startMs(), st));
        }
        return new ArrayList<>(last.values());
    }

    /** A closing event that withdraws {@code stall}: it ends where it starts. */
    private static Stall withdrawn(Stall stall) {
        return new Stall(stall.kind(), stall.startMs(), stall.startMs(), 0, stall.baselineQps(),
                stall.baselineP99Micros(), stall.minQps(), stall.worstP99Micros(), false, true);
    }
}
