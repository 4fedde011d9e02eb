package io.tailstream.reporter.report;

import io.tailstream.reporter.StreamingArchive;
import io.tailstream.reporter.report.FixtureRun.Step;
import io.tailstream.reporter.report.FixtureRun.Target;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The shape of a published selection evaluation of PolarDB against self-hosted MySQL: MySQL on a cloud disk and on
 * local NVMe, PolarDB, and PolarDB with a read-only node; sysbench read-only (10 queries per transaction), write-only
 * (6) and read-write (20) at 128, 256 and 512 threads, 3 rounds each; monthly costs in CNY. Throughput is the
 * published one at 1/10 scale (so the archive stays small), P99 at 128 threads as published; the peak is at 256
 * threads, so the sweep goes beyond it. Rounds differ by -2%, 0 and +2% in rate.
 */
final class PolarDbEvaluation {

    static final String PLAN = "polardb-selection-evaluation";
    static final Target ESSD = new Target("mysql-essd", "MySQL", "8.0.36", vars("2000", "51539607552"), 3200.0,
            "CNY", 1, 0.18);
    static final Target NVME = new Target("mysql-nvme", "MySQL", "8.0.36", vars("20000", "51539607552"), 4100.0,
            "CNY", 1, 0.20);
    static final Target POLARDB = new Target("polardb", "PolarDB", "8.0.1.1.45", vars("4000", "auto"), 5602.0, "CNY",
            1, 0.22, polardbCostItems());
    static final Target POLARDB_RO = new Target("polardb-1p1r", "PolarDB", "8.0.1.1.45", vars("4000", "auto"), 8400.0,
            "CNY", 2, 0.22);
    static final int[] THREADS = {128, 256, 512};
    static final String RO = "oltp_read_only";
    static final String WO = "oltp_write_only";
    static final String RW = "oltp_read_write";

    private PolarDbEvaluation() {}

    /** PolarDB's monthly cost as the plan lists it: compute 3200 + storage 1500 + operations 902 = 5602. */
    static Map<String, Double> polardbCostItems() {
        Map<String, Double> items = new java.util.LinkedHashMap<>();
        items.put("compute", 3200.0);
        items.put("storage", 1500.0);
        items.put("operations", 902.0);
        return items;
    }

    private static Map<String, String> vars(String ioCapacity, String bufferPool) {
        return Map.of("innodb_flush_log_at_trx_commit", "1", "sync_binlog", "1", "log_bin", "ON",
                "innodb_doublewrite", "ON", "innodb_io_capacity", ioCapacity, "innodb_buffer_pool_size", bufferPool,
                "transaction_isolation", "REPEATABLE-READ");
    }

    /** QPS (published scale) and P99 ms at 128 threads of a target on a workload. */
    private record Ref(Target target, String workload, double qps, double p99Ms) {}

    static List<Step> steps() {
        List<Ref> refs = List.of(
                new Ref(ESSD, RO, 46_821, 9.87), new Ref(NVME, RO, 61_347, 7.26), new Ref(POLARDB, RO, 69_528, 6.05),
                new Ref(POLARDB_RO, RO, 118_436, 5.33),
                new Ref(ESSD, WO, 12_642, 12.4), new Ref(NVME, WO, 19_831, 9.5), new Ref(POLARDB, WO, 28_975, 7.0),
                new Ref(ESSD, RW, 17_865, 12.41), new Ref(NVME, RW, 25_394, 9.45), new Ref(POLARDB, RW, 33_628, 6.97));
        double[] qpsByThreads = {1.0, 1.02, 0.96};
        double[] p99ByThreads = {1.0, 1.5, 3.5};
        List<Step> steps = new ArrayList<>();
        for (Ref r : refs) {
            int queries = r.workload().equals(RO) ? 10 : r.workload().equals(WO) ? 6 : 20;
            for (int ti = 0; ti < THREADS.length; ti++) {
                for (int round = 1; round <= 3; round++) {
                    double rate = r.qps() / queries / 10 * qpsByThreads[ti] * (1 + 0.02 * (round - 2));
                    long medianUs = (long) (r.p99Ms() * p99ByThreads[ti] / Math.exp(2.326 * 0.45) * 1000);
                    steps.add(new Step(r.target(), r.workload(), THREADS[ti], round, queries, 3000, 4000, rate,
                            medianUs, r.workload().equals(RW) ? 0.001 : 0, List.of("txn"), new double[] {1},
                            ti == 2 ? 45 : 30, List.of()));
                }
            }
        }
        return steps;
    }

    /** Writes the run into {@code archive} with the pipeline's archive writer. */
    static FixtureRun write(Path archive) {
        try (StreamingArchive sink = new StreamingArchive(archive, 1_000_000)) {
            return new FixtureRun("polardb-eval", PLAN, 42, 1_767_000_000_000L, steps(), true, sink);
        }
    }
}
