package io.tailstream.producer.workload.tpcc;

import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.workload.LoadProgress;
import io.tailstream.producer.workload.MultiRowInsert;
import io.tailstream.producer.workload.ParallelLoad;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import javax.sql.DataSource;

/**
 * Loads the TPC-C tables for a number of warehouses with the specification's initial population (revision 5.11,
 * clause 4.3.3.1): items once, then per warehouse its row and its stock, and per district its row, customers,
 * history, orders, order lines and new orders. The tasks (the items, each warehouse's stock, each district) run in
 * parallel on connections of their own, each inserting with multi-row statements; the secondary indexes are created
 * once every row is in.
 *
 * <p>The load is deterministic: each task draws from a generator seeded by its warehouse and district, and the
 * number of order lines of each order from a generator of its own, so {@link #rowsToLoad} is exact before loading.
 */
final class TpccLoader {

    /**
     * NURand's C for customer last names at load (clause 2.1.6): fixed, so a run knows the load's and can keep the
     * distance between the two that clause 2.1.6.1 asks for. C_ID and OL_I_ID are not used at load.
     */
    static final TpccRandom.Constants LOAD_CONSTANTS = new TpccRandom.Constants(157, 0, 0);

    private static final int ROWS_PER_INSERT = 200;
    private static final BigDecimal WAREHOUSE_YTD = new BigDecimal("300000.00");
    private static final BigDecimal DISTRICT_YTD = new BigDecimal("30000.00");
    private static final BigDecimal CREDIT_LIMIT = new BigDecimal("50000.00");
    private static final BigDecimal BALANCE = new BigDecimal("-10.00");
    private static final BigDecimal TEN = new BigDecimal("10.00");
    private static final BigDecimal ZERO_AMOUNT = new BigDecimal("0.00");

    private final int warehouses;
    private final Timestamp now = new Timestamp(System.currentTimeMillis());

    TpccLoader(int warehouses) {
        if (warehouses < 1) {
            throw new IllegalArgumentException("warehouses must be >= 1, was " + warehouses);
        }
        this.warehouses = warehouses;
    }

    /** Every row the load inserts, order lines included. */
    long rowsToLoad() {
        long rows = 0;
        for (TpccTable t : TpccTable.values()) {
            if (t != TpccTable.ORDER_LINE) {
                rows += TpccScale.rows(t, warehouses);
            }
        }
        for (int w = 1; w <= warehouses; w++) {
            for (int d = 1; d <= TpccScale.DISTRICTS_PER_WAREHOUSE; d++) {
                for (int lines : orderLineCounts(w, d)) {
                    rows += lines;
                }
            }
        }
        return rows;
    }

    /** Drops the tables and creates them empty. */
    static void create(DataSource dataSource, Dialect dialect, PrintStream progress) throws SQLException {
        drop(dataSource, progress);
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            progress.println("Creating the 9 TPC-C tables ...");
            for (TpccTable t : TpccTable.values()) {
                st.execute(TpccSchema.create(t, dialect));
            }
        }
    }

    /** Drops the tables; missing ones are not an error. */
    static void drop(DataSource dataSource, PrintStream progress) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            for (TpccTable t : TpccTable.values()) {
                st.execute("DROP TABLE IF EXISTS " + TpccSchema.name(t));
            }
        }
    }

    /** Loads every table (created empty before) with {@code parallelism} connections, then creates the indexes. */
    void load(DataSource dataSource, int parallelism, PrintStream progress, LoadProgress rows) throws SQLException {
        progress.printf("Loading %d warehouse(s): %,d rows on %d connection(s) ...%n", warehouses, rowsToLoad(),
                parallelism);
        List<ParallelLoad.Task> tasks = new ArrayList<>();
        tasks.add(() -> onConnection(dataSource, c -> items(c, rows)));
        for (int w = 1; w <= warehouses; w++) {
            int warehouse = w;
            tasks.add(() -> onConnection(dataSource, c -> warehouseAndStock(c, warehouse, rows)));
            for (int d = 1; d <= TpccScale.DISTRICTS_PER_WAREHOUSE; d++) {
                int district = d;
                tasks.add(() -> onConnection(dataSource, c -> district(c, warehouse, district, rows)));
            }
        }
        ParallelLoad.run("loading tpcc", parallelism, tasks);
        progress.println("Creating the secondary indexes ...");
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            for (String index : TpccSchema.indexes()) {
                st.execute(index);
            }
        }
    }

    private interface ConnectionTask {
        void run(Connection c) throws SQLException;
    }

    private static void onConnection(DataSource dataSource, ConnectionTask task) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            task.run(c);
        }
    }

    private static TpccRandom random(int warehouse, int district) {
        return new TpccRandom(0x7CC0_0000L + warehouse * 16L + district, LOAD_CONSTANTS);
    }

    /** O_OL_CNT of the district's 3,000 loaded orders: uniform in [5, 15], from a generator of their own. */
    static int[] orderLineCounts(int warehouse, int district) {
        SplittableRandom r = new SplittableRandom(0x01C0_0000L + warehouse * 16L + district);
        int[] counts = new int[TpccScale.ORDERS_PER_DISTRICT];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = r.nextInt(TpccScale.MIN_ORDER_LINES, TpccScale.MAX_ORDER_LINES + 1);
        }
        return counts;
    }

    private void items(Connection c, LoadProgress loaded) throws SQLException {
        TpccRandom r = random(0, 0);
        insert(c, "item", "i_id, i_im_id, i_name, i_price, i_data", TpccScale.ITEMS, loaded, (ps, p, i) -> {
            ps.setInt(p++, (int) i + 1);
            ps.setInt(p++, r.uniform(1, 10_000));
            ps.setString(p++, r.aString(14, 24));
            ps.setBigDecimal(p++, BigDecimal.valueOf(r.uniform(100, 10_000), 2));
            ps.setString(p++, r.data(26, 50));
            return p;
        });
    }

    private void warehouseAndStock(Connection c, int w, LoadProgress loaded) throws SQLException {
        TpccRandom r = random(w, 0);
        insert(c, "warehouse", "w_id, w_name, w_street_1, w_street_2, w_city, w_state, w_zip, w_tax, w_ytd", 1,
                loaded, (ps, p, i) -> {
                    ps.setInt(p++, w);
                    ps.setString(p++, r.aString(6, 10));
                    p = address(ps, p, r);
                    ps.setBigDecimal(p++, tax(r));
                    ps.setBigDecimal(p++, WAREHOUSE_YTD);
                    return p;
                });
        insert(c, "stock", "s_w_id, s_i_id, s_quantity, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05,"
                + " s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10, s_ytd, s_order_cnt, s_remote_cnt, s_data",
                TpccScale.ITEMS, loaded, (ps, p, i) -> {
                    ps.setInt(p++, w);
                    ps.setInt(p++, (int) i + 1);
                    ps.setInt(p++, r.uniform(10, 100));
                    for (int d = 0; d < TpccScale.DISTRICTS_PER_WAREHOUSE; d++) {
                        ps.setString(p++, r.aString(24, 24));
                    }
                    ps.setInt(p++, 0);
                    ps.setInt(p++, 0);
                    ps.setInt(p++, 0);
                    ps.setString(p++, r.data(26, 50));
                    return p;
                });
    }

    private void district(Connection c, int w, int d, LoadProgress loaded) throws SQLException {
        TpccRandom r = random(w, d);
        insert(c, "district", "d_w_id, d_id, d_name, d_street_1, d_street_2, d_city, d_state, d_zip, d_tax, d_ytd,"
                + " d_next_o_id", 1, loaded, (ps, p, i) -> {
                    ps.setInt(p++, w);
                    ps.setInt(p++, d);
                    ps.setString(p++, r.aString(6, 10));
                    p = address(ps, p, r);
                    ps.setBigDecimal(p++, tax(r));
                    ps.setBigDecimal(p++, DISTRICT_YTD);
                    ps.setInt(p++, TpccScale.ORDERS_PER_DISTRICT + 1);
                    return p;
                });
        insert(c, "customer", "c_w_id, c_d_id, c_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city,"
                + " c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, c_ytd_payment,"
                + " c_payment_cnt, c_delivery_cnt, c_data", TpccScale.CUSTOMERS_PER_DISTRICT, loaded, (ps, p, i) -> {
                    int id = (int) i + 1;
                    ps.setInt(p++, w);
                    ps.setInt(p++, d);
                    ps.setInt(p++, id);
                    ps.setString(p++, r.aString(8, 16));
                    ps.setString(p++, "OE");
                    // the first 1,000 customers have every last name once; the rest are drawn as the runs draw them
                    ps.setString(p++, TpccRandom.lastName(id <= 1_000 ? id - 1 : r.nuRand(255, 0, 999)));
                    p = address(ps, p, r);
                    ps.setString(p++, r.nString(16, 16));
                    ps.setTimestamp(p++, now);
                    ps.setString(p++, r.percent(10) ? "BC" : "GC");
                    ps.setBigDecimal(p++, CREDIT_LIMIT);
                    ps.setBigDecimal(p++, BigDecimal.valueOf(r.uniform(0, 5_000), 4));
                    ps.setBigDecimal(p++, BALANCE);
                    ps.setBigDecimal(p++, TEN);
                    ps.setInt(p++, 1);
                    ps.setInt(p++, 0);
                    ps.setString(p++, r.aString(300, 500));
                    return p;
                });
        insert(c, "history", "h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data",
                TpccScale.CUSTOMERS_PER_DISTRICT, loaded, (ps, p, i) -> {
                    ps.setInt(p++, (int) i + 1);
                    ps.setInt(p++, d);
                    ps.setInt(p++, w);
                    ps.setInt(p++, d);
                    ps.setInt(p++, w);
                    ps.setTimestamp(p++, now);
                    ps.setBigDecimal(p++, TEN);
                    ps.setString(p++, r.aString(12, 24));
                    return p;
                });
        int[] customers = r.permutation(TpccScale.CUSTOMERS_PER_DISTRICT);
        int[] lineCounts = orderLineCounts(w, d);
        insert(c, "orders", "o_w_id, o_d_id, o_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local",
                TpccScale.ORDERS_PER_DISTRICT, loaded, (ps, p, i) -> {
                    int id = (int) i + 1;
                    ps.setInt(p++, w);
                    ps.setInt(p++, d);
                    ps.setInt(p++, id);
                    ps.setInt(p++, customers[id - 1]);
                    ps.setTimestamp(p++, now);
                    if (delivered(id)) {
                        ps.setInt(p++, r.uniform(1, 10));
                    } else {
                        ps.setNull(p++, Types.INTEGER);
                    }
                    ps.setInt(p++, lineCounts[id - 1]);
                    ps.setInt(p++, 1);
                    return p;
                });
        List<long[]> lines = new ArrayList<>();
        for (int o = 1; o <= TpccScale.ORDERS_PER_DISTRICT; o++) {
            for (int n = 1; n <= lineCounts[o - 1]; n++) {
                lines.add(new long[] {o, n});
            }
        }
        insert(c, "order_line", "ol_w_id, ol_d_id, ol_o_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d,"
                + " ol_quantity, ol_amount, ol_dist_info", lines.size(), loaded, (ps, p, i) -> {
                    int o = (int) lines.get((int) i)[0];
                    ps.setInt(p++, w);
                    ps.setInt(p++, d);
                    ps.setInt(p++, o);
                    ps.setInt(p++, (int) lines.get((int) i)[1]);
                    ps.setInt(p++, r.uniform(1, TpccScale.ITEMS));
                    ps.setInt(p++, w);
                    if (delivered(o)) {
                        ps.setTimestamp(p++, now);
                    } else {
                        ps.setNull(p++, Types.TIMESTAMP);
                    }
                    ps.setInt(p++, 5);
                    ps.setBigDecimal(p++, delivered(o) ? ZERO_AMOUNT : BigDecimal.valueOf(r.uniform(1, 999_999), 2));
                    ps.setString(p++, r.aString(24, 24));
                    return p;
                });
        insert(c, "new_order", "no_w_id, no_d_id, no_o_id", TpccScale.NEW_ORDERS_PER_DISTRICT, loaded,
                (ps, p, i) -> {
                    ps.setInt(p++, w);
                    ps.setInt(p++, d);
                    ps.setInt(p++, TpccScale.FIRST_NEW_ORDER + (int) i);
                    return p;
                });
    }

    /** A loaded order below 2,101 is delivered: it has a carrier, and its lines a delivery date and no amount. */
    private static boolean delivered(int orderId) {
        return orderId < TpccScale.FIRST_NEW_ORDER;
    }

    /** Street 1 and 2, city, state and zip: the address of a warehouse, district or customer (clause 4.3.2.7). */
    private static int address(PreparedStatement ps, int p, TpccRandom r) throws SQLException {
        ps.setString(p++, r.aString(10, 20));
        ps.setString(p++, r.aString(10, 20));
        ps.setString(p++, r.aString(10, 20));
        ps.setString(p++, r.aString(2, 2));
        ps.setString(p++, r.zip());
        return p;
    }

    /** W_TAX or D_TAX: uniform in [0.0000, 0.2000]. */
    private static BigDecimal tax(TpccRandom r) {
        return BigDecimal.valueOf(r.uniform(0, 2_000), 4);
    }

    private static void insert(Connection c, String table, String columns, int rows, LoadProgress loaded,
                               MultiRowInsert.RowBinder binder) throws SQLException {
        int width = columns.split(",").length;
        String row = "(" + String.join(", ", Collections.nCopies(width, "?")) + ")";
        MultiRowInsert.insert(c, 0, rows, ROWS_PER_INSERT, n -> "INSERT INTO " + table + " (" + columns
                + ") VALUES " + String.join(", ", Collections.nCopies(n, row)), binder, loaded);
    }
}
