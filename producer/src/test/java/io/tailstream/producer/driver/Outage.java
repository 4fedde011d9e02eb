package io.tailstream.producer.driver;

import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.workload.TransactionOutcome;
import io.tailstream.producer.workload.Workload;
import io.tailstream.producer.workload.WorkloadSession;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A target that goes away on cue (tests only): its workload's transactions are one {@code SELECT 1}; the
 * {@code downAfter}-th transaction of the step takes the target down, after which every statement fails with SQLState
 * 08S01 (a lost connection) and every connection attempt with 08001, until {@link #upWhenAllBack}. Thread safe.
 */
final class Outage {

    final AtomicBoolean down = new AtomicBoolean();
    final AtomicLong transactions = new AtomicLong();
    final AtomicLong refusedConnections = new AtomicLong();
    private final long downAfter;
    private final DataSource target;

    Outage(DataSource target, long downAfter) {
        this.target = target;
        this.downAfter = downAfter;
    }

    /** Sessions opened after {@link #upWhenAllBack}; null before. */
    private volatile CountDownLatch back;

    /**
     * Ends the outage, and holds each session opened from now on until {@code sessions} of them are open: no
     * transaction runs after the outage before every one of that many workers has reconnected, however fast the
     * first ones are (a step ending on a transaction count cannot end before a slow worker's backoff has passed).
     */
    void upWhenAllBack(int sessions) {
        back = new CountDownLatch(sessions);
        down.set(false);
    }

    /** The target's connections: refused while it is down. */
    DataSource dataSource() {
        return new DataSource() {
            @Override
            public Connection getConnection() throws SQLException {
                if (down.get()) {
                    refusedConnections.incrementAndGet();
                    throw new SQLTransientConnectionException("target down", "08001");
                }
                return target.getConnection();
            }

            @Override
            public Connection getConnection(String username, String password) throws SQLException {
                return getConnection();
            }

            @Override
            public PrintWriter getLogWriter() {
                return null;
            }

            @Override
            public void setLogWriter(PrintWriter out) {
                // no log
            }

            @Override
            public void setLoginTimeout(int seconds) {
                // not used
            }

            @Override
            public int getLoginTimeout() {
                return 0;
            }

            @Override
            public Logger getParentLogger() throws SQLFeatureNotSupportedException {
                throw new SQLFeatureNotSupportedException();
            }

            @Override
            public <T> T unwrap(Class<T> iface) throws SQLException {
                throw new SQLException("not a wrapper");
            }

            @Override
            public boolean isWrapperFor(Class<?> iface) {
                return false;
            }
        };
    }

    /** The workload whose transactions see the outage. */
    Workload workload() {
        return new NoTablesWorkload() {
            @Override
            public String name() {
                return "outage";
            }

            @Override
            public double queriesPerTransaction() {
                return 1;
            }

            @Override
            public WorkloadSession open(Connection connection, Dialect dialect, long seed) throws SQLException {
                PreparedStatement ps = dialect.prepare(connection, "SELECT 1");
                CountDownLatch wait = back;
                if (wait != null) {
                    wait.countDown();
                    try {
                        if (!wait.await(60, TimeUnit.SECONDS)) {
                            throw new SQLException("not every worker reconnected within 60 s", "08001");
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new SQLException("interrupted while waiting for the other workers", e);
                    }
                }
                return new WorkloadSession() {
                    @Override
                    public void execute(TransactionOutcome out) throws SQLException {
                        out.reset();
                        out.statement();
                        if (transactions.incrementAndGet() == downAfter) {
                            down.set(true);
                        }
                        if (down.get()) {
                            throw new SQLException("Communications link failure", "08S01");
                        }
                        try (ResultSet rs = ps.executeQuery()) {
                            rs.next();
                        }
                    }

                    @Override
                    public void close() throws SQLException {
                        ps.close();
                    }
                };
            }
        };
    }
}
