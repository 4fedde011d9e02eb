package io.tailstream.producer.workload.ycsb;

import java.util.Map;

/**
 * YCSB's core workload files ({@code workloads/workloada} .. {@code workloadf}) and the load phase, as option sets
 * over {@link YcsbOptions#defaults()}. Every preset option can be overridden.
 */
public enum YcsbPreset {
    /** {@code ycsb load}: one INSERT per operation of the next key in order, into the empty table. */
    LOAD("ycsb_load", Map.of("readproportion", "0", "updateproportion", "0", "insertproportion", "1")),
    /** Workload A, update heavy: 50% reads, 50% updates, zipfian. */
    A("ycsb_a", Map.of("readproportion", "0.5", "updateproportion", "0.5", "requestdistribution", "zipfian")),
    /** Workload B, read mostly: 95% reads, 5% updates, zipfian. */
    B("ycsb_b", Map.of("readproportion", "0.95", "updateproportion", "0.05", "requestdistribution", "zipfian")),
    /** Workload C, read only, zipfian. */
    C("ycsb_c", Map.of("readproportion", "1", "updateproportion", "0", "requestdistribution", "zipfian")),
    /** Workload D, read latest: 95% reads, 5% inserts, latest. */
    D("ycsb_d", Map.of("readproportion", "0.95", "updateproportion", "0", "insertproportion", "0.05",
            "requestdistribution", "latest")),
    /** Workload E, short ranges: 95% scans of up to 100 rows, 5% inserts, zipfian. */
    E("ycsb_e", Map.of("readproportion", "0", "updateproportion", "0", "scanproportion", "0.95",
            "insertproportion", "0.05", "requestdistribution", "zipfian", "maxscanlength", "100",
            "scanlengthdistribution", "uniform")),
    /** Workload F, read-modify-write: 50% reads, 50% read-modify-writes, zipfian. */
    F("ycsb_f", Map.of("readproportion", "0.5", "updateproportion", "0", "readmodifywriteproportion", "0.5",
            "requestdistribution", "zipfian"));

    private final String workloadName;
    private final Map<String, String> options;

    YcsbPreset(String workloadName, Map<String, String> options) {
        this.workloadName = workloadName;
        this.options = options;
    }

    public String workloadName() {
        return workloadName;
    }

    /** The preset's options over YCSB's defaults. */
    public YcsbOptions options() {
        return YcsbOptions.parse(YcsbOptions.defaults(), options);
    }
}
