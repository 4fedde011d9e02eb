package io.tailstream.producer.workload.tpcc;

import io.tailstream.producer.target.Dialect;
import java.util.List;

/**
 * The nine tables of TPC-C (specification revision 5.11, clause 1.3) with their primary keys, and the two secondary
 * indexes the transactions need: customers by last name (Payment and Order-Status by name) and orders by customer
 * (Order-Status). Column types are the specification's; {@code TIMESTAMP} and {@code DECIMAL} every product has.
 * HISTORY has no key, as in the specification. No foreign keys: the specification does not ask for them and the
 * kits most runs compare with (HammerDB, go-tpc, BenchBase) leave them out; sysbench-tpcc's {@code use_fk=1} adds them.
 */
final class TpccSchema {

    private TpccSchema() {
    }

    /** The table's name in the database. */
    static String name(TpccTable table) {
        return table.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** {@code CREATE TABLE} of {@code table}. */
    static String create(TpccTable table, Dialect dialect) {
        String columns = switch (table) {
            case ITEM -> """
                    i_id INTEGER NOT NULL,
                    i_im_id INTEGER NOT NULL,
                    i_name VARCHAR(24) NOT NULL,
                    i_price DECIMAL(5, 2) NOT NULL,
                    i_data VARCHAR(50) NOT NULL,
                    PRIMARY KEY (i_id)""";
            case WAREHOUSE -> """
                    w_id INTEGER NOT NULL,
                    w_name VARCHAR(10) NOT NULL,
                    w_street_1 VARCHAR(20) NOT NULL,
                    w_street_2 VARCHAR(20) NOT NULL,
                    w_city VARCHAR(20) NOT NULL,
                    w_state CHAR(2) NOT NULL,
                    w_zip CHAR(9) NOT NULL,
                    w_tax DECIMAL(4, 4) NOT NULL,
                    w_ytd DECIMAL(12, 2) NOT NULL,
                    PRIMARY KEY (w_id)""";
            case DISTRICT -> """
                    d_w_id INTEGER NOT NULL,
                    d_id INTEGER NOT NULL,
                    d_name VARCHAR(10) NOT NULL,
                    d_street_1 VARCHAR(20) NOT NULL,
                    d_street_2 VARCHAR(20) NOT NULL,
                    d_city VARCHAR(20) NOT NULL,
                    d_state CHAR(2) NOT NULL,
                    d_zip CHAR(9) NOT NULL,
                    d_tax DECIMAL(4, 4) NOT NULL,
                    d_ytd DECIMAL(12, 2) NOT NULL,
                    d_next_o_id INTEGER NOT NULL,
                    PRIMARY KEY (d_w_id, d_id)""";
            case CUSTOMER -> """
                    c_w_id INTEGER NOT NULL,
                    c_d_id INTEGER NOT NULL,
                    c_id INTEGER NOT NULL,
                    c_first VARCHAR(16) NOT NULL,
                    c_middle CHAR(2) NOT NULL,
                    c_last VARCHAR(16) NOT NULL,
                    c_street_1 VARCHAR(20) NOT NULL,
                    c_street_2 VARCHAR(20) NOT NULL,
                    c_city VARCHAR(20) NOT NULL,
                    c_state CHAR(2) NOT NULL,
                    c_zip CHAR(9) NOT NULL,
                    c_phone CHAR(16) NOT NULL,
                    c_since TIMESTAMP NOT NULL,
                    c_credit CHAR(2) NOT NULL,
                    c_credit_lim DECIMAL(12, 2) NOT NULL,
                    c_discount DECIMAL(4, 4) NOT NULL,
                    c_balance DECIMAL(12, 2) NOT NULL,
                    c_ytd_payment DECIMAL(12, 2) NOT NULL,
                    c_payment_cnt INTEGER NOT NULL,
                    c_delivery_cnt INTEGER NOT NULL,
                    c_data VARCHAR(500) NOT NULL,
                    PRIMARY KEY (c_w_id, c_d_id, c_id)""";
            case HISTORY -> """
                    h_c_id INTEGER NOT NULL,
                    h_c_d_id INTEGER NOT NULL,
                    h_c_w_id INTEGER NOT NULL,
                    h_d_id INTEGER NOT NULL,
                    h_w_id INTEGER NOT NULL,
                    h_date TIMESTAMP NOT NULL,
                    h_amount DECIMAL(6, 2) NOT NULL,
                    h_data VARCHAR(24) NOT NULL""";
            case ORDERS -> """
                    o_w_id INTEGER NOT NULL,
                    o_d_id INTEGER NOT NULL,
                    o_id INTEGER NOT NULL,
                    o_c_id INTEGER NOT NULL,
                    o_entry_d TIMESTAMP NOT NULL,
                    o_carrier_id INTEGER,
                    o_ol_cnt INTEGER NOT NULL,
                    o_all_local INTEGER NOT NULL,
                    PRIMARY KEY (o_w_id, o_d_id, o_id)""";
            case NEW_ORDER -> """
                    no_w_id INTEGER NOT NULL,
                    no_d_id INTEGER NOT NULL,
                    no_o_id INTEGER NOT NULL,
                    PRIMARY KEY (no_w_id, no_d_id, no_o_id)""";
            case ORDER_LINE -> """
                    ol_w_id INTEGER NOT NULL,
                    ol_d_id INTEGER NOT NULL,
                    ol_o_id INTEGER NOT NULL,
                    ol_number INTEGER NOT NULL,
                    ol_i_id INTEGER NOT NULL,
                    ol_supply_w_id INTEGER NOT NULL,
                    ol_delivery_d TIMESTAMP NULL,
                    ol_quantity INTEGER NOT NULL,
                    ol_amount DECIMAL(6, 2) NOT NULL,
                    ol_dist_info CHAR(24) NOT NULL,
                    PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number)""";
            case STOCK -> """
                    s_w_id INTEGER NOT NULL,
                    s_i_id INTEGER NOT NULL,
                    s_quantity INTEGER NOT NULL,
                    s_dist_01 CHAR(24) NOT NULL,
                    s_dist_02 CHAR(24) NOT NULL,
                    s_dist_03 CHAR(24) NOT NULL,
                    s_dist_04 CHAR(24) NOT NULL,
                    s_dist_05 CHAR(24) NOT NULL,
                    s_dist_06 CHAR(24) NOT NULL,
                    s_dist_07 CHAR(24) NOT NULL,
                    s_dist_08 CHAR(24) NOT NULL,
                    s_dist_09 CHAR(24) NOT NULL,
                    s_dist_10 CHAR(24) NOT NULL,
                    s_ytd INTEGER NOT NULL,
                    s_order_cnt INTEGER NOT NULL,
                    s_remote_cnt INTEGER NOT NULL,
                    s_data VARCHAR(50) NOT NULL,
                    PRIMARY KEY (s_w_id, s_i_id)""";
        };
        return "CREATE TABLE " + name(table) + " (\n" + columns.indent(4) + ") " + dialect.tableOptions("innodb");
    }

    /** The secondary indexes, created once the tables are loaded. */
    static List<String> indexes() {
        return List.of("CREATE INDEX idx_customer_name ON customer (c_w_id, c_d_id, c_last, c_first)",
                "CREATE INDEX idx_orders_customer ON orders (o_w_id, o_d_id, o_c_id, o_id)");
    }
}
