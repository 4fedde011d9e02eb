package io.tailstream.producer.workload;

import io.tailstream.producer.target.Dialect;
import io.tailstream.schemas.event.DataChecked;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * One benchmark workload with its options fixed. Immutable and thread safe; per-thread state lives in the
 * {@link WorkloadSession}s it opens.
 */
public interface Workload {

    /** Name as plans and reports spell it ({@code oltp_read_write}). */
    String name();

    /** Op names; a transaction's sample carries an index into this list. At most 64. */
    List<String> ops();

    /**
     * Statements one successful transaction executes, BEGIN and COMMIT included: the QPS/TPS ratio of a run
     * without errors.
     */
    double queriesPerTransaction();

    /**
     * True if no transaction of this workload writes: its workers may run on read-only endpoints of a target
     * (replicas), spread over all of them. False by default.
     */
    default boolean readOnly() {
        return false;
    }

    /**
     * Names of the tables this workload reads and writes, for measuring its data size; empty when not known.
     */
    default List<String> tables() {
        return List.of();
    }

    /** The effective options, defaults filled in, as text: what the step's control event records. */
    Map<String, String> options();

    /**
     * Identifies the data this workload reads and writes: workloads with equal keys share one {@link #prepare}
     * (the sysbench OLTP scripts all use the same {@code sbtestN} tables).
     */
    String dataSetKey();

    /**
     * Creates and loads the workload's tables, dropping existing ones of the same names first.
     *
     * @param parallelism how many tables may be loaded at once
     * @param progress    receives one line per table and phase
     */
    default void prepare(DataSource dataSource, Dialect dialect, int parallelism, PrintStream progress)
            throws SQLException {
        prepare(dataSource, dialect, parallelism, progress, LoadProgress.NONE);
    }

    /**
     * Creates and loads the workload's tables, counting the inserted rows as it goes.
     *
     * @param parallelism how many tables may be loaded at once
     * @param progress    receives one line per table and phase
     * @param rows        told after each INSERT how many rows it inserted; the total at the end is
     *                    {@link #rowsToLoad()}
     */
    void prepare(DataSource dataSource, Dialect dialect, int parallelism, PrintStream progress, LoadProgress rows)
            throws SQLException;

    /** Rows {@link #prepare} inserts in total (0 for a workload that starts from empty tables). */
    long rowsToLoad();

    /** Drops the workload's tables; missing tables are not an error. */
    void cleanup(DataSource dataSource, Dialect dialect, PrintStream progress) throws SQLException;

    /**
     * Opens a session for one worker on its own connection: prepares the statements the worker will reuse.
     *
     * @param seed seeds the session's random numbers; different workers get different seeds
     */
    WorkloadSession open(Connection connection, Dialect dialect, long seed) throws SQLException;

    /**
     * Opens the session of the worker at {@code slot}: {@link #open(Connection, Dialect, long)} with its seed, unless
     * the workload divides its data between the workers.
     */
    default WorkloadSession open(Connection connection, Dialect dialect, WorkerSlot slot) throws SQLException {
        return open(connection, dialect, slot.seed());
    }

    /** Whether {@link #checkData} checks anything after a step; false by default. */
    default boolean checksData() {
        return false;
    }

    /**
     * Checks the data a step left (TPC-C: its consistency conditions), after the step on a connection of its own and
     * in one snapshot of the data; each check in the workload's order. Called only when {@link #checksData()}.
     */
    default List<DataChecked.Check> checkData(Connection connection, Dialect dialect) throws SQLException {
        return List.of();
    }
}
