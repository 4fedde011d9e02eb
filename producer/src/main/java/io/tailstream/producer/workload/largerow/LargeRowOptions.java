package io.tailstream.producer.workload.largerow;

import io.tailstream.producer.workload.OptionValues;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Options of the large-row insert workload. Immutable; validated at construction.
 *
 * @param tables           tables {@code lrtest1..N}; each insert picks one uniformly
 * @param valueBytes       bytes of the random (incompressible) value column per row
 * @param indexKeyBytes    characters of the random secondary-index key per row
 * @param rowsPerInsert    rows per INSERT statement (one statement per transaction, auto-commit)
 * @param rowsPerTable     rows {@code prepare} loads into each table (0: the soak starts from empty tables)
 */
record LargeRowOptions(int tables, int valueBytes, int indexKeyBytes, int rowsPerInsert, long rowsPerTable) {

    static final String FAMILY = "large_row_insert option";

    public LargeRowOptions {
        OptionValues.atLeast(FAMILY, "tables", tables, 1);
        OptionValues.atLeast(FAMILY, "value_bytes", valueBytes, 1);
        if (valueBytes > 16 * 1024 * 1024) {
            throw new IllegalArgumentException(FAMILY + " value_bytes must be <= 16 MiB, was " + valueBytes);
        }
        OptionValues.atLeast(FAMILY, "index_key_bytes", indexKeyBytes, 1);
        if (indexKeyBytes > 255) {
            throw new IllegalArgumentException(FAMILY + " index_key_bytes must be <= 255, was " + indexKeyBytes);
        }
        OptionValues.atLeast(FAMILY, "rows_per_insert", rowsPerInsert, 1);
        OptionValues.atLeast(FAMILY, "rows_per_table", rowsPerTable, 0);
    }

    /** 16 tables, 9,405-byte values, 26-byte index keys, one row per insert, empty tables. */
    public static LargeRowOptions defaults() {
        return new LargeRowOptions(16, 9405, 26, 1, 0);
    }

    /** Defaults overridden by {@code options} ({@code -} and {@code _} interchangeable). */
    public static LargeRowOptions parse(Map<String, String> options) {
        OptionValues v = OptionValues.overriding(FAMILY, defaults().toMap(), options);
        return new LargeRowOptions(v.intValue("tables"), v.intValue("value_bytes"), v.intValue("index_key_bytes"),
                v.intValue("rows_per_insert"), v.integer("rows_per_table"));
    }

    public Map<String, String> toMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("tables", String.valueOf(tables));
        m.put("value_bytes", String.valueOf(valueBytes));
        m.put("index_key_bytes", String.valueOf(indexKeyBytes));
        m.put("rows_per_insert", String.valueOf(rowsPerInsert));
        m.put("rows_per_table", String.valueOf(rowsPerTable));
        return m;
    }
}
