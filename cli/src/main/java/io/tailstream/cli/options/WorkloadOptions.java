package io.tailstream.cli.options;

import picocli.CommandLine.Option;

/** Which workload, with sysbench's table options. */
public final class WorkloadOptions {

    @Option(names = "--workload", paramLabel = "NAME", split = ",", defaultValue = "oltp_read_write",
            description = "Workload(s), comma separated: the sysbench scripts oltp_point_select, oltp_read_only,"
                    + " oltp_read_write, oltp_write_only, oltp_insert, oltp_update_index, oltp_update_non_index,"
                    + " oltp_delete; ycsb_load, ycsb_a .. ycsb_f; large_row_insert (docs/workloads.md; default:"
                    + " ${DEFAULT-VALUE}).")
    public java.util.List<String> workloads;

    @Option(names = "--tables", paramLabel = "N", description = "Number of sbtest tables (sysbench default 1).")
    public Integer tables;

    @Option(names = "--table-size", paramLabel = "ROWS", description = "Rows per table (sysbench default 10000).")
    public Integer tableSize;
}
