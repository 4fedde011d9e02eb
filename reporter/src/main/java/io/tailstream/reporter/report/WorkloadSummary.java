package io.tailstream.reporter.report;

import java.util.List;

/**
 * One workload: summary table, concurrency sweep and cost.
 *
 * @param rows         one row per target and concurrency, pooling the steps that completed
 * @param ralWal       the workload's ops are YCSB-like reads and writes: rows carry RAL and WAL
 * @param threadLevels every concurrency measured, ascending (the sweep's x axis)
 * @param sweep        per target, QPS and P99 at each level (null where not measured), peak marked
 * @param costs        per target with a monthly cost
 * @param atThreads    concurrency of the "at a chosen concurrency" columns, or null if no level is common to all
 * @param incomplete   the partial figures of each step that did not complete (failed, interrupted, never
 *                     ended), one row per step with its {@link SummaryRow#outcome()}: shown marked, never pooled
 *                     into {@code rows}, never in a sweep, cost or verdict
 * @param tpcc         TPC-C figures of each of {@code rows}, in their order (empty for the other workloads)
 */
public record WorkloadSummary(String workload, List<SummaryRow> rows, boolean ralWal, List<Integer> threadLevels,
                              List<Sweep> sweep, List<Cost> costs, Integer atThreads, List<SummaryRow> incomplete,
                              List<TpccRow> tpcc) {
    public WorkloadSummary {
        rows = List.copyOf(rows);
        threadLevels = List.copyOf(threadLevels);
        sweep = List.copyOf(sweep);
        costs = List.copyOf(costs);
        incomplete = List.copyOf(incomplete);
        tpcc = List.copyOf(tpcc);
    }

    /** A workload without TPC-C figures. */
    public WorkloadSummary(String workload, List<SummaryRow> rows, boolean ralWal, List<Integer> threadLevels,
                           List<Sweep> sweep, List<Cost> costs, Integer atThreads, List<SummaryRow> incomplete) {
        this(workload, rows, ralWal, threadLevels, sweep, costs, atThreads, incomplete, List.of());
    }

    /** This workload with the TPC-C figures of its rows. */
    public WorkloadSummary withTpcc(List<TpccRow> figures) {
        return new WorkloadSummary(workload, rows, ralWal, threadLevels, sweep, costs, atThreads, incomplete,
                figures);
    }

    /** A workload whose steps all completed. */
    public WorkloadSummary(String workload, List<SummaryRow> rows, boolean ralWal, List<Integer> threadLevels,
                           List<Sweep> sweep, List<Cost> costs, Integer atThreads) {
        this(workload, rows, ralWal, threadLevels, sweep, costs, atThreads, List.of());
    }

    /** A target's concurrency sweep: values aligned with {@link WorkloadSummary#threadLevels()}. */
    public record Sweep(String target, List<Double> qps, List<Double> p99Ms, int peakIndex) {
        public Sweep {
            qps = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(qps));
            p99Ms = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(p99Ms));
        }
    }
}
