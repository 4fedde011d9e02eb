package io.tailstream.producer.workload.tpcc;

/**
 * The statements of the five TPC-C transactions (specification revision 5.11, clause 2.4 to 2.8), in the order each
 * transaction's profile sends them. Rows a transaction will update are read {@code FOR UPDATE}, as the reference
 * kits read them, so two terminals of one district queue on the district row instead of deadlocking later.
 */
final class TpccSql {

    private TpccSql() {
    }

    // New-Order
    static final String NO_WAREHOUSE = "SELECT w_tax FROM warehouse WHERE w_id = ?";
    static final String NO_DISTRICT = "SELECT d_tax, d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ? FOR UPDATE";
    static final String NO_DISTRICT_NEXT = "UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?";
    static final String NO_CUSTOMER = "SELECT c_discount, c_last, c_credit FROM customer"
            + " WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
    static final String NO_ORDER = "INSERT INTO orders (o_w_id, o_d_id, o_id, o_c_id, o_entry_d, o_carrier_id,"
            + " o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, NULL, ?, ?)";
    static final String NO_NEW_ORDER = "INSERT INTO new_order (no_w_id, no_d_id, no_o_id) VALUES (?, ?, ?)";
    static final String NO_ITEM = "SELECT i_price, i_name, i_data FROM item WHERE i_id = ?";

    /** The stock of an item with the district's S_DIST_xx, for district {@code d} in 1..10. */
    static String noStock(int d) {
        return String.format("SELECT s_quantity, s_data, s_dist_%02d FROM stock WHERE s_w_id = ? AND s_i_id = ?"
                + " FOR UPDATE", d);
    }

    static final String NO_STOCK_UPDATE = "UPDATE stock SET s_quantity = ?, s_ytd = s_ytd + ?,"
            + " s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + ? WHERE s_w_id = ? AND s_i_id = ?";
    static final String NO_ORDER_LINE = "INSERT INTO order_line (ol_w_id, ol_d_id, ol_o_id, ol_number, ol_i_id,"
            + " ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)"
            + " VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)";

    // Payment
    static final String PAY_WAREHOUSE = "UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?";
    static final String PAY_WAREHOUSE_READ = "SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip"
            + " FROM warehouse WHERE w_id = ?";
    static final String PAY_DISTRICT = "UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?";
    static final String PAY_DISTRICT_READ = "SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip"
            + " FROM district WHERE d_w_id = ? AND d_id = ?";
    /** A district's customers of a last name, by first name: the transactions take the one in the middle. */
    static final String CUSTOMERS_BY_NAME = "SELECT c_id FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ?"
            + " ORDER BY c_first";
    static final String PAY_CUSTOMER = "SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state,"
            + " c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, c_data FROM customer"
            + " WHERE c_w_id = ? AND c_d_id = ? AND c_id = ? FOR UPDATE";
    static final String PAY_CUSTOMER_UPDATE = "UPDATE customer SET c_balance = c_balance - ?,"
            + " c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1"
            + " WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
    static final String PAY_CUSTOMER_UPDATE_BAD_CREDIT = "UPDATE customer SET c_balance = c_balance - ?,"
            + " c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1, c_data = ?"
            + " WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
    static final String PAY_HISTORY = "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date,"
            + " h_amount, h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

    // Order-Status
    static final String OS_CUSTOMER = "SELECT c_balance, c_first, c_middle, c_last FROM customer"
            + " WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
    static final String OS_LAST_ORDER = "SELECT o_id, o_carrier_id, o_entry_d FROM orders"
            + " WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC LIMIT 1";
    static final String OS_ORDER_LINES = "SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d"
            + " FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?";

    // Delivery
    static final String DL_OLDEST_NEW_ORDER = "SELECT no_o_id FROM new_order WHERE no_w_id = ? AND no_d_id = ?"
            + " ORDER BY no_o_id LIMIT 1 FOR UPDATE";
    static final String DL_DELETE_NEW_ORDER = "DELETE FROM new_order WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?";
    static final String DL_ORDER_CUSTOMER = "SELECT o_c_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?";
    static final String DL_ORDER_CARRIER = "UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ?"
            + " AND o_id = ?";
    static final String DL_ORDER_LINES = "UPDATE order_line SET ol_delivery_d = ? WHERE ol_w_id = ? AND ol_d_id = ?"
            + " AND ol_o_id = ?";
    static final String DL_ORDER_AMOUNT = "SELECT SUM(ol_amount) FROM order_line WHERE ol_w_id = ? AND ol_d_id = ?"
            + " AND ol_o_id = ?";
    static final String DL_CUSTOMER = "UPDATE customer SET c_balance = c_balance + ?,"
            + " c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";

    // Stock-Level
    static final String SL_DISTRICT = "SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?";
    static final String SL_LOW_STOCK = "SELECT COUNT(DISTINCT s.s_i_id) FROM order_line ol JOIN stock s"
            + " ON s.s_w_id = ol.ol_w_id AND s.s_i_id = ol.ol_i_id WHERE ol.ol_w_id = ? AND ol.ol_d_id = ?"
            + " AND ol.ol_o_id >= ? AND ol.ol_o_id < ? AND s.s_quantity < ?";
}
