package io.tailstream.producer.workload.sysbench;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.producer.target.Dialect;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The SQL text against sysbench 1.0.20's {@code oltp_common.lua}. The expected strings are the Lua format strings
 * with {@code %u}/{@code %d} replaced by the table number; {@link InstalledSysbenchLuaIntegrationTest} checks these
 * copies against the installed Lua files.
 */
class OltpSqlTest {

    /** The statement templates of {@code stmt_defs} in oltp_common.lua 1.0.20, verbatim. */
    static final List<String> LUA_TEMPLATES = List.of(
            "SELECT c FROM sbtest%u WHERE id=?",
            "SELECT c FROM sbtest%u WHERE id BETWEEN ? AND ?",
            "SELECT SUM(k) FROM sbtest%u WHERE id BETWEEN ? AND ?",
            "SELECT c FROM sbtest%u WHERE id BETWEEN ? AND ? ORDER BY c",
            "SELECT DISTINCT c FROM sbtest%u WHERE id BETWEEN ? AND ? ORDER BY c",
            "UPDATE sbtest%u SET k=k+1 WHERE id=?",
            "UPDATE sbtest%u SET c=? WHERE id=?",
            "DELETE FROM sbtest%u WHERE id=?",
            "INSERT INTO sbtest%u (id, k, c, pad) VALUES (?, ?, ?, ?)");

    static List<String> ours(int t) {
        return List.of(OltpSql.pointSelect(t), OltpSql.simpleRange(t), OltpSql.sumRange(t), OltpSql.orderRange(t),
                OltpSql.distinctRange(t), OltpSql.indexUpdate(t), OltpSql.nonIndexUpdate(t), OltpSql.delete(t),
                OltpSql.insert(t));
    }

    @Test
    void statements_matchLuaTemplates_forEveryTable() {
        for (int t : new int[] {1, 7, 32}) {
            List<String> expected = LUA_TEMPLATES.stream().map(s -> s.replace("%u", String.valueOf(t))).toList();
            assertThat(ours(t)).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void createTable_mysql_isLuaCreateTableWithInnodb() {
        String expected = "CREATE TABLE sbtest3(\n"
                + "  id INTEGER NOT NULL AUTO_INCREMENT,\n"
                + "  k INTEGER DEFAULT '0' NOT NULL,\n"
                + "  c CHAR(120) DEFAULT '' NOT NULL,\n"
                + "  pad CHAR(60) DEFAULT '' NOT NULL,\n"
                + "  PRIMARY KEY (id)\n"
                + ") /*! ENGINE = innodb */";
        assertThat(OltpSql.createTable(3, Dialect.forUrl("jdbc:mysql://h/db"), SysbenchOptions.defaults()))
                .isEqualTo(expected);
        assertThat(OltpSql.createSecondaryIndex(3)).isEqualTo("CREATE INDEX k_3 ON sbtest3(k)");
        assertThat(OltpSql.dropTable(3)).isEqualTo("DROP TABLE IF EXISTS sbtest3");
    }

    @Test
    void createTable_withoutAutoInc_usesPlainInteger() {
        SysbenchOptions o = SysbenchOptions.parse(java.util.Map.of("auto_inc", "off"));
        assertThat(OltpSql.createTable(1, Dialect.forUrl("jdbc:h2:mem:x"), o))
                .startsWith("CREATE TABLE sbtest1(\n  id INTEGER NOT NULL,\n").endsWith("PRIMARY KEY (id)\n)");
    }

    @Test
    void bulkInsert_listsRowsAsSysbenchBulkInsert() {
        assertThat(OltpSql.bulkInsert(2, true, 3))
                .isEqualTo("INSERT INTO sbtest2(k, c, pad) VALUES(?, ?, ?),(?, ?, ?),(?, ?, ?)");
        assertThat(OltpSql.bulkInsert(2, false, 1)).isEqualTo("INSERT INTO sbtest2(id, k, c, pad) VALUES(?, ?, ?, ?)");
    }

    @Test
    void templates_haveSysbenchLengths() {
        assertThat(OltpSql.C_TEMPLATE).hasSize(119).matches("(#{11}-){9}#{11}");
        assertThat(OltpSql.PAD_TEMPLATE).hasSize(59).matches("(#{11}-){4}#{11}");
    }

    /** oltp_insert.lua's two format strings (the Lua splits each over two lines with {@code ..}). */
    static final String LUA_INSERT_WITH_ID = "INSERT INTO %s (id, k, c, pad) VALUES (%d, %d, '%s', '%s')";
    static final String LUA_INSERT_AUTO_ID = "INSERT INTO %s (k, c, pad) VALUES (%d, '%s', '%s')";

    @Test
    void insertText_isLuaFormatString() {
        String c = "12345678901-" + "0".repeat(11);
        assertThat(OltpSql.insertText(4, -2147483648L, 17, c, "99"))
                .isEqualTo(String.format(LUA_INSERT_WITH_ID.replace("%d", "%s"), "sbtest4", -2147483648L, 17, c, "99"));
        assertThat(OltpSql.insertText(4, 0, 17, c, "99"))
                .isEqualTo("INSERT INTO sbtest4 (id, k, c, pad) VALUES (0, 17, '" + c + "', '99')");
        assertThat(OltpSql.insertTextAutoId(4, 17, c, "99"))
                .isEqualTo(String.format(LUA_INSERT_AUTO_ID.replace("%d", "%s"), "sbtest4", 17, c, "99"));
    }

    @Test
    void autoIncrementFromZero_onlyMySql() {
        assertThat(Dialect.forUrl("jdbc:mysql://h/db").autoIncrementFromZero()).isTrue();
        assertThat(Dialect.forUrl("jdbc:h2:mem:x").autoIncrementFromZero()).isFalse();
    }

    @Test
    void createTable_postgresql_isLuaPgsqlBranch() {
        // create_table's pgsql branch: id_def = "SERIAL", no engine or table options
        assertThat(OltpSql.createTable(2, Dialect.forUrl("jdbc:postgresql://h/db"), SysbenchOptions.defaults()))
                .isEqualTo("CREATE TABLE sbtest2(\n  id SERIAL,\n  k INTEGER DEFAULT '0' NOT NULL,\n"
                        + "  c CHAR(120) DEFAULT '' NOT NULL,\n  pad CHAR(60) DEFAULT '' NOT NULL,\n  PRIMARY KEY (id)\n)");
        assertThat(Dialect.forUrl("jdbc:postgresql://h/db").autoIncrementFromZero()).isFalse();
    }

    @Test
    void createTable_secondary_isLuaKeyXid_onMySqlOnly() {
        SysbenchOptions o = SysbenchOptions.parse(java.util.Map.of("secondary", "on"));
        assertThat(OltpSql.createTable(1, Dialect.forUrl("jdbc:mysql://h/db"), o))
                .contains("  pad CHAR(60) DEFAULT '' NOT NULL,\n  KEY xid (id)\n) /*! ENGINE = innodb */");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> OltpSql.createTable(1, Dialect.forUrl("jdbc:postgresql://h/db"), o))
                .hasMessageContaining("secondary=on").hasMessageContaining("postgresql");
    }
}
