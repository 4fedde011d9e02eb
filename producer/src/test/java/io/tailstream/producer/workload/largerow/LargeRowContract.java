package io.tailstream.producer.workload.largerow;

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
 * The large-row workload on any target: exact rows after the inserts, every value of exactly {@code value_bytes}
 * and every key of {@code index_key_bytes}, and a second run (a new workload object, as a new run creates)
 * continuing after the largest id instead of colliding with it.
 */
final class LargeRowContract {

    private LargeRowContract() {}

    static void check(Map<String, String> options, int inserts, DataSource ds, Dialect dialect) throws SQLException {
        LargeRowInsertWorkload w = LargeRowInsertWorkload.create(options);
        LargeRowOptions o = w.largeRowOptions();
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        w.prepare(ds, dialect, 2, quiet);
        try (Connection c = ds.getConnection()) {
            assertThat(rows(c, o)).isEqualTo(o.tables() * o.rowsPerTable());
            run(w, c, dialect, inserts);
            // a later run: new workload object, same tables
            run(LargeRowInsertWorkload.create(options), c, dialect, inserts);
            long expected = o.tables() * o.rowsPerTable() + 2L * inserts * o.rowsPerInsert();
            assertThat(rows(c, o)).isEqualTo(expected);
            try (Statement st = c.createStatement()) {
                for (int t = 1; t <= o.tables(); t++) {
                    try (ResultSet rs = st.executeQuery("SELECT v, k FROM " + LargeRowInsertWorkload.table(t))) {
                        while (rs.next()) {
                            assertThat(rs.getBytes(1)).hasSize(o.valueBytes());
                            assertThat(rs.getString(2)).hasSize(o.indexKeyBytes()).matches("[0-9a-z]+");
                        }
                    }
                }
            }
        } finally {
            w.cleanup(ds, dialect, quiet);
        }
    }

    private static void run(LargeRowInsertWorkload w, Connection c, Dialect dialect, int inserts)
            throws SQLException {
        TransactionOutcome out = new TransactionOutcome();
        try (WorkloadSession s = w.open(c, dialect, 5)) {
            for (int i = 0; i < inserts; i++) {
                s.execute(out);
                assertThat(out.statements()).isEqualTo(1);
                assertThat(out.opIndex()).isZero();
            }
        }
    }

    static long rows(Connection c, LargeRowOptions o) throws SQLException {
        long total = 0;
        try (Statement st = c.createStatement()) {
            for (int t = 1; t <= o.tables(); t++) {
                try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + LargeRowInsertWorkload.table(t))) {
                    rs.next();
                    total += rs.getLong(1);
                }
            }
        }
        return total;
    }
}
