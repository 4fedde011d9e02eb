package io.tailstream.producer.target;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import javax.sql.DataSource;

/** Lock conflicts raised on purpose against a real server, for the error classification tests. */
final class ConflictScenarios {

    private ConflictScenarios() {}

    /**
     * Two transactions on a table {@code (id, v)} with rows 1 and 2 lock one row each, then each updates the other's
     * row, the first one's on another thread: whichever request arrives second closes the cycle and the server rolls
     * exactly one transaction back, in either order. Returns the victim's error.
     */
    static SQLException deadlock(DataSource ds, String table) throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Connection a = ds.getConnection(); Connection b = ds.getConnection();
             Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            try {
                sa.executeUpdate("UPDATE " + table + " SET v = v + 1 WHERE id = 1");
                sb.executeUpdate("UPDATE " + table + " SET v = v + 1 WHERE id = 2");
                Future<?> first = pool.submit(() -> {
                    sa.executeUpdate("UPDATE " + table + " SET v = v + 1 WHERE id = 2");
                    return null;
                });
                List<Throwable> failures = new ArrayList<>();
                try {
                    sb.executeUpdate("UPDATE " + table + " SET v = v + 1 WHERE id = 1");
                } catch (SQLException e) {
                    failures.add(e);
                }
                try {
                    first.get(60, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    failures.add(e.getCause());
                }
                assertThat(failures).as("exactly one transaction is the deadlock's victim").hasSize(1);
                assertThat(failures.get(0)).isInstanceOf(SQLException.class);
                return (SQLException) failures.get(0);
            } finally {
                a.rollback();
                b.rollback();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The server ends a connection between two of its statements: {@code idQuery} reads the connection's id on the
     * server, {@code end} is the statement that ends the connection of an id, run from a second connection. Returns
     * the error of the first connection's next statement.
     */
    static SQLException endedBetweenStatements(DataSource ds, String idQuery, LongFunction<String> end)
            throws SQLException {
        try (Connection victim = ds.getConnection(); Connection killer = ds.getConnection();
             Statement v = victim.createStatement(); Statement k = killer.createStatement()) {
            long id;
            try (ResultSet rs = v.executeQuery(idQuery)) {
                rs.next();
                id = rs.getLong(1);
            }
            k.execute(end.apply(id));
            return assertThrows(SQLException.class, () -> v.executeQuery("SELECT 1").close());
        }
    }
}
