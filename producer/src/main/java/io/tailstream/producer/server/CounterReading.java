package io.tailstream.producer.server;

import java.util.Map;
import java.util.TreeMap;

/**
 * What one reading collected, by the product's own names.
 *
 * @param gauges   values at the reading
 * @param counters cumulative values
 */
record CounterReading(Map<String, Long> gauges, Map<String, Long> counters) {

    /** An empty reading to fill, query by query. */
    static CounterReading empty() {
        return new CounterReading(new TreeMap<>(), new TreeMap<>());
    }

    void gauge(String name, long value) {
        gauges.put(name, value);
    }

    void counter(String name, long value) {
        counters.put(name, value);
    }
}
