package io.tailstream.analysis.counters;

import java.util.Arrays;

/**
 * One counter's readings in time order, as the producer read them from the server.
 *
 * @param name       the product's own name, or a derived figure's ({@link StallExplanation#DIRTY_PAGES_PCT})
 * @param cumulative a counter (only grows; its rate between readings is what moves), not a gauge (the value is)
 * @param atMs       reading times, epoch ms, strictly increasing
 * @param values     the values; NaN where the reading had none
 */
public record CounterSeries(String name, boolean cumulative, long[] atMs, double[] values) {

    public CounterSeries {
        if (atMs.length != values.length) {
            throw new IllegalArgumentException(name + ": " + atMs.length + " times for " + values.length + " values");
        }
        for (int i = 1; i < atMs.length; i++) {
            if (atMs[i] <= atMs[i - 1]) {
                throw new IllegalArgumentException(name + ": reading times must increase, " + atMs[i] + " after "
                        + atMs[i - 1]);
            }
        }
        atMs = atMs.clone();
        values = values.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CounterSeries s && s.name.equals(name) && s.cumulative == cumulative
                && Arrays.equals(s.atMs, atMs) && Arrays.equals(s.values, values);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + Arrays.hashCode(atMs);
    }

    @Override
    public String toString() {
        return "CounterSeries[" + name + ", " + atMs.length + " readings]";
    }
}
