package io.tailstream.producer.workload.sysbench;

import io.tailstream.producer.workload.OptionValues;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The options of sysbench 1.0.20's OLTP scripts and random-number generator, with sysbench's defaults. Immutable;
 * validated at construction.
 *
 * @param tables             number of tables ({@code sbtest1..N})
 * @param tableSize          rows per table
 * @param rangeSize          rows a range select covers
 * @param pointSelects       point selects per event
 * @param simpleRanges       simple range selects per event
 * @param sumRanges          SUM range selects per event
 * @param orderRanges        ORDER BY range selects per event
 * @param distinctRanges     DISTINCT range selects per event
 * @param indexUpdates       updates of the indexed column per event
 * @param nonIndexUpdates    updates of a non-indexed column per event
 * @param deleteInserts      DELETE + INSERT pairs per event
 * @param rangeSelects       run the range groups at all
 * @param autoInc            {@code id} is an auto-increment column (else prepare writes ids 1..tableSize)
 * @param skipTrx            no BEGIN/COMMIT: every statement in auto-commit mode
 * @param createSecondary    create index {@code k_N} on {@code k}
 * @param secondary          {@code id} gets a secondary index {@code KEY xid} instead of the PRIMARY KEY (sysbench's
 *                           {@code --secondary}; MySQL/MariaDB only, where InnoDB then adds a hidden row id)
 * @param mysqlStorageEngine storage engine on MySQL
 * @param randType           distribution of ids: uniform, gaussian, special, pareto
 * @param randSpecIter       iterations of the gaussian part (special and gaussian)
 * @param randSpecPct        percentage of the range the special values fall in
 * @param randSpecRes        percentage of draws that are special values
 * @param randParetoH        shape of the Pareto distribution
 */
record SysbenchOptions(
        int tables,
        int tableSize,
        int rangeSize,
        int pointSelects,
        int simpleRanges,
        int sumRanges,
        int orderRanges,
        int distinctRanges,
        int indexUpdates,
        int nonIndexUpdates,
        int deleteInserts,
        boolean rangeSelects,
        boolean autoInc,
        boolean skipTrx,
        boolean createSecondary,
        boolean secondary,
        String mysqlStorageEngine,
        String randType,
        int randSpecIter,
        int randSpecPct,
        int randSpecRes,
        double randParetoH) {

    /** Distributions sysbench 1.0.20 offers for {@code --rand-type}. */
    public static final Set<String> RAND_TYPES = Set.of("uniform", "gaussian", "special", "pareto");

    public SysbenchOptions {
        positive("tables", tables);
        positive("table_size", tableSize);
        positive("range_size", rangeSize);
        notNegative("point_selects", pointSelects);
        notNegative("simple_ranges", simpleRanges);
        notNegative("sum_ranges", sumRanges);
        notNegative("order_ranges", orderRanges);
        notNegative("distinct_ranges", distinctRanges);
        notNegative("index_updates", indexUpdates);
        notNegative("non_index_updates", nonIndexUpdates);
        notNegative("delete_inserts", deleteInserts);
        if (!mysqlStorageEngine.matches("[A-Za-z0-9_]+")) {
            throw new IllegalArgumentException("mysql_storage_engine must be a plain identifier, was '"
                    + mysqlStorageEngine + "'");
        }
        if (!RAND_TYPES.contains(randType)) {
            throw new IllegalArgumentException("rand_type must be one of " + RAND_TYPES + ", was '" + randType + "'");
        }
        positive("rand_spec_iter", randSpecIter);
        if (randSpecPct < 0 || randSpecPct > 100) {
            throw new IllegalArgumentException("rand_spec_pct must be in 0..100, was " + randSpecPct);
        }
        if (randSpecRes < 0 || randSpecRes >= 100) {
            throw new IllegalArgumentException("rand_spec_res must be in 0..99, was " + randSpecRes);
        }
        if (!(randParetoH > 0 && randParetoH < 1)) {
            throw new IllegalArgumentException("rand_pareto_h must be in (0, 1), was " + randParetoH);
        }
    }

    /** sysbench 1.0.20's defaults. */
    public static SysbenchOptions defaults() {
        return new SysbenchOptions(1, 10_000, 100, 10, 1, 1, 1, 1, 1, 1, 1, true, true, false, true, false, "innodb",
                "special", 12, 1, 75, 0.2);
    }

    /**
     * Defaults overridden by {@code options}. Keys use sysbench's spelling; {@code -} and {@code _} are
     * interchangeable ({@code table-size}, {@code rand-type}); booleans are on/off/true/false.
     *
     * @throws IllegalArgumentException naming an unknown key or a bad value
     */
    public static SysbenchOptions parse(Map<String, String> options) {
        Map<String, String> o = new HashMap<>();
        options.forEach((k, v) -> o.put(k.strip().toLowerCase(Locale.ROOT).replace('-', '_'), v == null ? "" : v.strip()));
        Map<String, String> d = defaults().toMap();
        for (String key : o.keySet()) {
            if (!d.containsKey(key)) {
                throw new IllegalArgumentException("unknown sysbench option '" + key + "'; known: "
                        + new java.util.TreeSet<>(d.keySet()));
            }
        }
        Map<String, String> m = new HashMap<>(d);
        m.putAll(o);
        OptionValues v = new OptionValues("sysbench option", m);
        return new SysbenchOptions(
                v.intValue("tables"), v.intValue("table_size"), v.intValue("range_size"),
                v.intValue("point_selects"), v.intValue("simple_ranges"), v.intValue("sum_ranges"),
                v.intValue("order_ranges"), v.intValue("distinct_ranges"), v.intValue("index_updates"),
                v.intValue("non_index_updates"), v.intValue("delete_inserts"), v.bool("range_selects"),
                v.bool("auto_inc"), v.bool("skip_trx"), v.bool("create_secondary"), v.bool("secondary"),
                v.text("mysql_storage_engine"), v.text("rand_type"), v.intValue("rand_spec_iter"),
                v.intValue("rand_spec_pct"), v.intValue("rand_spec_res"), v.decimal("rand_pareto_h"));
    }

    /** Every option as text, by sysbench's name. */
    public Map<String, String> toMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("tables", String.valueOf(tables));
        m.put("table_size", String.valueOf(tableSize));
        m.put("range_size", String.valueOf(rangeSize));
        m.put("point_selects", String.valueOf(pointSelects));
        m.put("simple_ranges", String.valueOf(simpleRanges));
        m.put("sum_ranges", String.valueOf(sumRanges));
        m.put("order_ranges", String.valueOf(orderRanges));
        m.put("distinct_ranges", String.valueOf(distinctRanges));
        m.put("index_updates", String.valueOf(indexUpdates));
        m.put("non_index_updates", String.valueOf(nonIndexUpdates));
        m.put("delete_inserts", String.valueOf(deleteInserts));
        m.put("range_selects", onOff(rangeSelects));
        m.put("auto_inc", onOff(autoInc));
        m.put("skip_trx", onOff(skipTrx));
        m.put("create_secondary", onOff(createSecondary));
        m.put("secondary", onOff(secondary));
        m.put("mysql_storage_engine", mysqlStorageEngine);
        m.put("rand_type", randType);
        m.put("rand_spec_iter", String.valueOf(randSpecIter));
        m.put("rand_spec_pct", String.valueOf(randSpecPct));
        m.put("rand_spec_res", String.valueOf(randSpecRes));
        m.put("rand_pareto_h", String.valueOf(randParetoH));
        return m;
    }

    SysbenchOptions withPointSelects(int n) {
        return new SysbenchOptions(tables, tableSize, rangeSize, n, simpleRanges, sumRanges, orderRanges,
                distinctRanges, indexUpdates, nonIndexUpdates, deleteInserts, rangeSelects, autoInc, skipTrx,
                createSecondary, secondary, mysqlStorageEngine, randType, randSpecIter, randSpecPct, randSpecRes, randParetoH);
    }

    private static String onOff(boolean b) {
        return b ? "on" : "off";
    }

    private static void positive(String key, int v) {
        OptionValues.atLeast("sysbench option", key, v, 1);
    }

    private static void notNegative(String key, int v) {
        OptionValues.atLeast("sysbench option", key, v, 0);
    }
}
