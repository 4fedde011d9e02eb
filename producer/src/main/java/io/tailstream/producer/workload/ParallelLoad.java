package io.tailstream.producer.workload;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Runs a workload's load tasks (one per table or key range) on a few daemon threads and waits for all of them. */
public final class ParallelLoad {

    /** One load task; it opens and closes its own connection. */
    @FunctionalInterface
    public interface Task {
        void run() throws SQLException;
    }

    /** Loads one table on a connection of its own. */
    @FunctionalInterface
    public interface TableTask {
        void load(java.sql.Connection c, int table) throws SQLException;
    }

    private ParallelLoad() {}

    /** One task per table {@code 1..tables}, each on its own connection from {@code dataSource}. */
    public static void forEachTable(String what, javax.sql.DataSource dataSource, int tables, int threads,
                                    TableTask task) throws SQLException {
        List<Task> tasks = new ArrayList<>();
        for (int t = 1; t <= tables; t++) {
            int table = t;
            tasks.add(() -> {
                try (java.sql.Connection c = dataSource.getConnection()) {
                    task.load(c, table);
                }
            });
        }
        run(what, threads, tasks);
    }

    /**
     * Runs {@code tasks} on at most {@code threads} threads; the first failure is thrown (an SQLException as is,
     * anything else wrapped), the remaining tasks are interrupted.
     *
     * @param what names the work in messages ("prepare of oltp_read_write")
     */
    public static void run(String what, int threads, List<Task> tasks) throws SQLException {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(threads, tasks.size())), r -> {
            Thread t = new Thread(r, "tailstream-load");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (Task task : tasks) {
                futures.add(pool.submit(() -> {
                    task.run();
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException(what + " interrupted", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SQLException se) {
                throw se;
            }
            throw new IllegalStateException(what + " failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }
}
