package io.tailstream.aggregator.stall;

/**
 * A stall of one scope as the detector tracks it: a run of consecutive stalled windows of one kind.
 *
 * @param kind          {@code hard}, {@code throughput} or {@code latency} (the {@code StallEvent} constants)
 * @param startMs       start of the first stalled window, epoch ms
 * @param endMs         end of the last stalled window so far, epoch ms
 * @param windows       stalled windows so far
 * @param baselineQps   baseline QPS when the run began (0 if there was no baseline yet)
 * @param baselineP99Micros baseline P99 when the run began (0 if none)
 * @param minQps        lowest window QPS in the run
 * @param worstP99Micros highest window P99 in the run; for a hard stall also the P99 of the window that ended it
 *                      (the stalled transactions complete there)
 * @param open          the run has not ended
 * @param declared      the run is long enough to be a stall (K windows); undeclared runs are candidates only
 */
public record Stall(String kind, long startMs, long endMs, int windows, double baselineQps, long baselineP99Micros,
                    double minQps, long worstP99Micros, boolean open, boolean declared) {

    public long durationMs() {
        return endMs - startMs;
    }

    Stall extend(WindowPoint w) {
        return new Stall(kind, startMs, w.endMs(), windows + 1, baselineQps, baselineP99Micros,
                Math.min(minQps, w.qps()), Math.max(worstP99Micros, w.p99Micros()), true, declared);
    }

    Stall declare() {
        return new Stall(kind, startMs, endMs, windows, baselineQps, baselineP99Micros, minQps, worstP99Micros, open,
                true);
    }

    Stall close(long worstP99AfterMicros) {
        return new Stall(kind, startMs, endMs, windows, baselineQps, baselineP99Micros, minQps,
                Math.max(worstP99Micros, worstP99AfterMicros), false, declared);
    }

    /** True if this stall and [fromMs, toMs) overlap. */
    public boolean overlaps(long fromMs, long toMs) {
        return startMs < toMs && fromMs < endMs;
    }
}
