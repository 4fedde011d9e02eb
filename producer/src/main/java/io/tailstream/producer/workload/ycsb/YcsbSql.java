package io.tailstream.producer.workload.ycsb;

import io.tailstream.producer.target.Dialect;

/**
 * The SQL of YCSB's JDBC binding ({@code JdbcDBClient}) over {@code usertable(YCSB_KEY, FIELD0..)}: one statement per
 * operation, product-neutral (LIMIT with a parameter works on MySQL, MariaDB, PostgreSQL and H2).
 */
final class YcsbSql {

    public static final String KEY = "YCSB_KEY";

    private YcsbSql() {}

    public static String field(int i) {
        return "FIELD" + i;
    }

    /** {@code CREATE TABLE usertable (YCSB_KEY VARCHAR(255) PRIMARY KEY, FIELD0 VARCHAR(n), ...)}. */
    public static String createTable(YcsbOptions o, Dialect dialect) {
        StringBuilder sb = new StringBuilder("CREATE TABLE ").append(o.table()).append(" (").append(KEY)
                .append(" VARCHAR(255) NOT NULL PRIMARY KEY");
        for (int i = 0; i < o.fieldCount(); i++) {
            sb.append(", ").append(field(i)).append(" VARCHAR(").append(o.fieldLength()).append(')');
        }
        return (sb.append(") ").append(dialect.tableOptions("innodb"))).toString().stripTrailing();
    }

    public static String dropTable(YcsbOptions o) {
        return "DROP TABLE IF EXISTS " + o.table();
    }

    /** {@code INSERT INTO usertable (YCSB_KEY, FIELD0, ...) VALUES (?, ?, ...), ...} for {@code rows} rows. */
    public static String insert(YcsbOptions o, int rows) {
        StringBuilder sb = new StringBuilder("INSERT INTO ").append(o.table()).append(" (").append(KEY);
        StringBuilder row = new StringBuilder("(?");
        for (int i = 0; i < o.fieldCount(); i++) {
            sb.append(", ").append(field(i));
            row.append(", ?");
        }
        row.append(')');
        sb.append(") VALUES ");
        for (int r = 0; r < rows; r++) {
            sb.append(r == 0 ? "" : ", ").append(row);
        }
        return sb.toString();
    }

    /** Read of every field ({@code field < 0}) or of one. */
    public static String read(YcsbOptions o, int field) {
        return "SELECT " + (field < 0 ? "*" : field(field)) + " FROM " + o.table() + " WHERE " + KEY + " = ?";
    }

    /** Scan of {@code ?} rows from a start key, every field ({@code field < 0}) or one. */
    public static String scan(YcsbOptions o, int field) {
        return "SELECT " + (field < 0 ? "*" : field(field)) + " FROM " + o.table() + " WHERE " + KEY + " >= ? ORDER BY "
                + KEY + " LIMIT ?";
    }

    /** Update of every field ({@code field < 0}) or of one. */
    public static String update(YcsbOptions o, int field) {
        StringBuilder sb = new StringBuilder("UPDATE ").append(o.table()).append(" SET ");
        if (field >= 0) {
            sb.append(field(field)).append(" = ?");
        } else {
            for (int i = 0; i < o.fieldCount(); i++) {
                sb.append(i == 0 ? "" : ", ").append(field(i)).append(" = ?");
            }
        }
        return sb.append(" WHERE ").append(KEY).append(" = ?").toString();
    }

    /** {@code CoreWorkload.buildKeyName}: "user" + key number (FNV-hashed unless ordered), zero-padded. */
    public static String keyName(long keyNum, int zeroPadding, boolean ordered) {
        long n = ordered ? keyNum : YcsbGenerators.fnvhash64(keyNum);
        String value = Long.toString(n);
        int fill = zeroPadding - value.length();
        return fill > 0 ? "user" + "0".repeat(fill) + value : "user" + value;
    }
}
