package io.tailstream.producer.server;

import io.tailstream.producer.target.SqlErrors;
import io.tailstream.schemas.block.SampleStatus;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The named queries of one {@link ServerCounterSource}, run one after the other into one reading. A query that fails
 * for any reason but a lost connection or a timeout (a missing privilege, a view this version lacks) is left out for
 * the rest of the run and said once in the log; a lost connection or a timeout fails the whole reading and keeps
 * every query. Not thread safe (one sampler thread).
 */
final class CounterQueries {

    private static final Logger log = LoggerFactory.getLogger(CounterQueries.class);

    /** No query of a reading waits longer than this on a server that does not answer. */
    static final int QUERY_TIMEOUT_SECONDS = 5;

    /** One query: adds what it reads to the reading. */
    @FunctionalInterface
    interface Query {
        void read(Connection c, CounterReading into) throws SQLException;
    }

    private final String product;
    private final Map<String, Query> queries = new LinkedHashMap<>();
    private final Set<String> leftOut = new TreeSet<>();

    CounterQueries(String product) {
        this.product = product;
    }

    /** Adds a query run at every reading, in the order added. */
    CounterQueries add(String name, Query query) {
        queries.put(name, query);
        return this;
    }

    /** The queries left out so far, by name. */
    Set<String> leftOut() {
        return Set.copyOf(leftOut);
    }

    CounterReading read(Connection c) throws SQLException {
        CounterReading reading = CounterReading.empty();
        for (Map.Entry<String, Query> q : queries.entrySet()) {
            if (leftOut.contains(q.getKey())) {
                continue;
            }
            try {
                q.getValue().read(c, reading);
            } catch (SQLException e) {
                if (failsTheReading(e)) {
                    throw e;
                }
                leftOut.add(q.getKey());
                log.warn("{} server counters: {} left out for the rest of the run: {}", product, q.getKey(),
                        SqlErrors.describe(e));
            }
        }
        return reading;
    }

    /** A lost connection or a timeout: the server may answer the next reading, so no query is given up. */
    static boolean failsTheReading(SQLException e) {
        SampleStatus s = SqlErrors.classify(e);
        return s == SampleStatus.CONNECTION_LOST || s == SampleStatus.LOCK_WAIT_TIMEOUT
                || e instanceof java.sql.SQLTimeoutException || "57014".equals(e.getSQLState());
    }

    /** A statement whose queries time out after {@link #QUERY_TIMEOUT_SECONDS}. */
    static Statement statement(Connection c) throws SQLException {
        Statement st = c.createStatement();
        st.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
        return st;
    }

    /** Runs {@code sql} and hands each row's first two columns, name and text value, to {@code row}. */
    static void nameValueRows(Connection c, String sql, NameValue row) throws SQLException {
        try (Statement st = statement(c); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                row.accept(rs.getString(1), rs.getString(2));
            }
        }
    }

    /**
     * Runs {@code sql} (rows of name and text value) and adds each whole-numbered value named in {@code gauges} as a
     * gauge, in {@code counters} as a counter; any other row is skipped.
     */
    static void namedValues(Connection c, String sql, Set<String> gauges, Set<String> counters, CounterReading into)
            throws SQLException {
        nameValueRows(c, sql, (name, value) -> {
            Long v = wholeNumber(value);
            if (v != null && gauges.contains(name)) {
                into.gauge(name, v);
            } else if (v != null && counters.contains(name)) {
                into.counter(name, v);
            }
        });
    }

    /** A row of {@link #nameValueRows}. */
    @FunctionalInterface
    interface NameValue {
        void accept(String name, String value);
    }

    /**
     * Runs {@code sql} (one row) and adds each of its integral numeric columns as {@code prefix + column}, a counter
     * unless named in {@code gauges}; other columns (timestamps, text) are skipped, and so is a column that is null.
     */
    static void numericColumns(Connection c, String sql, String prefix, Set<String> gauges, CounterReading into)
            throws SQLException {
        try (Statement st = statement(c); ResultSet rs = st.executeQuery(sql)) {
            if (!rs.next()) {
                return;
            }
            java.sql.ResultSetMetaData m = rs.getMetaData();
            for (int i = 1; i <= m.getColumnCount(); i++) {
                Long v = numeric(rs.getObject(i));
                if (v == null) {
                    continue;
                }
                String column = m.getColumnLabel(i);
                if (gauges.contains(column)) {
                    into.gauge(prefix + column, v);
                } else {
                    into.counter(prefix + column, v);
                }
            }
        }
    }

    /**
     * A JDBC value as a whole number: integers as they are, decimals and floating point (times in ms) rounded to the
     * nearest; null for anything else.
     */
    static Long numeric(Object value) {
        if (value instanceof Long || value instanceof Integer || value instanceof Short) {
            return ((Number) value).longValue();
        }
        if (value instanceof BigDecimal d) {
            return d.setScale(0, java.math.RoundingMode.HALF_EVEN).longValueExact();
        }
        if (value instanceof java.math.BigInteger i) {
            return i.longValueExact();
        }
        if (value instanceof Double || value instanceof Float) {
            return Math.round(((Number) value).doubleValue());
        }
        return null;
    }

    /** A status value as a whole number, or null when it is none ({@code ON}, {@code 0.00%}, empty). */
    static Long wholeNumber(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
