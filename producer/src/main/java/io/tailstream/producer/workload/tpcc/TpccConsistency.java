package io.tailstream.producer.workload.tpcc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The consistency conditions 1 to 4 of the TPC-C specification (revision 5.11, clause 3.3.2), checked on the
 * database: each counts the warehouses or districts that break it. They hold after loading and must hold after any
 * run, whatever failed or was rolled back in between.
 */
final class TpccConsistency {

    /**
     * One condition's outcome.
     *
     * @param number     1 to 4, as the specification numbers them
     * @param rule       the condition, as the specification states it
     * @param checked    warehouses (condition 1) or districts (2 to 4) checked
     * @param violations how many of them break it
     */
    record Result(int number, String rule, long checked, long violations) {

        boolean holds() {
            return violations == 0;
        }
    }

    private static final String[][] CONDITIONS = {
        {"W_YTD = sum(D_YTD) of the warehouse's districts",
            "SELECT COUNT(*), COALESCE(SUM(CASE WHEN w.w_ytd = (SELECT SUM(d.d_ytd) FROM district d"
                + " WHERE d.d_w_id = w.w_id) THEN 0 ELSE 1 END), 0) FROM warehouse w"},
        {"D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID) in each district",
            "SELECT COUNT(*), COALESCE(SUM(CASE WHEN d.d_next_o_id - 1 = (SELECT MAX(o.o_id) FROM orders o"
                + " WHERE o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id) AND (n.last IS NULL OR d.d_next_o_id - 1 = n.last)"
                + " THEN 0 ELSE 1 END), 0) FROM district d LEFT JOIN (SELECT no_w_id, no_d_id, MAX(no_o_id) AS last"
                + " FROM new_order GROUP BY no_w_id, no_d_id) n ON n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id"},
        {"max(NO_O_ID) - min(NO_O_ID) + 1 = the number of NEW-ORDER rows of each district",
            "SELECT COUNT(*), COALESCE(SUM(CASE WHEN n.cnt IS NULL OR n.span = n.cnt THEN 0 ELSE 1 END), 0)"
                + " FROM district d"
                + " LEFT JOIN (SELECT no_w_id, no_d_id, MAX(no_o_id) - MIN(no_o_id) + 1 AS span, COUNT(*) AS cnt"
                + " FROM new_order GROUP BY no_w_id, no_d_id) n ON n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id"},
        {"sum(O_OL_CNT) = the number of ORDER-LINE rows of each district",
            "SELECT COUNT(*), COALESCE(SUM(CASE WHEN o.ol_sum = l.cnt THEN 0 ELSE 1 END), 0) FROM district d"
                + " LEFT JOIN (SELECT o_w_id, o_d_id, SUM(o_ol_cnt) AS ol_sum FROM orders GROUP BY o_w_id, o_d_id) o"
                + " ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id"
                + " LEFT JOIN (SELECT ol_w_id, ol_d_id, COUNT(*) AS cnt FROM order_line GROUP BY ol_w_id, ol_d_id) l"
                + " ON l.ol_w_id = d.d_w_id AND l.ol_d_id = d.d_id"},
    };

    private TpccConsistency() {
    }

    /**
     * Checks conditions 1 to 4 on {@code c}. Conditions 2 and 3 do not apply to the NEW-ORDER rows of a district
     * without any (clauses 3.3.2.2 and 3.3.2.3): its Deliveries have caught up with its New-Orders.
     */
    static List<Result> check(Connection c) throws SQLException {
        List<Result> results = new ArrayList<>();
        try (Statement st = c.createStatement()) {
            for (int i = 0; i < CONDITIONS.length; i++) {
                try (ResultSet rs = st.executeQuery(CONDITIONS[i][1])) {
                    rs.next();
                    results.add(new Result(i + 1, CONDITIONS[i][0], rs.getLong(1), rs.getLong(2)));
                }
            }
        }
        return results;
    }
}
