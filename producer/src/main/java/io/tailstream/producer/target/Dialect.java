package io.tailstream.producer.target;

import io.tailstream.schemas.block.SampleStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * Every SQL difference between database products that a workload or the driver needs: URL settings, DDL for
 * auto-increment keys and table options, how a transaction is opened and closed, error classification and which
 * server variables describe the target. Workloads are written against this interface only, so a new product is a
 * new dialect, not a change to every workload.
 *
 * <p>Implementations are stateless and thread safe.
 */
public interface Dialect {

    /** Short name ("mysql", "h2", "postgresql"). */
    String name();

    /** True for a database running inside this process (no network between the client and the server). */
    default boolean embedded() {
        return false;
    }

    /** The URL the pool connects with: the given one plus the settings this dialect needs for a fair comparison. */
    default String effectiveUrl(String jdbcUrl) {
        return jdbcUrl;
    }

    /** Column definition of an auto-increment integer key (sysbench's {@code auto_inc=on}). */
    String autoIncrementInteger();

    /**
     * True if writing 0 into an auto-increment column makes the server generate the next id (MySQL without
     * {@code NO_AUTO_VALUE_ON_ZERO}): sysbench's {@code oltp_insert} then sends {@code id=0}; elsewhere it leaves the
     * id column out.
     */
    default boolean autoIncrementFromZero() {
        return false;
    }

    /** Column type of a binary value of up to {@code maxBytes} bytes. */
    default String binaryColumn(int maxBytes) {
        return "VARBINARY(" + maxBytes + ")";
    }

    /** Text after the closing parenthesis of CREATE TABLE (MySQL: the storage engine); may be empty. */
    default String tableOptions(String mysqlStorageEngine) {
        return "";
    }

    /**
     * True if transactions are opened with a {@code BEGIN} statement and closed with {@code COMMIT} on an
     * auto-commit connection (what sysbench sends to MySQL: one round trip each); false if the connection is put
     * in manual-commit mode and {@link Connection#commit()} is used (embedded H2, where there is no round trip).
     */
    default boolean explicitBeginStatement() {
        return true;
    }

    /** Classifies a failed statement. */
    default SampleStatus classify(SQLException e) {
        return SqlErrors.classify(e);
    }

    /**
     * The error classes a run ignores on this product when the plan does not say (counted, the transaction rolled
     * back and the next one started): what sysbench 1.0.20's driver for the product ignores by default, so a
     * comparison across products skips the same conflicts sysbench would (docs/running.md has the table and the
     * sources).
     */
    java.util.Set<SampleStatus> defaultIgnoredErrors();

    /** Server variables captured at step start when the plan names none; they include {@link #profileVariables()}. */
    default List<String> defaultVariables() {
        return profileVariables();
    }

    /**
     * Variables captured at every step start whatever the plan names: what the report's fairness profile (commit
     * durability, replication sync, torn-page protection, isolation, buffer pool) is derived from. Names the server
     * does not have are left out.
     */
    default List<String> profileVariables() {
        return List.of();
    }

    /**
     * The isolation level a connection's transactions run at, as one of {@code READ UNCOMMITTED}, {@code READ
     * COMMITTED}, {@code REPEATABLE READ}, {@code SERIALIZABLE} (the product's own spelling when it is none of them),
     * or null when it cannot be read.
     */
    String isolation(Connection c) throws SQLException;

    /** A product's spelling of an isolation level ({@code REPEATABLE-READ}, {@code read committed}) in SQL's. */
    static String normalizeIsolation(String level) {
        if (level == null) {
            return null;
        }
        String s = level.trim().replace('-', ' ').replace('_', ' ').replaceAll("\\s+", " ")
                .toUpperCase(java.util.Locale.ROOT);
        return s.isEmpty() ? null : s;
    }

    /** The first column of {@code query}'s first row as an isolation level ({@link #normalizeIsolation}), or null. */
    static String queryIsolation(Connection c, String query) throws SQLException {
        try (java.sql.Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery(query)) {
            return rs.next() ? normalizeIsolation(rs.getString(1)) : null;
        }
    }

    /** The level of a JDBC {@link Connection#getTransactionIsolation()} constant, or null. */
    static String isolationOf(int jdbcLevel) {
        return switch (jdbcLevel) {
            case Connection.TRANSACTION_READ_UNCOMMITTED -> "READ UNCOMMITTED";
            case Connection.TRANSACTION_READ_COMMITTED -> "READ COMMITTED";
            case Connection.TRANSACTION_REPEATABLE_READ -> "REPEATABLE READ";
            case Connection.TRANSACTION_SERIALIZABLE -> "SERIALIZABLE";
            default -> null;
        };
    }

    /**
     * Data plus index bytes of {@code tables} in the connection's current database or schema, or null when the
     * product cannot tell cheaply or none of the tables exists.
     */
    default Long dataBytes(Connection c, List<String> tables) throws SQLException {
        return null;
    }

    /**
     * Reads the named server variables; names the server does not know are left out.
     *
     * @throws SQLException if the query fails
     */
    default Map<String, String> readVariables(Connection c, List<String> names) throws SQLException {
        return Map.of();
    }

    /**
     * Runs {@code sqlBeforeList + "(?, ?, ...)" + sqlAfterList} with one parameter per name and collects the first
     * two columns of each row as name and value ({@code valueOf} may combine further columns).
     */
    static Map<String, String> queryVariables(Connection c, String sqlBeforeList, String sqlAfterList,
                                              List<String> names, VariableRow valueOf) throws SQLException {
        if (names.isEmpty()) {
            return Map.of();
        }
        String placeholders = String.join(",", java.util.Collections.nCopies(names.size(), "?"));
        Map<String, String> out = new java.util.LinkedHashMap<>();
        try (java.sql.PreparedStatement ps = c.prepareStatement(sqlBeforeList + "(" + placeholders + ")"
                + sqlAfterList)) {
            for (int i = 0; i < names.size(); i++) {
                ps.setString(i + 1, names.get(i));
            }
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), valueOf.value(rs));
                }
            }
        }
        return out;
    }

    /**
     * Runs {@code sqlBeforeList + "(?, ?, ...)"} with one parameter per table; its first column is the bytes, its
     * second the number of tables found. Null when no table is named or none exists.
     */
    static Long sumOverTables(Connection c, String sqlBeforeList, List<String> tables) throws SQLException {
        if (tables.isEmpty()) {
            return null;
        }
        String placeholders = String.join(",", java.util.Collections.nCopies(tables.size(), "?"));
        try (PreparedStatement ps = c.prepareStatement(sqlBeforeList + "(" + placeholders + ")")) {
            for (int i = 0; i < tables.size(); i++) {
                ps.setString(i + 1, tables.get(i));
            }
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getLong(2) > 0 ? rs.getLong(1) : null;
            }
        }
    }

    /** The value of one row of a variables query. */
    @FunctionalInterface
    interface VariableRow {
        String value(java.sql.ResultSet rs) throws SQLException;
    }

    /**
     * Prepares a statement a workload session executes many times. By the time it returns the statement is ready
     * on the server where the driver prepares server-side, as sysbench prepares every statement before its first
     * event: no prepare round trip falls into the measured transactions.
     */
    default PreparedStatement prepare(Connection c, String sql) throws SQLException {
        return c.prepareStatement(sql);
    }

    /**
     * Prepares {@code sql} so that its first execution already runs it as a statement prepared on the server (the
     * round-trip probe's {@code SELECT 1}): the same protocol messages for every execution, no parse on the server.
     */
    default PreparedStatement prepareOnServer(Connection c, String sql) throws SQLException {
        return prepare(c, sql);
    }

    /**
     * True if the driver runs {@code ps} as a statement prepared on the server (or, embedded, compiled once in
     * process); false if it sends the text each time.
     */
    boolean serverPrepared(PreparedStatement ps) throws SQLException;

    /** Opens the transaction control for one worker connection. */
    default TransactionControl transactions(Connection c) throws SQLException {
        return explicitBeginStatement() ? TransactionControl.statements(c, this) : TransactionControl.manualCommit(c);
    }

    /** The dialect for a JDBC URL. */
    static Dialect forUrl(String jdbcUrl) {
        if (jdbcUrl.startsWith("jdbc:mysql:") || jdbcUrl.startsWith("jdbc:mariadb:")) {
            return MySqlDialect.INSTANCE;
        }
        if (jdbcUrl.startsWith("jdbc:h2:")) {
            return H2Dialect.INSTANCE;
        }
        if (jdbcUrl.startsWith("jdbc:postgresql:")) {
            return PostgreSqlDialect.INSTANCE;
        }
        throw new IllegalArgumentException("no SQL dialect for JDBC URL " + io.tailstream.schemas.event.Secrets
                .redactUrl(jdbcUrl) + "; supported: jdbc:mysql:, jdbc:mariadb:, jdbc:h2:, jdbc:postgresql:");
    }
}
