package io.tailstream.analysis.counters;

import java.util.Locale;

/**
 * A counter that moved around a stall: its level before it and during it.
 *
 * @param name       the counter's name
 * @param cumulative a counter: {@code before} and {@code during} are rates per second; else gauge values
 * @param before     the mean over the readings before the stall
 * @param during     the mean over the stall's readings
 * @param peak       a gauge's reading during the stall farthest from {@code before}; NaN for a counter
 * @param z          the difference of the means in standard errors of the variation before the stall (infinite
 *                   when the counter never varied before it)
 */
public record CounterMove(String name, boolean cumulative, double before, double during, double peak, double z) {

    /**
     * One line for people, e.g. {@code state.Waiting for backup lock 0 → 7.60 (peak 8)},
     * {@code Innodb_os_log_written 11.2 MB/s → 0 B/s}, {@code dirty pages % 91.2 → 99.1}.
     */
    public String describe() {
        if (cumulative) {
            boolean bytes = StallExplanation.isBytes(name);
            return name + " " + rate(before, bytes) + " → " + rate(during, bytes);
        }
        String text = name + " " + number(before) + " → " + number(during);
        return Double.isNaN(peak) || number(peak).equals(number(during)) ? text : text + " (peak " + number(peak)
                + ")";
    }

    private static String rate(double perSecond, boolean bytes) {
        if (!bytes) {
            return number(perSecond) + "/s";
        }
        double a = Math.abs(perSecond);
        return a >= 1e9 ? number(perSecond / 1e9) + " GB/s" : a >= 1e6 ? number(perSecond / 1e6) + " MB/s"
                : a >= 1e3 ? number(perSecond / 1e3) + " kB/s" : number(perSecond) + " B/s";
    }

    /** Three significant digits at most, whole numbers as they are. */
    static String number(double x) {
        if (x == Math.rint(x) && Math.abs(x) < 1e15) {
            return String.format(Locale.ROOT, "%,d", (long) x);
        }
        double a = Math.abs(x);
        return a >= 100 ? String.format(Locale.ROOT, "%,.0f", x) : a >= 10 ? String.format(Locale.ROOT, "%.1f", x)
                : String.format(Locale.ROOT, "%.2f", x);
    }
}
