package io.tailstream.analysis;

/**
 * The change of a figure against a base, in percent of the base: {@code (value - base) / base * 100}. A base of 0
 * has no such change; the two callers say different things about it, each documented here. Stateless and thread
 * safe.
 */
public final class PercentChange {

    private PercentChange() {}

    /**
     * The change, or null when the base is 0: the report's delta to a baseline target, left blank where the
     * baseline measured nothing.
     */
    public static Double orNull(double value, double base) {
        return base == 0 ? null : change(value, base);
    }

    /**
     * The change; for a base of 0, 0 when the value is 0 too, else infinity with the value's sign: the
     * {@code compare} command's delta, where any rise from nothing exceeds every threshold.
     */
    public static double orInfinity(double value, double base) {
        if (base == 0) {
            return value == 0 ? 0 : Math.copySign(Double.POSITIVE_INFINITY, value);
        }
        return change(value, base);
    }

    private static double change(double value, double base) {
        return (value - base) / base * 100;
    }
}
