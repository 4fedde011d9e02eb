package io.tailstream.producer.workload.tpcc;

import io.tailstream.producer.workload.OptionValues;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Options of the {@code tpcc} workload. Immutable; validated at construction.
 *
 * @param warehouses the warehouses {@code prepare} loads and the terminals are bound to
 * @param check      whether each step is followed by a check of the consistency conditions 1 to 4 (reads every
 *                   order line: seconds per ten warehouses)
 * @param thinkTimes whether terminals wait the specification's keying and think times around each transaction
 */
record TpccOptions(int warehouses, boolean check, boolean thinkTimes) {

    static final String FAMILY = "tpcc option";

    TpccOptions {
        OptionValues.atLeast(FAMILY, "warehouses", warehouses, 1);
    }

    /** One warehouse, checked after each step, without keying and think times. */
    static TpccOptions defaults() {
        return new TpccOptions(1, true, false);
    }

    /** Defaults overridden by {@code options} ({@code -} and {@code _} interchangeable). */
    static TpccOptions parse(Map<String, String> options) {
        OptionValues values = OptionValues.overriding(FAMILY, defaults().toMap(), options);
        return new TpccOptions(values.intValue("warehouses"), values.bool("check"), values.bool("think_times"));
    }

    Map<String, String> toMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("warehouses", String.valueOf(warehouses));
        m.put("check", String.valueOf(check));
        m.put("think_times", String.valueOf(thinkTimes));
        return m;
    }
}
