package io.tailstream.cli.options;

import picocli.CommandLine.Option;

/** Which workload, with sysbench's table options. */
public final class WorkloadOptions {

    @Option(names = "--workload", paramLabel = "NAME", split = ",", defaultValue = "oltp_read_write",
            description = "Workload(s), comma separated: the sysbench scripts oltp_point_select, oltp_read_only,"
                    + " oltp_read_write, oltp_write_only, oltp_insert, oltp_update_index, oltp_update_non_index,"
                    + " oltp_delete; ycsb_load, ycsb_a .. ycsb_f; large_row_insert; tpcc (docs/workloads.md; default:"
                    + " ${DEFAULT-VALUE}).")
    public java.util.List<String> workloads;

    @Option(names = "--tables", paramLabel = "N", description = "Number of sbtest tables (sysbench default 1).")
    public Integer tables;

    @Option(names = "--table-size", paramLabel = "ROWS", description = "Rows per table (sysbench default 10000).")
    public Integer tableSize;

    @Option(names = "--warehouses", paramLabel = "N", description = "TPC-C warehouses (tpcc; default 1).")
    public Integer warehouses;

    @Option(names = {"-o", "--option"}, paramLabel = "KEY=VALUE",
            description = "A workload option, as a plan file's workloads[].options gives it: sysbench's"
                    + " (range_size=100, rand_type=pareto), YCSB's (recordcount=100000, requestdistribution=zipfian,"
                    + " readproportion=0.5, fieldcount=10, fieldlength=100) or large_row_insert's (value_bytes=9405);"
                    + " repeat for several. Unknown keys are refused with the list of valid ones.")
    public java.util.List<String> options = new java.util.ArrayList<>();
}
