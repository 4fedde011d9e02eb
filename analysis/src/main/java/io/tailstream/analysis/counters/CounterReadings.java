package io.tailstream.analysis.counters;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Collects one producer's readings of one target into a {@link CounterSeries} per name, on the times of every
 * reading: a {@code state.*} or {@code wait.*} gauge (sessions in a state, listed only when there are some) absent
 * from a good reading is 0; any other value absent, and every value of a failed reading, is NaN. Adds the derived
 * figures {@link StallExplanation#DIRTY_PAGES_PCT} and {@link StallExplanation#CHECKPOINT_AGE_PCT} where their
 * inputs were read. Not thread safe.
 */
public final class CounterReadings {

    /** Reading time → whether it succeeded. */
    private final TreeMap<Long, Boolean> readings = new TreeMap<>();
    private final Map<String, Boolean> cumulative = new TreeMap<>();
    private final Map<String, Map<Long, Double>> values = new TreeMap<>();

    /** A reading at {@code atMs}; {@code ok} false for one that failed (its values are unknown, not zero). */
    public CounterReadings reading(long atMs, boolean ok) {
        readings.merge(atMs, ok, Boolean::logicalAnd);
        return this;
    }

    /** A value of a good reading at {@code atMs}. */
    public CounterReadings value(long atMs, String name, boolean isCounter, double value) {
        readings.putIfAbsent(atMs, true);
        cumulative.put(name, isCounter);
        values.computeIfAbsent(name, k -> new TreeMap<>()).put(atMs, value);
        return this;
    }

    /** Whether a name counts sessions in a state: absent from a good reading means none. */
    static boolean zeroWhenAbsent(String name) {
        return name.startsWith("state.") || name.startsWith("wait.");
    }

    /** Every name's series, then the derived ones, on the times of every reading. */
    public List<CounterSeries> series() {
        long[] at = readings.keySet().stream().mapToLong(Long::longValue).toArray();
        boolean[] ok = new boolean[at.length];
        int i = 0;
        for (boolean b : readings.values()) {
            ok[i++] = b;
        }
        List<CounterSeries> out = new ArrayList<>();
        Map<String, double[]> byName = new TreeMap<>();
        for (Map.Entry<String, Map<Long, Double>> e : values.entrySet()) {
            double[] v = new double[at.length];
            double absent = zeroWhenAbsent(e.getKey()) ? 0 : Double.NaN;
            for (int k = 0; k < at.length; k++) {
                Double x = e.getValue().get(at[k]);
                v[k] = !ok[k] ? Double.NaN : x != null ? x : absent;
            }
            byName.put(e.getKey(), v);
            out.add(new CounterSeries(e.getKey(), cumulative.get(e.getKey()), at, v));
        }
        ratio(out, at, byName, StallExplanation.DIRTY_PAGES_PCT, "Innodb_buffer_pool_pages_dirty",
                "Innodb_buffer_pool_pages_total");
        if (!ratio(out, at, byName, StallExplanation.CHECKPOINT_AGE_PCT, "Innodb_checkpoint_age",
                "Innodb_checkpoint_max_age")) {
            ratio(out, at, byName, StallExplanation.CHECKPOINT_AGE_PCT, "checkpoint_age", "max_wal_size");
        }
        return out;
    }

    /** Adds {@code 100 * numerator / denominator} as the gauge {@code name} when both were read. */
    private static boolean ratio(List<CounterSeries> out, long[] at, Map<String, double[]> byName, String name,
                                 String numerator, String denominator) {
        double[] n = byName.get(numerator);
        double[] d = byName.get(denominator);
        if (n == null || d == null) {
            return false;
        }
        double[] v = new double[at.length];
        for (int k = 0; k < at.length; k++) {
            v[k] = d[k] > 0 ? 100.0 * n[k] / d[k] : Double.NaN;
        }
        out.add(new CounterSeries(name, false, at, v));
        return true;
    }
}
