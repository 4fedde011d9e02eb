package io.tailstream.producer.plan;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}, {@code 1h30m}; a bare number means seconds. */
public final class Durations {

    private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h)");

    private Durations() {}

    /**
     * @throws IllegalArgumentException naming the value and giving examples
     */
    public static Duration parse(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        if (v.matches("\\d{1,12}")) {
            return Duration.ofSeconds(Long.parseLong(v));
        }
        Matcher m = PART.matcher(v);
        Duration total = Duration.ZERO;
        int end = 0;
        while (m.find()) {
            if (m.start() != end || m.group(1).length() > 12) {
                break;
            }
            long n = Long.parseLong(m.group(1));
            total = total.plus(switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
            });
            end = m.end();
        }
        if (end != v.length() || v.isEmpty()) {
            throw new IllegalArgumentException("'" + value + "' is not a duration (examples: 500ms, 10s, 2m, 1h30m)");
        }
        return total;
    }

    /** As {@link #parse}, refusing zero: {@code must be > 0, was '0s'}. */
    static Duration parsePositive(String value) {
        Duration d = parse(value);
        if (d.isZero()) {
            throw new IllegalArgumentException("must be > 0, was '" + value + "'");
        }
        return d;
    }
}
