package io.tailstream.producer.workload.sysbench;

import io.tailstream.producer.target.Dialect;

/**
 * The SQL text of sysbench 1.0.20's {@code oltp_common.lua}, table by table. Kept verbatim (spacing included) so a
 * statement digest on the server matches sysbench's; the tests compare it with the Lua source.
 */
final class OltpSql {

    /** {@code c_value_template}: 10 groups of 11 digits, 119 characters. */
    public static final String C_TEMPLATE = "###########-###########-###########-"
            + "###########-###########-###########-"
            + "###########-###########-###########-"
            + "###########";
    /** {@code pad_value_template}: 5 groups of 11 digits, 59 characters. */
    public static final String PAD_TEMPLATE = "###########-###########-###########-"
            + "###########-###########";

    private OltpSql() {}

    /**
     * {@code create_table}: the table with its primary key (or {@code KEY xid} with {@code secondary}); options from
     * the dialect.
     *
     * @throws IllegalArgumentException for {@code secondary} on a product without MySQL's inline {@code KEY}
     */
    public static String createTable(int table, Dialect dialect, SysbenchOptions o) {
        if (o.secondary() && !dialect.name().equals("mysql")) {
            throw new IllegalArgumentException("sysbench option secondary=on creates 'KEY xid (id)', which only "
                    + "MySQL/MariaDB accept; target dialect is " + dialect.name());
        }
        String idDef = o.autoInc() ? dialect.autoIncrementInteger() : "INTEGER NOT NULL";
        String sql = "CREATE TABLE sbtest" + table + "(\n"
                + "  id " + idDef + ",\n"
                + "  k INTEGER DEFAULT '0' NOT NULL,\n"
                + "  c CHAR(120) DEFAULT '' NOT NULL,\n"
                + "  pad CHAR(60) DEFAULT '' NOT NULL,\n"
                + "  " + (o.secondary() ? "KEY xid" : "PRIMARY KEY") + " (id)\n"
                + ") " + dialect.tableOptions(o.mysqlStorageEngine());
        return sql.stripTrailing();
    }

    /** {@code CREATE INDEX k_N ON sbtestN(k)}. */
    public static String createSecondaryIndex(int table) {
        return "CREATE INDEX k_" + table + " ON sbtest" + table + "(k)";
    }

    /** {@code DROP TABLE IF EXISTS sbtestN}. */
    public static String dropTable(int table) {
        return "DROP TABLE IF EXISTS sbtest" + table;
    }

    /**
     * The bulk insert of {@code rows} rows: {@code INSERT INTO sbtestN(k, c, pad) VALUES(?, ?, ?),...} (with
     * {@code id} first when {@code auto_inc} is off), as sysbench's {@code bulk_insert_init/next}.
     */
    public static String bulkInsert(int table, boolean autoInc, int rows) {
        StringBuilder sb = new StringBuilder(64 + rows * 16);
        sb.append("INSERT INTO sbtest").append(table).append(autoInc ? "(k, c, pad) VALUES" : "(id, k, c, pad) VALUES");
        String row = autoInc ? "(?, ?, ?)" : "(?, ?, ?, ?)";
        for (int i = 0; i < rows; i++) {
            sb.append(i == 0 ? "" : ",").append(row);
        }
        return sb.toString();
    }

    public static String pointSelect(int table) {
        return "SELECT c FROM sbtest" + table + " WHERE id=?";
    }

    public static String simpleRange(int table) {
        return "SELECT c FROM sbtest" + table + " WHERE id BETWEEN ? AND ?";
    }

    public static String sumRange(int table) {
        return "SELECT SUM(k) FROM sbtest" + table + " WHERE id BETWEEN ? AND ?";
    }

    public static String orderRange(int table) {
        return "SELECT c FROM sbtest" + table + " WHERE id BETWEEN ? AND ? ORDER BY c";
    }

    public static String distinctRange(int table) {
        return "SELECT DISTINCT c FROM sbtest" + table + " WHERE id BETWEEN ? AND ? ORDER BY c";
    }

    public static String indexUpdate(int table) {
        return "UPDATE sbtest" + table + " SET k=k+1 WHERE id=?";
    }

    public static String nonIndexUpdate(int table) {
        return "UPDATE sbtest" + table + " SET c=? WHERE id=?";
    }

    public static String delete(int table) {
        return "DELETE FROM sbtest" + table + " WHERE id=?";
    }

    public static String insert(int table) {
        return "INSERT INTO sbtest" + table + " (id, k, c, pad) VALUES (?, ?, ?, ?)";
    }

    /**
     * {@code oltp_insert.lua}'s text INSERT with an explicit id: {@code INSERT INTO sbtestN (id, k, c, pad) VALUES
     * (%d, %d, '%s', '%s')}. The values are digits and dashes only, so quoting them is safe.
     */
    public static String insertText(int table, long id, int k, String c, String pad) {
        return "INSERT INTO sbtest" + table + " (id, k, c, pad) VALUES (" + id + ", " + k + ", '" + c + "', '" + pad
                + "')";
    }

    /**
     * {@code oltp_insert.lua}'s text INSERT leaving the id to the database, as the script does on PostgreSQL:
     * {@code INSERT INTO sbtestN (k, c, pad) VALUES (%d, '%s', '%s')}.
     */
    public static String insertTextAutoId(int table, int k, String c, String pad) {
        return "INSERT INTO sbtest" + table + " (k, c, pad) VALUES (" + k + ", '" + c + "', '" + pad + "')";
    }
}
