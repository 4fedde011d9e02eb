package io.tailstream.producer.workload.tpcc;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.workload.LoadProgress;
import java.io.PrintStream;
import java.io.OutputStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.LongAdder;
import javax.sql.DataSource;

/**
 * What a TPC-C load must leave in any database: the row counts and value ranges of clause 4.3.3.1 for N warehouses,
 * written out here from the specification rather than taken from the loader, and consistency conditions 1 to 4.
 */
final class TpccLoadContract {

    private TpccLoadContract() {
    }

    static void loadAndCheck(DataSource dataSource, Dialect dialect, int warehouses) throws SQLException {
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        TpccLoader loader = new TpccLoader(warehouses);
        LongAdder counted = new LongAdder();
        TpccLoader.create(dataSource, dialect, quiet);
        loader.load(dataSource, 2, quiet, counted::add);

        try (Connection c = dataSource.getConnection()) {
            long n = warehouses;
            assertThat(count(c, "item")).isEqualTo(100_000);
            assertThat(count(c, "warehouse")).isEqualTo(n);
            assertThat(count(c, "district")).isEqualTo(10 * n);
            assertThat(count(c, "customer")).isEqualTo(30_000 * n);
            assertThat(count(c, "history")).isEqualTo(30_000 * n);
            assertThat(count(c, "orders")).isEqualTo(30_000 * n);
            assertThat(count(c, "new_order")).isEqualTo(9_000 * n);
            assertThat(count(c, "stock")).isEqualTo(100_000 * n);
            long lines = count(c, "order_line");
            assertThat(lines).isEqualTo(one(c, "SELECT SUM(o_ol_cnt) FROM orders"));
            assertThat(lines).isBetween(5 * 30_000 * n, 15 * 30_000 * n);
            long all = 100_000 + n * (1 + 10 + 30_000 * 3 + 9_000 + 100_000) + lines;
            assertThat(counted.sum()).as("rows counted while loading").isEqualTo(all);
            assertThat(loader.rowsToLoad()).isEqualTo(all);

            // keys: every id of the specification once
            assertThat(one(c, "SELECT COUNT(DISTINCT i_id) FROM item WHERE i_id BETWEEN 1 AND 100000"))
                    .isEqualTo(100_000);
            assertThat(one(c, "SELECT COUNT(*) FROM (SELECT DISTINCT c_w_id, c_d_id, c_id FROM customer"
                    + " WHERE c_w_id BETWEEN 1 AND " + n + " AND c_d_id BETWEEN 1 AND 10 AND c_id BETWEEN 1 AND 3000) x"))
                    .isEqualTo(30_000 * n);
            assertThat(one(c, "SELECT COUNT(*) FROM (SELECT DISTINCT s_w_id, s_i_id FROM stock"
                    + " WHERE s_i_id BETWEEN 1 AND 100000) x")).isEqualTo(100_000 * n);
            // items
            assertThat(one(c, "SELECT COUNT(*) FROM item WHERE i_im_id NOT BETWEEN 1 AND 10000"
                    + " OR i_price NOT BETWEEN 1.00 AND 100.00 OR LENGTH(i_name) NOT BETWEEN 14 AND 24"
                    + " OR LENGTH(i_data) NOT BETWEEN 26 AND 50")).isZero();
            // 10% ORIGINAL: binomial(100,000, 0.1) has a standard deviation of 95; six of them either side
            assertThat(one(c, "SELECT COUNT(*) FROM item WHERE i_data LIKE '%ORIGINAL%'"))
                    .isBetween(10_000L - 570, 10_000L + 570);
            // warehouses and districts
            assertThat(one(c, "SELECT COUNT(*) FROM warehouse WHERE w_ytd <> 300000.00"
                    + " OR w_tax NOT BETWEEN 0 AND 0.2 OR LENGTH(w_zip) <> 9 OR w_zip NOT LIKE '%11111'")).isZero();
            assertThat(one(c, "SELECT COUNT(*) FROM district WHERE d_ytd <> 30000.00 OR d_next_o_id <> 3001"
                    + " OR d_tax NOT BETWEEN 0 AND 0.2 OR d_id NOT BETWEEN 1 AND 10")).isZero();
            // customers
            assertThat(one(c, "SELECT COUNT(*) FROM customer WHERE c_middle <> 'OE' OR c_credit_lim <> 50000.00"
                    + " OR c_discount NOT BETWEEN 0 AND 0.5 OR c_balance <> -10.00 OR c_ytd_payment <> 10.00"
                    + " OR c_payment_cnt <> 1 OR c_delivery_cnt <> 0 OR c_credit NOT IN ('GC', 'BC')"
                    + " OR LENGTH(c_data) NOT BETWEEN 300 AND 500 OR LENGTH(c_first) NOT BETWEEN 8 AND 16"
                    + " OR LENGTH(c_phone) <> 16")).isZero();
            // binomial(30,000 n, 0.1): standard deviation 52 n^0.5; six of them either side
            long bc = one(c, "SELECT COUNT(*) FROM customer WHERE c_credit = 'BC'");
            double sd = Math.sqrt(30_000 * n * 0.09);
            assertThat((double) bc).isBetween(3_000 * n - 6 * sd, 3_000 * n + 6 * sd);
            // the first 1,000 customers of a district have the 1,000 last names, each once
            assertThat(one(c, "SELECT COUNT(*) FROM (SELECT c_w_id, c_d_id FROM customer WHERE c_id <= 1000"
                    + " GROUP BY c_w_id, c_d_id HAVING COUNT(DISTINCT c_last) = 1000) x")).isEqualTo(10 * n);
            assertThat(one(c, "SELECT COUNT(*) FROM customer WHERE c_id = 372 AND c_last <> 'PRICALLYOUGHT'"))
                    .isZero();
            // orders: a permutation of the customers, the last 900 undelivered
            assertThat(one(c, "SELECT COUNT(*) FROM (SELECT DISTINCT o_w_id, o_d_id, o_c_id FROM orders) x"))
                    .isEqualTo(30_000 * n);
            assertThat(one(c, "SELECT COUNT(*) FROM orders WHERE (o_id < 2101 AND o_carrier_id NOT BETWEEN 1 AND 10)"
                    + " OR (o_id < 2101 AND o_carrier_id IS NULL) OR (o_id >= 2101 AND o_carrier_id IS NOT NULL)"
                    + " OR o_ol_cnt NOT BETWEEN 5 AND 15 OR o_all_local <> 1")).isZero();
            assertThat(one(c, "SELECT COUNT(*) FROM new_order WHERE no_o_id NOT BETWEEN 2101 AND 3000")).isZero();
            assertThat(one(c, "SELECT COUNT(*) FROM order_line WHERE ol_i_id NOT BETWEEN 1 AND 100000"
                    + " OR ol_supply_w_id <> ol_w_id OR ol_quantity <> 5"
                    + " OR (ol_o_id < 2101 AND (ol_amount <> 0 OR ol_delivery_d IS NULL))"
                    + " OR (ol_o_id >= 2101 AND (ol_amount NOT BETWEEN 0.01 AND 9999.99 OR ol_delivery_d IS NOT NULL))"
                    + " OR LENGTH(ol_dist_info) <> 24")).isZero();
            // history and stock
            assertThat(one(c, "SELECT COUNT(*) FROM history WHERE h_amount <> 10.00 OR h_c_w_id <> h_w_id"
                    + " OR h_c_d_id <> h_d_id OR LENGTH(h_data) NOT BETWEEN 12 AND 24")).isZero();
            assertThat(one(c, "SELECT COUNT(*) FROM stock WHERE s_quantity NOT BETWEEN 10 AND 100 OR s_ytd <> 0"
                    + " OR s_order_cnt <> 0 OR s_remote_cnt <> 0 OR LENGTH(s_dist_01) <> 24"
                    + " OR LENGTH(s_dist_10) <> 24 OR LENGTH(s_data) NOT BETWEEN 26 AND 50")).isZero();

            assertThat(TpccConsistency.check(c)).allSatisfy(r -> {
                assertThat(r.holds()).as("condition %d: %s", r.number(), r.rule()).isTrue();
                assertThat(r.checked()).isEqualTo(r.number() == 1 ? n : 10 * n);
            });
            // and a condition that is broken is found broken
            try (Statement st = c.createStatement()) {
                st.executeUpdate("UPDATE district SET d_ytd = d_ytd + 1 WHERE d_w_id = 1 AND d_id = 3");
                st.executeUpdate("DELETE FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 2 AND ol_o_id = 5"
                        + " AND ol_number = 1");
            }
            assertThat(TpccConsistency.check(c)).extracting(TpccConsistency.Result::violations)
                    .containsExactly(1L, 0L, 0L, 1L);
        }
    }

    private static long count(Connection c, String table) throws SQLException {
        return one(c, "SELECT COUNT(*) FROM " + table);
    }

    private static long one(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
