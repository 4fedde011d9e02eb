package io.tailstream.producer.driver;

import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.workload.TransactionOutcome;
import io.tailstream.producer.workload.WorkloadSession;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

/**
 * A test workload with a known script: each transaction runs {@code statements} prepared {@code SELECT 1}, and every
 * {@code failEvery}-th transaction of a session fails at statement {@code failAt} with an {@link SQLException} of
 * SQLState {@code sqlState} (a deadlock for {@code 40001}), as a server would report it. Immutable.
 */
record ScriptedWorkload(int statements, int failEvery, int failAt, String sqlState) implements NoTablesWorkload {

    /** Transactions that never fail. */
    static ScriptedWorkload clean(int statements) {
        return new ScriptedWorkload(statements, 0, 0, null);
    }

    @Override
    public String name() {
        return "scripted";
    }

    @Override
    public double queriesPerTransaction() {
        return statements;
    }

    @Override
    public Map<String, String> options() {
        return Map.of("statements", String.valueOf(statements));
    }

    @Override
    public WorkloadSession open(Connection connection, Dialect dialect, long seed) throws SQLException {
        PreparedStatement ps = dialect.prepare(connection, "SELECT 1");
        return new WorkloadSession() {
            long n;

            @Override
            public void execute(TransactionOutcome out) throws SQLException {
                out.reset();
                n++;
                boolean fails = failEvery > 0 && n % failEvery == 0;
                for (int i = 1; i <= statements; i++) {
                    out.statement();
                    if (fails && i == failAt) {
                        throw new SQLException("scripted failure", sqlState);
                    }
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                    }
                }
            }

            @Override
            public void close() throws SQLException {
                ps.close();
            }
        };
    }
}
