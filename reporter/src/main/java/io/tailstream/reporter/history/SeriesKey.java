package io.tailstream.reporter.history;

import java.util.Comparator;

/**
 * What makes archived steps one series: the same target (by its plan name and product), the same workload with the
 * same options, and the same concurrency. Everything else that describes a step — server version, captured
 * variables, driver, URL, client host, step durations — is its {@link Fingerprint}, which may change along the
 * series and explains a change point.
 *
 * @param product the database product, as JDBC names it; empty in archives that did not record it
 * @param options the workload's options as canonical JSON (keys sorted)
 */
public record SeriesKey(String target, String product, String workload, String options, int threads)
        implements Comparable<SeriesKey> {

    private static final Comparator<SeriesKey> ORDER = Comparator.comparing(SeriesKey::workload)
            .thenComparing(SeriesKey::target).thenComparing(SeriesKey::product)
            .thenComparingInt(SeriesKey::threads).thenComparing(SeriesKey::options);

    @Override
    public int compareTo(SeriesKey o) {
        return ORDER.compare(this, o);
    }

    /**
     * {@code target (product) · workload · N threads}. The options are left out (a workload's options hold every
     * default, dozens of them); the csv, json and html forms carry them.
     */
    public String label() {
        return target + (product.isEmpty() ? "" : " (" + product + ")") + " · " + workload + " · " + threads
                + " threads";
    }
}
