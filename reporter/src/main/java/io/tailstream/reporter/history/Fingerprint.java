package io.tailstream.reporter.history;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a run's steps of a series ran on, beyond the {@link SeriesKey}: attribute name to value, e.g.
 * {@code version}, {@code driver}, {@code url}, {@code client host}, {@code warmup ms}, {@code measure ms},
 * {@code loop}, and each captured server variable as {@code variable <name>}. Where the run's steps of the series
 * differ (a variable changed between rounds), the values are joined with {@code " | "}. Immutable.
 */
public record Fingerprint(SortedMap<String, String> attributes) {

    /** Name of the attribute of a captured server variable. */
    public static String variable(String name) {
        return "variable " + name;
    }

    public Fingerprint {
        attributes = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(attributes));
    }

    public static Fingerprint of(Map<String, String> attributes) {
        return new Fingerprint(new TreeMap<>(attributes));
    }

    /**
     * An attribute whose values differ between two segments of a series: the distinct values in each, sorted;
     * {@code "-"} stands for a run that did not record it.
     */
    public record Change(String attribute, List<String> before, List<String> after) {

        /** {@code innodb_flush_log_at_trx_commit: 1 → 2}. */
        @Override
        public String toString() {
            return attribute + ": " + String.join(", ", before) + " → " + String.join(", ", after);
        }
    }

    /**
     * The attributes whose sets of values differ between the runs of {@code before} and those of {@code after},
     * by attribute name.
     */
    public static List<Change> changes(Collection<Fingerprint> before, Collection<Fingerprint> after) {
        TreeSet<String> names = new TreeSet<>();
        before.forEach(f -> names.addAll(f.attributes.keySet()));
        after.forEach(f -> names.addAll(f.attributes.keySet()));
        List<Change> out = new ArrayList<>();
        for (String name : names) {
            TreeSet<String> b = values(before, name);
            TreeSet<String> a = values(after, name);
            if (!a.equals(b)) {
                out.add(new Change(name, List.copyOf(b), List.copyOf(a)));
            }
        }
        return out;
    }

    private static TreeSet<String> values(Collection<Fingerprint> prints, String name) {
        TreeSet<String> out = new TreeSet<>();
        prints.forEach(f -> out.add(f.attributes.getOrDefault(name, "-")));
        return out;
    }
}
