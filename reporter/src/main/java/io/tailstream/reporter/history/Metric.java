package io.tailstream.reporter.history;

import io.tailstream.reporter.query.StepFigure;
import java.util.Locale;

/**
 * The figure a history series follows, one value per run: the run's completed steps of the series pooled, computed
 * exactly from the raw samples ({@link io.tailstream.reporter.query.StepFigureQuery}, the figures of {@code compare}
 * and the report).
 */
public enum Metric {
    /** Statements of successful transactions per measured second. */
    QPS("qps", true),
    /** Successful transactions per measured second. */
    TPS("tps", true),
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

    /** The figure's value, or NaN when it has none (no successful transaction for a latency). */
    public double of(StepFigure f) {
        return switch (this) {
            case QPS -> f.qps();
            case TPS -> f.tps();
            case P95 -> f.ok() == null ? Double.NaN : f.ok().p95Us() / 1000.0;
            case P99 -> f.ok() == null ? Double.NaN : f.ok().p99Us() / 1000.0;
            case P999 -> f.ok() == null ? Double.NaN : f.ok().p999Us() / 1000.0;
            case ERRORS -> f.samples() == 0 ? Double.NaN : f.errors() * 100.0 / f.samples();
        };
    }

    /** Parses {@code qps}, {@code tps}, {@code p95}, {@code p99}, {@code p999} or {@code errors} (any case). */
    public static Metric parse(String s) {
        for (Metric m : values()) {
            if (m.name().equalsIgnoreCase(s)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown metric '" + s + "'; use qps, tps, p95, p99, p999 or errors");
    }

    /** The name users type: {@code qps}, {@code p999}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
