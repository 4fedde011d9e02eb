package io.tailstream.analysis;

import java.util.List;

/**
 * The peak of a concurrency sweep: the level of highest QPS, the lowest thread count among levels of equal QPS. The
 * report's rows, the aggregator's run summary and the producer's plateau line all name this level. Stateless and
 * thread safe.
 */
public final class SweepPeak {

    private SweepPeak() {}

    /**
     * Index of the peak level, or -1 when no level was measured.
     *
     * @param threads the thread count of each level, in any order
     * @param qps     the QPS of each level (same index as {@code threads}); null for a level not measured, which
     *                takes no part
     */
    public static int index(List<Integer> threads, List<Double> qps) {
        if (threads.size() != qps.size()) {
            throw new IllegalArgumentException("sweep peak: " + threads.size() + " thread counts but " + qps.size()
                    + " QPS figures");
        }
        int peak = -1;
        for (int i = 0; i < qps.size(); i++) {
            Double q = qps.get(i);
            if (q == null) {
                continue;
            }
            if (peak < 0) {
                peak = i;
                continue;
            }
            double best = qps.get(peak);
            if (q > best || q == best && threads.get(i) < threads.get(peak)) {
                peak = i;
            }
        }
        return peak;
    }
}
