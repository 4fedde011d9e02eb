package io.tailstream.producer.workload;

import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Typed reads of workload options given as text, with messages that name the option family, the key and the value
 * ({@code "ycsb option fieldcount must be an integer, was 'ten'"}). Stateless and thread safe.
 *
 * @param family how messages name the options ({@code "sysbench option"})
 * @param values option values by key
 */
public record OptionValues(String family, Map<String, String> values) {

    public long integer(String key) {
        return parsed(key, "an integer", Long::parseLong);
    }

    /** An integer that fits an {@code int}. */
    public int intValue(String key) {
        long v = integer(key);
        if (v != (int) v) {
            throw new IllegalArgumentException(family + " " + key + " is out of range, was " + v);
        }
        return (int) v;
    }

    public double decimal(String key) {
        return parsed(key, "a number", Double::parseDouble);
    }

    /** on/true/yes/1 or off/false/no/0. */
    public boolean bool(String key) {
        String v = values.get(key).toLowerCase(Locale.ROOT);
        return switch (v) {
            case "on", "true", "yes", "1" -> true;
            case "off", "false", "no", "0" -> false;
            default -> throw new IllegalArgumentException(family + " " + key + " must be on or off, was '" + v + "'");
        };
    }

    public String text(String key) {
        return values.get(key);
    }

    private <T> T parsed(String key, String what, Function<String, T> parse) {
        String v = values.get(key);
        try {
            return parse.apply(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(family + " " + key + " must be " + what + ", was '" + v + "'", e);
        }
    }

    /**
     * {@code defaults} overridden by {@code given}, whose keys may spell {@code _} as {@code -} and use any case; a key
     * {@code defaults} lacks is refused with the list of known ones.
     */
    public static OptionValues overriding(String family, Map<String, String> defaults, Map<String, String> given) {
        Map<String, String> m = new java.util.HashMap<>(defaults);
        given.forEach((k, v) -> {
            String key = k.strip().toLowerCase(Locale.ROOT).replace('-', '_');
            if (!m.containsKey(key)) {
                throw new IllegalArgumentException("unknown " + family + " '" + k + "'; known: "
                        + new java.util.TreeSet<>(defaults.keySet()));
            }
            m.put(key, v == null ? "" : v.strip());
        });
        return new OptionValues(family, m);
    }

    /** Refuses {@code v < min}, naming the key. */
    public static void atLeast(String family, String key, long v, long min) {
        if (v < min) {
            throw new IllegalArgumentException(family + " " + key + " must be >= " + min + ", was " + v);
        }
    }
}
