package io.tailstream.producer.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses a concurrency sweep: {@code 8}, {@code 1,8,16,32}, or {@code exp:1..512} (powers of two times the start,
 * from 1 to 512). Values must be in 1..{@value #MAX_THREADS} and strictly increasing.
 */
public final class ThreadSweep {

    public static final int MAX_THREADS = 4096;
    private static final Pattern EXP = Pattern.compile("exp:(\\d{1,9})\\.\\.(\\d{1,9})");

    private ThreadSweep() {}

    /** @throws IllegalArgumentException naming the value and giving examples */
    public static List<Integer> parse(String value) {
        String v = value == null ? "" : value.trim();
        Matcher m = EXP.matcher(v);
        if (m.matches()) {
            long from = Long.parseLong(m.group(1));
            long to = Long.parseLong(m.group(2));
            if (from < 1 || to < from || to > MAX_THREADS) {
                throw new IllegalArgumentException("'" + value + "': need 1 <= from <= to <= " + MAX_THREADS);
            }
            List<Integer> out = new ArrayList<>();
            for (long t = from; t <= to; t *= 2) {
                out.add((int) t);
            }
            return List.copyOf(out);
        }
        List<Integer> out = new ArrayList<>();
        for (String part : v.split(",")) {
            int n;
            try {
                n = Integer.parseInt(part.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + value
                        + "' is not a thread count list (examples: 8, 1,8,16,32, exp:1..512)", e);
            }
            out.add(n);
        }
        return of(out, value);
    }

    /**
     * A sweep as a plan file gives it: a count ({@code 8}), a list of counts ({@code [1, 8, 16]}) or a string
     * {@link #parse} reads ({@code "exp:1..512"}).
     *
     * @throws IllegalArgumentException naming the value and giving examples
     */
    static List<Integer> ofYaml(Object v) {
        if (v instanceof Integer n) {
            return of(List.of(n), v);
        }
        if (v instanceof String s) {
            return parse(s);
        }
        if (v instanceof List<?> list) {
            List<Integer> counts = new ArrayList<>();
            for (Object o : list) {
                if (!(o instanceof Integer n)) {
                    throw new IllegalArgumentException("'" + v + "': every thread count must be an integer, got '"
                            + o + "'");
                }
                counts.add(n);
            }
            return of(counts, v);
        }
        throw new IllegalArgumentException("'" + v + "' is not a thread sweep (examples: 8, [1, 8, 16],"
                + " \"exp:1..512\")");
    }

    /** Checks a list of thread counts. */
    public static List<Integer> of(List<Integer> counts, Object shownAs) {
        if (counts.isEmpty()) {
            throw new IllegalArgumentException("'" + shownAs + "': at least one thread count is needed");
        }
        int prev = 0;
        for (Integer n : counts) {
            if (n == null || n < 1 || n > MAX_THREADS) {
                throw new IllegalArgumentException("'" + shownAs + "': thread count " + n + " is out of range 1.."
                        + MAX_THREADS);
            }
            if (n <= prev) {
                throw new IllegalArgumentException("'" + shownAs + "': thread counts must increase");
            }
            prev = n;
        }
        return List.copyOf(counts);
    }
}
