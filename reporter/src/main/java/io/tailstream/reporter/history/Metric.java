package io.tailstream.reporter.history;

import io.tailstream.reporter.query.TpccSamples;
import java.util.Locale;

/**
 * The figure a history series follows, one value per run: the run's completed steps of the series pooled, computed
 * exactly from the raw samples with the definitions of {@code compare} and the report
 * ({@link io.tailstream.reporter.query.StepFigureQuery}).
 */
public enum Metric {
    /** Statements of successful transactions per measured second. */
    QPS("qps", true),
    /** Successful transactions per measured second. */
    TPS("tps", true),
    /**
     * TPC-C's tpmC: New-Orders completed (committed, or rolled back by their unused item) per measured minute; only
     * series of the workload {@code tpcc} have it.
     */
    TPMC("tpmC", true),
    /** P95 latency of successful transactions, ms. */
    P95("p95 ms", false),
    /** P99 latency of successful transactions, ms. */
    P99("p99 ms", false),
    /** P99.9 latency of successful transactions, ms. */
    P999("p99.9 ms", false),
    /** Failed transactions, % of the measured ones. */
    ERRORS("errors %", false);

    private final String label;
    private final boolean higherIsBetter;

    Metric(String label, boolean higherIsBetter) {
        this.label = label;
        this.higherIsBetter = higherIsBetter;
    }

    /** Column heading, with the unit. */
    public String label() {
        return label;
    }

    /** True for throughput: a rise is an improvement; false for latency and errors. */
    public boolean higherIsBetter() {
        return higherIsBetter;
    }

    /** Whether a series of {@code workload} has this metric: every workload but for tpmC, which is TPC-C's. */
    public boolean appliesTo(String workload) {
        return this != TPMC || TpccSamples.WORKLOAD.equals(workload);
    }

    /**
     * Parses {@code qps}, {@code tps}, {@code tpmc}, {@code p95}, {@code p99}, {@code p999} or {@code errors} (any
     * case).
     */
    public static Metric parse(String s) {
        for (Metric m : values()) {
            if (m.name().equalsIgnoreCase(s)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown metric '" + s + "'; use qps, tps, tpmc, p95, p99, p999 or errors");
    }

    /** The name users type: {@code qps}, {@code p999}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
