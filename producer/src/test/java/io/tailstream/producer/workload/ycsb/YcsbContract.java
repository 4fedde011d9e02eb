package io.tailstream.producer.workload.ycsb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.workload.TransactionOutcome;
import io.tailstream.producer.workload.WorkloadSession;
import java.io.OutputStream;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import javax.sql.DataSource;

/**
 * What every YCSB preset must do on any target: the op mix follows the proportions, each op sends its statement
 * count (read-modify-write 2, the others 1), and the table grows by exactly the inserts. Shared by the H2 test and
 * the MariaDB integration test.
 */
final class YcsbContract {

    static final int RECORDS = 500;

    private YcsbContract() {}

    static void check(YcsbPreset preset, Map<String, String> extra, int ops, DataSource ds, Dialect dialect)
            throws SQLException {
        Map<String, String> options = new HashMap<>(Map.of("recordcount", String.valueOf(RECORDS), "fieldlength",
                "20"));
        options.putAll(extra);
        YcsbWorkload w = YcsbWorkload.create(preset, options);
        YcsbOptions o = w.ycsbOptions();
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        w.prepare(ds, dialect, 3, quiet);
        try (Connection c = ds.getConnection()) {
            long loaded = preset == YcsbPreset.LOAD ? 0 : RECORDS;
            assertThat(rows(c, o)).isEqualTo(loaded);
            long[] perOp = new long[w.ops().size()];
            long statements = 0;
            TransactionOutcome out = new TransactionOutcome();
            try (WorkloadSession s = w.open(c, dialect, 11)) {
                for (int i = 0; i < ops; i++) {
                    s.execute(out);
                    perOp[out.opIndex()]++;
                    statements += out.statements();
                    assertThat(out.statements()).isEqualTo(out.opIndex() == YcsbWorkload.READ_MODIFY_WRITE ? 2 : 1);
                }
            }
            double[] p = {o.readProportion(), o.updateProportion(), o.insertProportion(), o.scanProportion(),
                    o.readModifyWriteProportion()};
            for (int op = 0; op < p.length; op++) {
                double sigma = Math.sqrt(p[op] * (1 - p[op]) / ops);
                assertThat((double) perOp[op] / ops).as("share of %s", w.ops().get(op))
                        .isCloseTo(p[op], within(5 * sigma + 1e-12));
            }
            assertThat(statements).isEqualTo(ops + perOp[YcsbWorkload.READ_MODIFY_WRITE]);
            assertThat(rows(c, o)).isEqualTo(loaded + perOp[YcsbWorkload.INSERT]);
            // the insert sequence continues after the loaded keys; every acknowledged key exists
            assertThat(w.inserts().lastValue()).isEqualTo(o.insertStart() + loaded + perOp[YcsbWorkload.INSERT] - 1);
        } finally {
            w.cleanup(ds, dialect, quiet);
        }
    }

    static long rows(Connection c, YcsbOptions o) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + o.table())) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
