package io.tailstream.aggregator.stall;

import io.tailstream.schemas.event.StallEvent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The stall rules over the measured windows of one scope, fed in time order:
 * <ul>
 *   <li><b>hard</b>: a window in which no transaction succeeded (it exists because heartbeats say the step is
 *       active; failed transactions are no work done).
 *       Declared at the first such window; the stall lasts while windows stay empty.</li>
 *   <li><b>throughput</b>: a non-empty window whose QPS is below {@code throughputFraction} x baseline QPS, for at
 *       least {@code throughputMinWindows} consecutive windows.</li>
 *   <li><b>latency</b>: a non-empty window whose P99 is above {@code latencyMultiple} x baseline P99, for at least
 *       {@code latencyMinWindows} consecutive windows.</li>
 * </ul>
 * The baseline is the median QPS and the median P99 of the last {@code baselineWindows} measured windows that met
 * none of the three conditions (so a stall never drags its own baseline down); throughput and latency rules apply
 * once it holds {@code minBaselineWindows} windows. A run of condition windows that ends before it is long enough
 * is not a stall (and its windows stay out of the baseline). The three kinds are tracked independently.
 *
 * <p>{@link #accept} returns the stalls to publish for the window: each declared stall that the window opened or
 * extended ({@code open = true}) and each that it ended ({@code open = false}). The detector's whole state is the
 * {@link State} record (JSON-serializable), so it can live in a change-logged store.
 *
 * <p>Not thread safe.
 */
public final class StallDetector {

    /** How many ended stalls are kept for {@link #stalls()} (affected-ops lookups). */
    static final int HISTORY = 100;

    private final StallConfig config;
    private State state;

    /**
     * Everything the detector remembers.
     *
     * @param baselineQps recent unstalled window QPS, oldest first
     * @param baselineP99 recent unstalled window P99, oldest first
     * @param runs        current run per kind (hard, throughput, latency), null if none
     * @param history     declared stalls, oldest first (bounded)
     * @param stallCount  declared stalls that ended
     * @param stallMs     their total duration
     */
    public record State(double[] baselineQps, long[] baselineP99, Stall hard, Stall throughput, Stall latency,
                        List<Stall> history, int stallCount, long stallMs) {

        public State {
            baselineQps = baselineQps == null ? new double[0] : baselineQps;
            baselineP99 = baselineP99 == null ? new long[0] : baselineP99;
            history = history == null ? List.of() : List.copyOf(history);
        }

        public static State empty() {
            return new State(new double[0], new long[0], null, null, null, List.of(), 0, 0);
        }
    }

    public StallDetector(StallConfig config, State state) {
        this.config = config;
        this.state = state == null ? State.empty() : state;
    }

    public State state() {
        return state;
    }

    /** Feeds the next measured window; returns the declared stalls it opened, extended or ended. */
    public List<Stall> accept(WindowPoint w) {
        boolean baselineReady = state.baselineQps().length >= config.minBaselineWindows();
        double baseQps = baselineReady ? median(state.baselineQps()) : 0;
        long baseP99 = baselineReady ? median(state.baselineP99()) : 0;
        boolean hard = w.count() == 0;
        boolean slow = !hard && baselineReady && w.qps() < config.throughputFraction() * baseQps;
        boolean spike = !hard && baselineReady && w.p99Micros() > config.latencyMultiple() * baseP99;

        List<Stall> out = new ArrayList<>(2);
        List<Stall> history = new ArrayList<>(state.history());
        int[] count = {state.stallCount()};
        long[] ms = {state.stallMs()};
        Stall h = step(StallEvent.HARD, state.hard(), hard, 1, w, baseQps, baseP99, out, history, count, ms);
        Stall t = step(StallEvent.THROUGHPUT, state.throughput(), slow, config.throughputMinWindows(), w, baseQps,
                baseP99, out, history, count, ms);
        Stall l = step(StallEvent.LATENCY, state.latency(), spike, config.latencyMinWindows(), w, baseQps, baseP99,
                out, history, count, ms);
        double[] qps = state.baselineQps();
        long[] p99 = state.baselineP99();
        if (!hard && !slow && !spike) {
            qps = append(qps, w.qps(), config.baselineWindows());
            p99 = append(p99, w.p99Micros(), config.baselineWindows());
        }
        state = new State(qps, p99, h, t, l, trim(history), count[0], ms[0]);
        return out;
    }

    /** The step ended: every open run ends; returns the declared stalls that ended. */
    public List<Stall> finish() {
        List<Stall> out = new ArrayList<>(2);
        List<Stall> history = new ArrayList<>(state.history());
        int[] count = {state.stallCount()};
        long[] ms = {state.stallMs()};
        for (Stall run : Arrays.asList(state.hard(), state.throughput(), state.latency())) {
            if (run != null && run.declared()) {
                end(run.close(0), out, history, count, ms);
            }
        }
        state = new State(state.baselineQps(), state.baselineP99(), null, null, null, trim(history), count[0], ms[0]);
        return out;
    }

    /** Declared stalls, ended and open, oldest first (the last {@value #HISTORY} ended ones). */
    public List<Stall> stalls() {
        List<Stall> all = new ArrayList<>(state.history());
        for (Stall run : Arrays.asList(state.hard(), state.throughput(), state.latency())) {
            if (run != null && run.declared()) {
                all.add(run);
            }
        }
        return all;
    }

    /** Ended declared stalls. */
    public int stallCount() {
        return state.stallCount();
    }

    /** Total duration of the ended declared stalls. */
    public long stallMs() {
        return state.stallMs();
    }

    private static Stall step(String kind, Stall run, boolean condition, int minWindows, WindowPoint w,
                              double baseQps, long baseP99, List<Stall> out, List<Stall> history, int[] count,
                              long[] ms) {
        if (condition) {
            Stall next = run == null
                    ? new Stall(kind, w.startMs(), w.endMs(), 1, baseQps, baseP99, w.qps(), w.p99Micros(), true, false)
                    : run.extend(w);
            if (next.windows() >= minWindows) {
                next = next.declare();
                out.add(next);
            }
            return next;
        }
        if (run != null && run.declared()) {
            // the window that ends a hard stall holds the stalled transactions: its P99 is the stall's worst
            end(run.close(StallEvent.HARD.equals(kind) ? w.p99Micros() : 0), out, history, count, ms);
        }
        return null;
    }

    private static void end(Stall ended, List<Stall> out, List<Stall> history, int[] count, long[] ms) {
        out.add(ended);
        history.add(ended);
        count[0]++;
        ms[0] += ended.durationMs();
    }

    private static List<Stall> trim(List<Stall> history) {
        return history.size() <= HISTORY ? history : history.subList(history.size() - HISTORY, history.size());
    }

    private static double[] append(double[] a, double v, int max) {
        int keep = Math.min(a.length, max - 1);
        double[] b = new double[keep + 1];
        System.arraycopy(a, a.length - keep, b, 0, keep);
        b[keep] = v;
        return b;
    }

    private static long[] append(long[] a, long v, int max) {
        int keep = Math.min(a.length, max - 1);
        long[] b = new long[keep + 1];
        System.arraycopy(a, a.length - keep, b, 0, keep);
        b[keep] = v;
        return b;
    }

    /** Median; the mean of the two middle values for an even count. */
    static double median(double[] values) {
        double[] s = values.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
    }

    /** Median; the lower middle value for an even count (P99s are bucket values, keep them one). */
    static long median(long[] values) {
        long[] s = values.clone();
        Arrays.sort(s);
        return s[(s.length - 1) / 2];
    }
}
