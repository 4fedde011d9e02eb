package io.tailstream.producer.workload.tpcc;

import io.tailstream.producer.workload.OptionValues;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Options of the {@code tpcc} workload. Immutable; validated at construction.
 *
 * @param warehouses the warehouses {@code prepare} loads and the terminals are bound to
 */
record TpccOptions(int warehouses) {

    static final String FAMILY = "tpcc option";

    TpccOptions {
        OptionValues.atLeast(FAMILY, "warehouses", warehouses, 1);
    }

    /** One warehouse. */
    static TpccOptions defaults() {
        return new TpccOptions(1);
    }

    /** Defaults overridden by {@code options} ({@code -} and {@code _} interchangeable). */
    static TpccOptions parse(Map<String, String> options) {
        return new TpccOptions(OptionValues.overriding(FAMILY, defaults().toMap(), options).intValue("warehouses"));
    }

    Map<String, String> toMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("warehouses", String.valueOf(warehouses));
        return m;
    }
}
