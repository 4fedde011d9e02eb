package io.tailstream.producer.workload.ycsb;

import io.tailstream.producer.workload.OptionValues;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The options of YCSB's {@code CoreWorkload}, spelled as in YCSB's property files, with YCSB's defaults. Immutable;
 * validated at construction with messages that name the key and the value.
 *
 * @param table                     table name ({@code usertable})
 * @param recordCount               records loaded by {@code prepare} (keys {@code insertstart .. insertstart +
 *                                  recordcount - 1})
 * @param operationCount            planned operations; as in YCSB it only sizes the zipfian key space for inserts
 *                                  ({@code expectednewkeys = operationcount * insertproportion * 2})
 * @param fieldCount                value columns {@code FIELD0..}
 * @param fieldLength               characters per value
 * @param readAllFields             reads select every field (else one random field)
 * @param writeAllFields            updates write every field (else one random field)
 * @param readProportion            share of reads
 * @param updateProportion          share of updates
 * @param insertProportion          share of inserts
 * @param scanProportion            share of scans
 * @param readModifyWriteProportion share of read-modify-writes
 * @param requestDistribution       uniform, zipfian (scrambled, as YCSB) or latest
 * @param maxScanLength             longest scan, rows
 * @param scanLengthDistribution    uniform or zipfian over {@code 1..maxscanlength}
 * @param insertOrder               hashed (keys are FNV hashes of the key number) or ordered
 * @param zeroPadding               digits the key number is zero-padded to
 * @param insertStart               first key number
 */
record YcsbOptions(
        String table,
        long recordCount,
        long operationCount,
        int fieldCount,
        int fieldLength,
        boolean readAllFields,
        boolean writeAllFields,
        double readProportion,
        double updateProportion,
        double insertProportion,
        double scanProportion,
        double readModifyWriteProportion,
        String requestDistribution,
        int maxScanLength,
        String scanLengthDistribution,
        String insertOrder,
        int zeroPadding,
        long insertStart) {

    public static final Set<String> REQUEST_DISTRIBUTIONS = Set.of("uniform", "zipfian", "latest");
    public static final Set<String> SCAN_LENGTH_DISTRIBUTIONS = Set.of("uniform", "zipfian");
    public static final Set<String> INSERT_ORDERS = Set.of("hashed", "ordered");

    public YcsbOptions {
        if (!table.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException("ycsb option table must be a plain identifier, was '" + table + "'");
        }
        atLeast("recordcount", recordCount, 1);
        atLeast("operationcount", operationCount, 0);
        atLeast("fieldcount", fieldCount, 1);
        if (fieldCount > 100) {
            throw new IllegalArgumentException("ycsb option fieldcount must be <= 100, was " + fieldCount);
        }
        atLeast("fieldlength", fieldLength, 1);
        double sum = 0;
        for (Map.Entry<String, Double> p : Map.of("readproportion", readProportion, "updateproportion",
                updateProportion, "insertproportion", insertProportion, "scanproportion", scanProportion,
                "readmodifywriteproportion", readModifyWriteProportion).entrySet()) {
            if (!(p.getValue() >= 0 && p.getValue() <= 1)) {
                throw new IllegalArgumentException("ycsb option " + p.getKey() + " must be in [0, 1], was "
                        + p.getValue());
            }
            sum += p.getValue();
        }
        if (sum <= 0) {
            throw new IllegalArgumentException("ycsb proportions are all 0: no operation to run");
        }
        oneOf("requestdistribution", requestDistribution, REQUEST_DISTRIBUTIONS);
        atLeast("maxscanlength", maxScanLength, 1);
        oneOf("scanlengthdistribution", scanLengthDistribution, SCAN_LENGTH_DISTRIBUTIONS);
        oneOf("insertorder", insertOrder, INSERT_ORDERS);
        atLeast("zeropadding", zeroPadding, 1);
        atLeast("insertstart", insertStart, 0);
    }

    /** YCSB CoreWorkload's defaults, with {@code recordcount=1000} and {@code operationcount=1000} as YCSB's workload files. */
    public static YcsbOptions defaults() {
        return new YcsbOptions("usertable", 1000, 1000, 10, 100, true, false, 0.95, 0.05, 0, 0, 0, "uniform", 1000,
                "uniform", "hashed", 1, 0);
    }

    /**
     * {@code base} overridden by {@code options}. Keys are YCSB's property names, case-insensitive; {@code _} and
     * {@code -} are ignored ({@code field_count} = {@code fieldcount}).
     *
     * @throws IllegalArgumentException naming an unknown key or a bad value
     */
    public static YcsbOptions parse(YcsbOptions base, Map<String, String> options) {
        Map<String, String> m = new HashMap<>(base.toMap());
        Set<String> known = new TreeSet<>(m.keySet());
        options.forEach((k, v) -> {
            String key = k.strip().toLowerCase(Locale.ROOT).replace("_", "").replace("-", "");
            if (!known.contains(key)) {
                throw new IllegalArgumentException("unknown ycsb option '" + k + "'; known: " + known);
            }
            m.put(key, v == null ? "" : v.strip());
        });
        OptionValues v = new OptionValues("ycsb option", m);
        return new YcsbOptions(v.text("table"), v.integer("recordcount"), v.integer("operationcount"),
                v.intValue("fieldcount"), v.intValue("fieldlength"), v.bool("readallfields"),
                v.bool("writeallfields"), v.decimal("readproportion"), v.decimal("updateproportion"),
                v.decimal("insertproportion"), v.decimal("scanproportion"), v.decimal("readmodifywriteproportion"),
                v.text("requestdistribution"), v.intValue("maxscanlength"), v.text("scanlengthdistribution"),
                v.text("insertorder"), v.intValue("zeropadding"), v.integer("insertstart"));
    }

    /** Every option as text, by YCSB's property name. */
    public Map<String, String> toMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("table", table);
        m.put("recordcount", String.valueOf(recordCount));
        m.put("operationcount", String.valueOf(operationCount));
        m.put("fieldcount", String.valueOf(fieldCount));
        m.put("fieldlength", String.valueOf(fieldLength));
        m.put("readallfields", String.valueOf(readAllFields));
        m.put("writeallfields", String.valueOf(writeAllFields));
        m.put("readproportion", String.valueOf(readProportion));
        m.put("updateproportion", String.valueOf(updateProportion));
        m.put("insertproportion", String.valueOf(insertProportion));
        m.put("scanproportion", String.valueOf(scanProportion));
        m.put("readmodifywriteproportion", String.valueOf(readModifyWriteProportion));
        m.put("requestdistribution", requestDistribution);
        m.put("maxscanlength", String.valueOf(maxScanLength));
        m.put("scanlengthdistribution", scanLengthDistribution);
        m.put("insertorder", insertOrder);
        m.put("zeropadding", String.valueOf(zeroPadding));
        m.put("insertstart", String.valueOf(insertStart));
        return m;
    }

    /** {@code expectednewkeys}: how far past the loaded keys a zipfian request may reach. */
    long expectedNewKeys() {
        return (long) (operationCount * insertProportion * 2.0);
    }

    private static void atLeast(String key, long v, long min) {
        OptionValues.atLeast("ycsb option", key, v, min);
    }

    private static void oneOf(String key, String v, Set<String> allowed) {
        if (!allowed.contains(v)) {
            throw new IllegalArgumentException("ycsb option " + key + " must be one of " + new TreeSet<>(allowed)
                    + ", was '" + v + "'");
        }
    }
}
