package io.tailstream.aggregator.step;

import io.tailstream.schemas.event.WindowPart;
import io.tailstream.schemas.event.WindowStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The roll-up rules of one scope: each window is merged into the open roll-up window of each configured size
 * (measured parts included); a roll-up is complete when a window of a later roll-up period arrives or the scope ends.
 * A late correction of a roll-up window already complete becomes a roll-up late correction at once. Histograms are
 * merged bucket by bucket ({@link PartSum}), never percentiles averaged. The open roll-ups are the caller's
 * ({@link ScopeState#rollups()}); what is complete comes back as {@link WindowStats} to emit, in order.
 *
 * <p>Sizes and window bounds in ms since the epoch; a roll-up starts at a multiple of its size. Immutable and thread
 * safe.
 */
final class Rollups {

    private final List<Long> sizesMs;

    /** @param sizesMs the roll-up sizes, in the order their roll-ups are kept and emitted */
    Rollups(List<Long> sizesMs) {
        this.sizesMs = List.copyOf(sizesMs);
    }

    /**
     * The open roll-ups after one window, and the roll-up windows it completed.
     *
     * @param open     the scope's open roll-ups, one per size
     * @param complete roll-up windows to emit, in order
     */
    record Merged(List<ScopeState.Rollup> open, List<WindowStats> complete) {}

    /** An on-time window: merged into the open roll-up of each size, completing first one of an earlier period. */
    Merged onTime(ScopeState s, WindowStats w, PartSum.Decoded whole, PartSum.Decoded measured) {
        Map<Long, ScopeState.Rollup> open = bySize(s);
        List<ScopeState.Rollup> next = new ArrayList<>();
        List<WindowStats> complete = new ArrayList<>();
        for (long size : sizesMs) {
            long start = start(w, size);
            ScopeState.Rollup r = open.get(size);
            if (r != null && r.startMs() != start) {
                complete.add(window(s, r));
                r = null;
            }
            next.add(plus(r == null ? empty(size, start) : r, w, whole, measured));
        }
        return new Merged(next, complete);
    }

    /**
     * A late correction: merged into the open roll-up of each size that covers its window; for a size whose roll-up of
     * that window was already emitted (or the scope ended), it becomes a roll-up late correction, a record of the
     * roll-up window holding only the late samples ({@code lateCount == count}), so that summing counts per scope and
     * roll-up window gives every sample.
     */
    Merged late(ScopeState s, WindowStats w, PartSum.Decoded whole, PartSum.Decoded measured) {
        Map<Long, ScopeState.Rollup> open = bySize(s);
        List<ScopeState.Rollup> next = new ArrayList<>();
        List<WindowStats> corrections = new ArrayList<>();
        for (long size : sizesMs) {
            ScopeState.Rollup r = open.get(size);
            long start = start(w, size);
            if (r != null && r.startMs() == start) {
                next.add(plus(r, w, whole, measured));
                continue;
            }
            if (r != null) {
                next.add(r);
            }
            if (w.count() > 0) {
                corrections.add(window(s, plus(empty(size, start), w, whole, measured)));
            }
        }
        return new Merged(next, corrections);
    }

    /** The scope ended: its open roll-ups, complete, in size order. */
    static List<WindowStats> closed(ScopeState s) {
        List<WindowStats> out = new ArrayList<>();
        for (ScopeState.Rollup r : s.rollups()) {
            out.add(window(s, r));
        }
        return out;
    }

    private static Map<Long, ScopeState.Rollup> bySize(ScopeState s) {
        Map<Long, ScopeState.Rollup> open = new TreeMap<>();
        for (ScopeState.Rollup r : s.rollups()) {
            open.put(r.sizeMs(), r);
        }
        return open;
    }

    private static long start(WindowStats w, long sizeMs) {
        return w.windowStartEpochMs() - Math.floorMod(w.windowStartEpochMs(), sizeMs);
    }

    private static ScopeState.Rollup empty(long sizeMs, long startMs) {
        return new ScopeState.Rollup(sizeMs, startMs, null, null, 0, 0);
    }

    /** A roll-up plus one window: its samples, and its measured part once any window of the roll-up had warm-up. */
    private static ScopeState.Rollup plus(ScopeState.Rollup r, WindowStats w, PartSum.Decoded whole,
                                          PartSum.Decoded measured) {
        WindowPart m = r.measured();
        if (m != null || w.warmupCount() > 0) {
            m = PartSum.plus(m == null ? r.whole() : m, measured);
        }
        return new ScopeState.Rollup(r.sizeMs(), r.startMs(), PartSum.plus(r.whole(), whole), m,
                r.warmupCount() + w.warmupCount(), r.lateCount() + w.lateCount());
    }

    /** A roll-up as the window record of its scope (it goes to the windows topic, beside the closed windows). */
    private static WindowStats window(ScopeState s, ScopeState.Rollup r) {
        WindowPart whole = r.whole();
        boolean mixed = r.warmupCount() > 0 && r.warmupCount() < whole.count();
        return WindowStats.of(s.runId(), s.stepId(), s.op(), r.startMs(), r.startMs() + r.sizeMs(),
                whole.count(), whole.errors(), whole.errorsByClass(), whole.queries(), whole.okQueries(),
                whole.successfulLatencies(), whole.errorHistogram() == null ? null : whole.failedLatencies(),
                r.warmupCount(), r.lateCount(), mixed ? r.measured() : null);
    }
}
