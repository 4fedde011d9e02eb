package io.tailstream.producer.workload.sysbench;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.workload.TransactionOutcome;
import io.tailstream.producer.workload.WorkloadSession;
import java.io.OutputStream;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import javax.sql.DataSource;

/**
 * What every sysbench script must do on any target, checked against exact counts: each event sends exactly
 * {@link OltpScript#queriesPerEvent} statements, and its writes change the tables by exactly what the Lua event
 * writes. Shared by the H2 test and the MariaDB integration test.
 */
final class SysbenchScriptContract {

    static final int TABLES = 2;
    static final int ROWS = 300;
    static final int EVENTS = 60;

    private SysbenchScriptContract() {}

    /** What the server counted on one connection, read before and after the events (MySQL: session status). */
    @FunctionalInterface
    interface ServerCounters {
        /** The counters now, by name. */
        Map<String, Long> read(Connection c) throws SQLException;
    }

    /**
     * What the server must have counted for the events of a script (by counter name), given the script and its
     * statements per event.
     */
    @FunctionalInterface
    interface ExpectedCounts {
        Map<String, Long> of(OltpScript script, long statementsPerEvent, int events);
    }

    static void check(OltpScript script, Map<String, String> extra, DataSource ds, Dialect dialect)
            throws SQLException {
        check(script, extra, ds, dialect, null, null);
    }

    /**
     * As {@link #check(OltpScript, Map, DataSource, Dialect)}, and the server's own counters of the events'
     * connection must have moved by exactly {@code expected}: the messages reached the server as sysbench sends
     * them, not just the statements the client counted.
     */
    static void check(OltpScript script, Map<String, String> extra, DataSource ds, Dialect dialect,
                      ServerCounters counters, ExpectedCounts expected) throws SQLException {
        Map<String, String> options = new java.util.HashMap<>(Map.of("tables", String.valueOf(TABLES),
                "table_size", String.valueOf(ROWS)));
        options.putAll(extra);
        SysbenchOltpWorkload w = SysbenchOltpWorkload.create(script, options);
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        w.prepare(ds, dialect, 2, quiet);
        try (Connection c = ds.getConnection()) {
            long rowsBefore = rows(c);
            long sumKBefore = sumK(c);
            assertThat(rowsBefore).isEqualTo((long) TABLES * script.preparedRows(w.sysbenchOptions()));
            TransactionOutcome out = new TransactionOutcome();
            try (WorkloadSession s = w.open(c, dialect, 42)) {
                Map<String, Long> before = counters == null ? null : counters.read(c);
                for (int i = 0; i < EVENTS; i++) {
                    s.execute(out);
                    assertThat(out.statements()).as("statements of event %d", i)
                            .isEqualTo((int) w.queriesPerTransaction());
                    assertThat(out.opIndex()).isZero();
                }
                if (counters != null) {
                    Map<String, Long> after = counters.read(c);
                    Map<String, Long> moved = new java.util.TreeMap<>();
                    before.forEach((name, v) -> moved.put(name, after.get(name) - v));
                    assertThat(moved).as("server counters of the events' connection")
                            .isEqualTo(new java.util.TreeMap<>(expected.of(script, (long) w.queriesPerTransaction(), EVENTS)));
                }
            }
            SysbenchOptions o = w.sysbenchOptions();
            long rowsAfter = rows(c);
            switch (script) {
                case INSERT -> assertThat(rowsAfter).isEqualTo(rowsBefore + EVENTS);
                case DELETE -> assertThat(rowsAfter).isLessThan(rowsBefore).isGreaterThanOrEqualTo(rowsBefore - EVENTS);
                // every id in 1..table_size exists and each UPDATE adds 1 to one row's k
                case UPDATE_INDEX -> assertThat(sumK(c)).isEqualTo(sumKBefore + (long) EVENTS * o.indexUpdates());
                case UPDATE_NON_INDEX, POINT_SELECT, READ_ONLY -> {
                    assertThat(rowsAfter).isEqualTo(rowsBefore);
                    assertThat(sumK(c)).isEqualTo(sumKBefore);
                }
                // delete + insert of the same id: the row count stays exact on one connection
                case READ_WRITE, WRITE_ONLY -> assertThat(rowsAfter).isEqualTo(rowsBefore);
                default -> throw new AssertionError(script);
            }
            if (script == OltpScript.INSERT && !o.autoInc()) {
                // sysbench.rand.unique() - 2^31: distinct client ids across the signed INT range
                assertThat(distinctIds(c)).isEqualTo(rowsAfter);
            }
        } finally {
            w.cleanup(ds, dialect, quiet);
        }
    }

    static long rows(Connection c) throws SQLException {
        return aggregate(c, "COUNT(*)");
    }

    static long sumK(Connection c) throws SQLException {
        return aggregate(c, "COALESCE(SUM(k), 0)");
    }

    static long distinctIds(Connection c) throws SQLException {
        return aggregate(c, "COUNT(DISTINCT id)");
    }

    private static long aggregate(Connection c, String expr) throws SQLException {
        long total = 0;
        try (Statement st = c.createStatement()) {
            for (int t = 1; t <= TABLES; t++) {
                try (ResultSet rs = st.executeQuery("SELECT " + expr + " FROM sbtest" + t)) {
                    rs.next();
                    total += rs.getLong(1);
                }
            }
        }
        return total;
    }
}
