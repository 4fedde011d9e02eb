package io.tailstream.producer.workload.tpcc;

import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.workload.LoadProgress;
import io.tailstream.producer.workload.WorkerSlot;
import io.tailstream.producer.workload.Workload;
import io.tailstream.producer.workload.WorkloadSession;
import io.tailstream.schemas.event.DataChecked;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import javax.sql.DataSource;

/**
 * TPC-C (specification revision 5.11) as a workload: {@code prepare} creates and loads the nine tables for the
 * option {@code warehouses}; each worker is a terminal bound to a warehouse and a district, running the mix of
 * {@link TpccMix} without keying or think times unless the option {@code think_times} is on ({@link TpccSession}).
 * Each transaction's sample carries its kind as its op. After each step the consistency conditions are checked
 * ({@link #checkData}) unless the option {@code check} is off.
 */
public final class TpccWorkload implements Workload {

    public static final String NAME = "tpcc";

    private final TpccOptions options;

    private TpccWorkload(TpccOptions options) {
        this.options = options;
    }

    /** The workload with {@code options} ({@code warehouses}). */
    public static TpccWorkload create(Map<String, String> options) {
        try {
            return new TpccWorkload(TpccOptions.parse(options));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("workload " + NAME + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<String> ops() {
        return TpccSession.OPS;
    }

    /**
     * The mean statements of the mix's transactions, BEGIN and COMMIT included, with 10 order lines a New-Order (the
     * mean of 5 to 15) and a customer found by name in 60% of Payments and Order-Statuses: New-Order 48, Payment 9.6,
     * Order-Status 5.6, Delivery 72, Stock-Level 4. The samples count each transaction's own.
     */
    @Override
    public double queriesPerTransaction() {
        return TpccMix.share(TpccSession.NEW_ORDER) * 48 + TpccMix.share(TpccSession.PAYMENT) * 9.6
                + TpccMix.share(TpccSession.ORDER_STATUS) * 5.6 + TpccMix.share(TpccSession.DELIVERY) * 72
                + TpccMix.share(TpccSession.STOCK_LEVEL) * 4;
    }

    @Override
    public List<String> tables() {
        return Arrays.stream(TpccTable.values()).map(TpccSchema::name).toList();
    }

    @Override
    public Map<String, String> options() {
        return options.toMap();
    }

    @Override
    public String dataSetKey() {
        return NAME + ":warehouses=" + options.warehouses();
    }

    @Override
    public void prepare(DataSource dataSource, Dialect dialect, int parallelism, PrintStream progress,
                        LoadProgress rows) throws SQLException {
        TpccLoader.create(dataSource, dialect, progress);
        new TpccLoader(options.warehouses()).load(dataSource, parallelism, progress, rows);
    }

    @Override
    public long rowsToLoad() {
        return new TpccLoader(options.warehouses()).rowsToLoad();
    }

    @Override
    public void cleanup(DataSource dataSource, Dialect dialect, PrintStream progress) throws SQLException {
        TpccLoader.drop(dataSource, progress);
    }

    @Override
    public WorkloadSession open(Connection connection, Dialect dialect, long seed) throws SQLException {
        return open(connection, dialect, new WorkerSlot(0, 1, seed));
    }

    /**
     * A terminal: worker {@code i} works in warehouse {@code 1 + i % warehouses} and, for Stock-Level, in district
     * {@code 1 + (i / warehouses) % 10}, so the workers spread over the warehouses first and then over their
     * districts, as the reference kits bind them.
     */
    @Override
    public WorkloadSession open(Connection connection, Dialect dialect, WorkerSlot slot) throws SQLException {
        TpccRandom.Constants run = TpccRandom.Constants.forRun(TpccLoader.LOAD_CONSTANTS,
                new SplittableRandom(slot.seed()));
        return new TpccSession(connection, dialect, new TpccRandom(slot.seed(), run),
                terminal(slot.index(), options.warehouses()), options.warehouses(), options.thinkTimes());
    }

    @Override
    public boolean checksData() {
        return options.check();
    }

    /**
     * The consistency conditions 1 to 4, in one REPEATABLE READ transaction: a snapshot in which every committed
     * transaction kept them, even while other producers' terminals still run.
     */
    @Override
    public List<DataChecked.Check> checkData(Connection connection, Dialect dialect) throws SQLException {
        connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        connection.setAutoCommit(false);
        List<TpccConsistency.Result> results;
        try {
            results = TpccConsistency.check(connection);
        } finally {
            connection.rollback();
        }
        return results.stream().map(r -> new DataChecked.Check("consistency_" + r.number(), r.holds(),
                r.holds() ? null : r.violations() + " of " + r.checked()
                        + (r.number() == 1 ? " warehouses" : " districts") + " break " + r.rule())).toList();
    }

    /** Worker {@code index}'s warehouse and district. */
    static TpccSession.Terminal terminal(int index, int warehouses) {
        return new TpccSession.Terminal(1 + index % warehouses,
                1 + index / warehouses % TpccScale.DISTRICTS_PER_WAREHOUSE);
    }
}
