package io.tailstream.producer.workload.tpcc;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.workload.TransactionOutcome;
import java.io.OutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;

/**
 * The five transactions on a database loaded with 2 warehouses, four terminals at once: what each committed
 * transaction must have changed, counted from the tables (orders and new orders made and delivered, payments in the
 * history and the year-to-date sums), nothing left by a rolled-back New-Order, and consistency conditions 1 to 4
 * holding afterwards. Conflicts between the terminals (deadlocks, serialization failures) roll back as they would in
 * a run, and must leave the conditions holding too. Then a terminal with keying and think times asks for them, and a
 * Delivery that finds a district without an undelivered order says it skipped one.
 */
final class TpccTransactionsContract {

    private static final int WAREHOUSES = 2;
    private static final int TERMINALS = 4;
    private static final int TRANSACTIONS = 250;

    private TpccTransactionsContract() {
    }

    static void check(DataSource dataSource, Dialect dialect) throws Exception {
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        TpccLoader.create(dataSource, dialect, quiet);
        new TpccLoader(WAREHOUSES).load(dataSource, 2, quiet, rows -> { });
        TpccRandom.Constants run = TpccRandom.Constants.forRun(TpccLoader.LOAD_CONSTANTS,
                new java.util.SplittableRandom(99));

        long[] done = runTerminals(dataSource, dialect, run, t -> 1 + t % WAREHOUSES, 1_000);
        long n = WAREHOUSES;
        long newOrders = done[TpccSession.NEW_ORDER];
        long payments = done[TpccSession.PAYMENT];
        long all = TERMINALS * (long) TRANSACTIONS;
        assertThat(done[done.length - 1]).as("conflicts").isLessThan(all / 10);
        // the mix: 10 / 10 / 1 / 1 / 1 of 23, 435 New-Orders and Payments of 1,000, within six binomial standard
        // deviations (the deck holds them closer)
        assertThat(newOrders + done[TpccSession.NEW_ORDER_ROLLBACK]).isBetween(435L - 95, 435L + 95);
        assertThat(payments).isBetween(435L - 95, 435L + 95);
        try (Connection c = dataSource.getConnection()) {
            assertThat(one(c, "SELECT COUNT(*) FROM orders")).isEqualTo(30_000 * n + newOrders);
            assertThat(one(c, "SELECT SUM(d_next_o_id - 3001) FROM district")).isEqualTo(newOrders);
            long delivered = one(c, "SELECT COUNT(*) FROM orders WHERE o_id > 2100 AND o_carrier_id IS NOT NULL");
            assertThat(one(c, "SELECT COUNT(*) FROM new_order")).isEqualTo(9_000 * n + newOrders - delivered);
            assertThat(delivered).as("delivered orders: up to 10 a Delivery")
                    .isBetween(1L, 10L * (done[TpccSession.DELIVERY] + done[TpccSession.DELIVERY_SKIPPED]));
            assertThat(one(c, "SELECT COUNT(*) FROM order_line WHERE ol_o_id > 2100 AND ol_o_id <= 3000"
                    + " AND ol_delivery_d IS NOT NULL")).isPositive();
            assertThat(one(c, "SELECT COUNT(*) FROM order_line WHERE ol_i_id = " + TpccSession.UNUSED_ITEM))
                    .as("nothing of a rolled-back New-Order").isZero();
            assertThat(one(c, "SELECT COUNT(*) FROM history")).isEqualTo(30_000 * n + payments);
            BigDecimal paid = decimal(c, "SELECT SUM(h_amount) - " + 300_000 * n + " FROM history");
            assertThat(decimal(c, "SELECT SUM(w_ytd) - " + 300_000 * n + " FROM warehouse")).isEqualByComparingTo(paid);
            assertThat(decimal(c, "SELECT SUM(c_ytd_payment) - " + 300_000 * n + " FROM customer"))
                    .isEqualByComparingTo(paid);
            assertThat(one(c, "SELECT SUM(c_payment_cnt) FROM customer")).isEqualTo(30_000 * n + payments);
            assertThat(one(c, "SELECT SUM(c_delivery_cnt) FROM customer")).isEqualTo(delivered);
            assertThat(TpccConsistency.check(c)).allSatisfy(r ->
                    assertThat(r.holds()).as("condition %d after the transactions: %s", r.number(), r.rule())
                            .isTrue());
            checkPacing(dataSource, dialect);
            checkSkippedDelivery(dataSource, dialect);
            checkDrainedWarehouse(dataSource, dialect, run);
        } finally {
            TpccLoader.drop(dataSource, quiet);
        }
    }

    /**
     * {@link #TERMINALS} terminals at once, terminal t on warehouse {@code warehouseOf(t)} and district t + 1, each
     * running {@link #TRANSACTIONS} transactions: how many ended as each op, the last count those rolled back on a
     * conflict (deadlocks, lock wait timeouts: nothing else may fail).
     */
    private static long[] runTerminals(DataSource dataSource, Dialect dialect, TpccRandom.Constants run,
                                       java.util.function.IntUnaryOperator warehouseOf, int seed) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(TERMINALS);
        List<Future<long[]>> terminals = new ArrayList<>();
        for (int t = 0; t < TERMINALS; t++) {
            int terminal = t;
            terminals.add(pool.submit(() -> {
                long[] committed = new long[TpccSession.OPS.size() + 1]; // the last: rolled back on a conflict
                try (Connection c = dataSource.getConnection();
                     TpccSession session = new TpccSession(c, dialect, new TpccRandom(seed + terminal, run),
                             new TpccSession.Terminal(warehouseOf.applyAsInt(terminal), 1 + terminal), WAREHOUSES,
                             false)) {
                    TransactionOutcome out = new TransactionOutcome();
                    for (int i = 0; i < TRANSACTIONS; i++) {
                        try {
                            session.execute(out);
                            committed[out.opIndex()]++;
                        } catch (SQLException e) {
                            assertThat(dialect.classify(e).name()).as("%s", e)
                                    .isIn("DEADLOCK", "LOCK_WAIT_TIMEOUT");
                            committed[committed.length - 1]++;
                        }
                        // BEGIN, COMMIT and the profile's statements: New-Order up to 6 + 4 x 15, Delivery 7 x 10
                        assertThat(out.statements()).isBetween(4, 72);
                    }
                }
                return committed;
            }));
        }
        long[] done = new long[TpccSession.OPS.size() + 1];
        try {
            for (Future<long[]> f : terminals) {
                long[] one = f.get();
                for (int i = 0; i < done.length; i++) {
                    done[i] += one[i];
                }
            }
        } finally {
            pool.shutdown();
        }
        return done;
    }

    private static long one(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static BigDecimal decimal(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getBigDecimal(1);
        }
    }

    /**
     * A paced terminal on the loaded tables: before its first transaction it asks for the keying time of that
     * transaction's type, after each one for a think time of that type (0 to 10 times its mean) plus the keying time
     * of the next; each pause is asked once.
     */
    private static void checkPacing(DataSource dataSource, Dialect dialect) throws Exception {
        TpccRandom.Constants run = TpccRandom.Constants.forRun(TpccLoader.LOAD_CONSTANTS,
                new java.util.SplittableRandom(7));
        try (Connection c = dataSource.getConnection();
             TpccSession session = new TpccSession(c, dialect, new TpccRandom(77, run),
                     new TpccSession.Terminal(1, 1), WAREHOUSES, true)) {
            TransactionOutcome out = new TransactionOutcome();
            long pause = session.pauseNanos();
            assertThat(session.pauseNanos()).as("asked once").isZero();
            int previous = -1;
            for (int i = 0; i < 200; i++) {
                session.execute(out);
                int type = out.opIndex() == TpccSession.NEW_ORDER_ROLLBACK ? TpccSession.NEW_ORDER
                        : out.opIndex() == TpccSession.DELIVERY_SKIPPED ? TpccSession.DELIVERY : out.opIndex();
                long think = pause - (long) (TpccPacing.KEYING_S[type] * 1e9);
                if (previous < 0) {
                    assertThat(think).as("the first pause: keying only").isZero();
                } else {
                    assertThat(think).as("think time after transaction %d", i - 1).isBetween(0L,
                            (long) (TpccPacing.THINK_MEAN_S[previous] * TpccPacing.THINK_TRUNCATION * 1e9));
                }
                previous = type;
                pause = session.pauseNanos();
                assertThat(session.pauseNanos()).isZero();
            }
        }
    }

    /**
     * Clause 2.7.4.2: a Delivery that finds a district of its warehouse without an undelivered order skips it, and its
     * op says so; one that delivers an order in every district does not. Warehouse 1 keeps hundreds of undelivered
     * orders per district; warehouse 2's are all deleted first, so only the New-Orders its terminal runs before its
     * first Delivery are there to deliver.
     */
    private static void checkSkippedDelivery(DataSource dataSource, Dialect dialect) throws Exception {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.executeUpdate("DELETE FROM new_order WHERE no_w_id = 2");
            if (!c.getAutoCommit()) {
                c.commit();
            }
            // conditions 2 and 3 do not apply to the new orders of a district that has none (clause 3.3.2)
            assertThat(TpccConsistency.check(c)).allSatisfy(r ->
                    assertThat(r.holds()).as("condition %d without undelivered orders: %s", r.number(), r.rule())
                            .isTrue());
        }
        int[] full = firstDelivery(dataSource, dialect, 1);
        assertThat(full[1]).as("districts delivered").isEqualTo(10);
        assertThat(full[0]).isEqualTo(TpccSession.DELIVERY);
        int[] partial = firstDelivery(dataSource, dialect, 2);
        assertThat(partial[1]).as("districts delivered (the New-Orders before the Delivery left one empty)")
                .isLessThan(10);
        assertThat(partial[0]).isEqualTo(TpccSession.DELIVERY_SKIPPED);
    }

    /**
     * Every terminal on warehouse 2, whose undelivered orders {@link #checkSkippedDelivery} deleted: the Deliveries
     * meet districts without an order and, as often, an oldest order committed while they ran (on MySQL/MariaDB after
     * their REPEATABLE READ snapshot was taken, so a plain read of it finds nothing). Nothing but a conflict may fail,
     * Deliveries skip (about 40 of them run, against districts holding a handful of orders at most), and the
     * conditions hold afterwards.
     */
    private static void checkDrainedWarehouse(DataSource dataSource, Dialect dialect, TpccRandom.Constants run)
            throws Exception {
        long[] done = runTerminals(dataSource, dialect, run, t -> 2, 2_000);
        assertThat(done[done.length - 1]).as("conflicts").isLessThan(TERMINALS * (long) TRANSACTIONS / 10);
        assertThat(done[TpccSession.DELIVERY_SKIPPED]).isPositive();
        try (Connection c = dataSource.getConnection()) {
            assertThat(TpccConsistency.check(c)).allSatisfy(r ->
                    assertThat(r.holds()).as("condition %d on the drained warehouse: %s", r.number(), r.rule())
                            .isTrue());
        }
    }

    /**
     * A terminal of {@code warehouse} runs until its first Delivery (its deck deals one in every 23 cards): that
     * Delivery's op, and the districts it delivered an order in, counted from the warehouse's new orders before and
     * after and the New-Orders committed meanwhile.
     */
    private static int[] firstDelivery(DataSource dataSource, Dialect dialect, int warehouse) throws Exception {
        TpccRandom.Constants run = TpccRandom.Constants.forRun(TpccLoader.LOAD_CONSTANTS,
                new java.util.SplittableRandom(11));
        String waiting = "SELECT COUNT(*) FROM new_order WHERE no_w_id = " + warehouse;
        try (Connection c = dataSource.getConnection();
             TpccSession session = new TpccSession(c, dialect, new TpccRandom(500 + warehouse, run),
                     new TpccSession.Terminal(warehouse, 1), WAREHOUSES, false)) {
            long before = one(c, waiting);
            TransactionOutcome out = new TransactionOutcome();
            long newOrders = 0;
            for (int i = 0; i < 2 * 23; i++) {
                session.execute(out);
                if (out.opIndex() == TpccSession.NEW_ORDER) {
                    newOrders++;
                }
                if (out.opIndex() == TpccSession.DELIVERY || out.opIndex() == TpccSession.DELIVERY_SKIPPED) {
                    return new int[] {out.opIndex(), (int) (before + newOrders - one(c, waiting))};
                }
            }
        }
        throw new AssertionError("no Delivery in two decks of 23 transactions");
    }
}
