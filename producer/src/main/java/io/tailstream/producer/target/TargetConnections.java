package io.tailstream.producer.target;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import io.tailstream.schemas.event.TargetInfo;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * An open connection pool to one target, with its dialect. Thread safe (HikariCP). Close it when the target's steps
 * are done.
 */
public final class TargetConnections implements AutoCloseable {

    private final Target target;
    private final Dialect dialect;
    private final HikariDataSource pool;

    private TargetConnections(Target target, Dialect dialect, HikariDataSource pool) {
        this.target = target;
        this.dialect = dialect;
        this.pool = pool;
    }

    /**
     * Opens a pool of {@code size} connections (one per worker thread, plus one for metadata and preparation).
     *
     * @throws TargetException naming the target if no connection can be made
     */
    public static TargetConnections open(Target target, int size) {
        if (size < 1) {
            throw new IllegalArgumentException("pool size must be >= 1, was " + size);
        }
        Dialect dialect = Dialect.forUrl(target.jdbcUrl());
        HikariConfig cfg = new HikariConfig();
        cfg.setPoolName("tailstream-" + target.name());
        cfg.setJdbcUrl(dialect.effectiveUrl(target.jdbcUrl()));
        if (target.user() != null) {
            cfg.setUsername(target.user());
        }
        String password = target.password().get();
        if (password != null) {
            cfg.setPassword(password);
        }
        cfg.setMaximumPoolSize(size);
        cfg.setMinimumIdle(size);
        cfg.setConnectionTimeout(10_000);
        // one attempt at open: fail there, not at the first transaction, with the driver's reason
        cfg.setInitializationFailTimeout(1);
        try {
            return new TargetConnections(target, dialect, new HikariDataSource(cfg));
        } catch (HikariPool.PoolInitializationException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            String reason = cause instanceof SQLException se ? SqlErrors.describe(se) : String.valueOf(cause.getMessage());
            throw new TargetException("cannot connect to target '" + target.name() + "' (" + target.redactedUrl()
                    + "): " + reason, e);
        }
    }

    public Target target() {
        return target;
    }

    public Dialect dialect() {
        return dialect;
    }

    public DataSource dataSource() {
        return pool;
    }

    /** Pool size. */
    public int size() {
        return pool.getMaximumPoolSize();
    }

    /**
     * Captures the target's product, version and server variables ({@code variables}, or the dialect's defaults if
     * null).
     */
    public TargetInfo describe(List<String> variables) {
        List<String> names = variables == null ? dialect.defaultVariables() : variables;
        try (Connection c = pool.getConnection()) {
            DatabaseMetaData md = c.getMetaData();
            Map<String, String> vars = dialect.readVariables(c, names);
            return new TargetInfo(target.name(), target.redactedUrl(), md.getDatabaseProductName(),
                    md.getDatabaseProductVersion(), vars, target.monthlyCost(), target.currency(), target.nodes(),
                    target.notes());
        } catch (SQLException e) {
            throw new TargetException("cannot read metadata of target '" + target.name() + "' ("
                    + target.redactedUrl() + "): " + SqlErrors.describe(e), e);
        }
    }

    /** Target info from configuration alone (no connection): what a run announces before its steps. */
    public static TargetInfo describeOffline(Target target) {
        return new TargetInfo(target.name(), target.redactedUrl(), null, null, Map.of(), target.monthlyCost(),
                target.currency(), target.nodes(), target.notes());
    }

    @Override
    public void close() {
        pool.close();
    }
}
