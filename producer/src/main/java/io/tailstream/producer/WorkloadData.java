package io.tailstream.producer;

import io.tailstream.producer.target.SqlErrors;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.target.TargetConnections;
import io.tailstream.producer.target.TargetException;
import io.tailstream.producer.workload.LoadProgress;
import io.tailstream.producer.workload.Workload;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.producer.workload.Workloads;
import java.io.PrintStream;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The tables of a plan's workloads on a target: creates and loads them before a run, drops them after. Workloads
 * that share a data set (the same tables and sizes) have it prepared, counted and dropped once. Thread safe
 * (stateless); each call opens and closes its own connections.
 */
public final class WorkloadData {

    private WorkloadData() {}

    /**
     * Creates and loads the tables of {@code workloads} on {@code target} (once per distinct data set), replacing
     * existing ones.
     *
     * @param parallelism tables loaded at once
     */
    public static void prepare(Target target, List<WorkloadSpec> workloads, int parallelism, PrintStream console) {
        prepare(target, workloads, parallelism, console, LoadProgress.NONE);
    }

    /**
     * Creates and loads the tables of {@code workloads} on {@code target}, telling {@code rows} about every row
     * inserted (in total {@link #rowsToLoad}).
     */
    public static void prepare(Target target, List<WorkloadSpec> workloads, int parallelism, PrintStream console,
                               LoadProgress rows) {
        try (TargetConnections tc = TargetConnections.open(target, Math.max(1, parallelism))) {
            prepare(tc, workloads, console, rows);
        }
    }

    /**
     * Prepares on connections the caller holds (a run's, with {@code prepare: true}), loading as many tables at once
     * as the pool has connections.
     */
    static void prepare(TargetConnections tc, List<WorkloadSpec> workloads, PrintStream console, LoadProgress rows) {
        for (Workload w : oneByDataSet(workloads)) {
            console.println("Preparing " + w.name() + " on target '" + tc.target().name() + "'");
            try {
                w.prepare(tc.dataSource(), tc.dialect(), tc.size(), console, rows);
            } catch (SQLException e) {
                throw new TargetException("prepare of " + w.name() + " on target '" + tc.target().name()
                        + "' failed: " + SqlErrors.describe(e), e);
            }
        }
    }

    /** Rows {@link #prepare} inserts for {@code workloads}: each distinct data set once. */
    public static long rowsToLoad(List<WorkloadSpec> workloads) {
        long rows = 0;
        for (Workload w : oneByDataSet(workloads)) {
            rows += w.rowsToLoad();
        }
        return rows;
    }

    /** Drops the tables of {@code workloads} on {@code target}. */
    public static void cleanup(Target target, List<WorkloadSpec> workloads, PrintStream console) {
        try (TargetConnections tc = TargetConnections.open(target, 1)) {
            for (Workload w : oneByDataSet(workloads)) {
                try {
                    w.cleanup(tc.dataSource(), tc.dialect(), console);
                } catch (SQLException e) {
                    throw new TargetException("cleanup of " + w.name() + " on target '" + target.name()
                            + "' failed: " + SqlErrors.describe(e), e);
                }
            }
        }
    }

    /** The first workload of each distinct data set, in plan order. */
    private static List<Workload> oneByDataSet(List<WorkloadSpec> workloads) {
        Set<String> seen = new HashSet<>();
        List<Workload> out = new ArrayList<>();
        for (WorkloadSpec ws : workloads) {
            Workload w = Workloads.create(ws);
            if (seen.add(w.dataSetKey())) {
                out.add(w);
            }
        }
        return out;
    }
}
