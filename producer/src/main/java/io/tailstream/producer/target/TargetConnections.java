package io.tailstream.producer.target;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import io.tailstream.producer.workload.Workload;
import io.tailstream.schemas.event.Secrets;
import io.tailstream.schemas.event.TargetInfo;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Open connection pools to one target, with its dialect: one pool to the primary and one to each read-only
 * endpoint. Preparation, metadata and every workload that writes use the primary; a read-only workload's workers
 * are spread round-robin over all endpoints ({@link #dataSourceFor}), which is how a 1-node vs N-node read
 * scale-out is measured. Thread safe (HikariCP). Close it when the target's steps are done.
 */
public final class TargetConnections implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TargetConnections.class);

    private final Target target;
    private final Dialect dialect;
    private final HikariDataSource pool;
    private final List<HikariDataSource> readOnlyPools;
    private final DataSource readSpread;

    private TargetConnections(Target target, Dialect dialect, HikariDataSource pool,
                              List<HikariDataSource> readOnlyPools) {
        this.target = target;
        this.dialect = dialect;
        this.pool = pool;
        this.readOnlyPools = readOnlyPools;
        List<DataSource> all = new java.util.ArrayList<>();
        all.add(pool);
        all.addAll(readOnlyPools);
        this.readSpread = readOnlyPools.isEmpty() ? pool : new RoundRobinDataSource(all);
    }

    /**
     * The most one request for a connection waits, in ms: the pool has a connection per worker, so only a server
     * that does not accept connections makes a worker wait, and its attempt then fails and is retried after a
     * backoff.
     */
    public static final long CONNECTION_TIMEOUT_MS = 2_000;

    /**
     * How long opening a target goes on trying when its first connection times out: a server that accepted the
     * connection but was too busy to answer within {@link #CONNECTION_TIMEOUT_MS} (another load on it, a restart that
     * has not finished, a machine swapping). A refused connection or a refused login fails at once.
     */
    public static final Duration FIRST_CONNECTION_PATIENCE = Duration.ofSeconds(30);

    /**
     * Opens a pool of {@code size} connections (one per worker thread, plus one for metadata and preparation).
     *
     * @throws TargetException naming the target if no connection can be made
     */
    public static TargetConnections open(Target target, int size) {
        return open(target, size, FIRST_CONNECTION_PATIENCE);
    }

    /** {@link #open(Target, int)}, retrying a first connection that times out for {@code patience}. */
    static TargetConnections open(Target target, int size, Duration patience) {
        if (size < 1) {
            throw new IllegalArgumentException("pool size must be >= 1, was " + size);
        }
        Dialect dialect = Dialect.forUrl(target.jdbcUrl());
        HikariDataSource primary = pool(target, dialect, target.jdbcUrl(), "", size, patience);
        List<HikariDataSource> readOnly = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < target.readOnlyUrls().size(); i++) {
                readOnly.add(pool(target, dialect, target.readOnlyUrls().get(i), "-ro" + (i + 1), size, patience));
            }
        } catch (RuntimeException e) {
            readOnly.forEach(HikariDataSource::close);
            primary.close();
            throw e;
        }
        return new TargetConnections(target, dialect, primary, List.copyOf(readOnly));
    }

    /**
     * The pool to one endpoint, once its first connection is made; a first connection that times out is tried again
     * until {@code patience} has passed since the first attempt.
     */
    private static HikariDataSource pool(Target target, Dialect dialect, String url, String suffix, int size,
                                         Duration patience) {
        long deadline = System.nanoTime() + patience.toNanos();
        int timedOut = 0;
        while (true) {
            try {
                return new HikariDataSource(config(target, dialect, url, suffix, size));
            } catch (HikariPool.PoolInitializationException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                String password = target.password().get();
                String reason = withoutPassword(Secrets.redactUrl(SqlErrors.describeWithRootCause(cause)), password);
                if (SqlErrors.timedOut(cause)) {
                    timedOut++;
                    if (System.nanoTime() - deadline < 0) {
                        if (timedOut == 1) {
                            LOG.warn("target '{}' ({}) did not answer in time ({}); trying again for up to {} s",
                                    target.name(), Secrets.redactUrl(url), reason, patience.toSeconds());
                        }
                        continue;
                    }
                    reason += " (" + timedOut + (timedOut == 1 ? " attempt" : " attempts") + " in "
                            + patience.toSeconds() + " s timed out)";
                }
                throw new TargetException("cannot connect to target '" + target.name() + "' ("
                        + Secrets.redactUrl(url) + "): " + reason, e);
            }
        }
    }

    private static HikariConfig config(Target target, Dialect dialect, String url, String suffix, int size) {
        HikariConfig cfg = new HikariConfig();
        cfg.setPoolName("tailstream-" + target.name() + suffix);
        cfg.setJdbcUrl(dialect.effectiveUrl(url));
        if (target.user() != null) {
            cfg.setUsername(target.user());
        }
        String password = target.password().get();
        if (password != null) {
            cfg.setPassword(password);
        }
        cfg.setMaximumPoolSize(size);
        cfg.setMinimumIdle(size);
        // how long one attempt to get a connection may take: a worker reconnecting to a server that is down must
        // fail its attempt and retry (and say so) well within the step's reconnect budget, not wait in the pool
        cfg.setConnectionTimeout(CONNECTION_TIMEOUT_MS);
        // a connection that failed with a lost-connection error is never handed out again: the pool's own list of
        // fatal SQLStates misses some (MariaDB's 70100 "connection was killed"), and a worker that reconnects must
        // not get the dead connection back
        cfg.setExceptionOverride(new LostConnectionEviction(dialect));
        // one attempt per pool at open: fail there, not at the first transaction, with the driver's reason (a longer
        // initializationFailTimeout would retry a refused login too; pool() retries only what timed out)
        cfg.setInitializationFailTimeout(1);
        return cfg;
    }

    /**
     * {@code text} with every stand-alone occurrence of {@code password} masked: drivers do not echo passwords, but
     * a connection error goes to the console and into events, so make sure. Stand-alone (not inside a longer word),
     * so a short password does not mask letters of the driver's words.
     */
    static String withoutPassword(String text, String password) {
        if (password == null || password.isEmpty()) {
            return text;
        }
        return text.replaceAll("(?<![\\p{Alnum}])" + java.util.regex.Pattern.quote(password) + "(?![\\p{Alnum}])",
                java.util.regex.Matcher.quoteReplacement(Secrets.MASK));
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

    /**
     * Where a workload's workers take their connections: for a {@link Workload#readOnly() read-only} workload on a
     * target with read-only endpoints, a data source that hands out connections round-robin over the primary and
     * every read-only endpoint (worker i on endpoint i mod n); otherwise the primary.
     */
    public DataSource dataSourceFor(Workload workload) {
        return workload.readOnly() ? readSpread : pool;
    }

    /** Number of endpoints: the primary plus the read-only ones. */
    public int endpoints() {
        return 1 + readOnlyPools.size();
    }

    /** Pool size. */
    public int size() {
        return pool.getMaximumPoolSize();
    }

    /**
     * Captures the target's product, version and server variables ({@code variables}, or the dialect's defaults if
     * null, and always the dialect's {@link Dialect#profileVariables() profile variables}), plus the JDBC driver the
     * producer talks to it with ({@value #JDBC_DRIVER_VARIABLE}: the driver's own cost per statement is part of what
     * a client-bound step measures, so a report comparing targets must show it) and the isolation level the workers'
     * connections run at ({@value #ISOLATION_VARIABLE}, read on a connection of their pool, so it is the session's
     * effective level, not only the server's default).
     */
    public TargetInfo describe(List<String> variables) {
        java.util.Set<String> names = new java.util.LinkedHashSet<>(variables == null ? dialect.defaultVariables()
                : variables);
        names.addAll(dialect.profileVariables());
        try (Connection c = pool.getConnection()) {
            DatabaseMetaData md = c.getMetaData();
            Map<String, String> vars = new java.util.TreeMap<>(dialect.readVariables(c, List.copyOf(names)));
            vars.put(JDBC_DRIVER_VARIABLE, md.getDriverName() + " " + md.getDriverVersion());
            String isolation = dialect.isolation(c);
            if (isolation != null) {
                vars.put(ISOLATION_VARIABLE, isolation);
            }
            if (embedded()) {
                vars.put(EMBEDDED_VARIABLE, "true");
            }
            return new TargetInfo(target.name(), target.redactedUrl(), md.getDatabaseProductName(),
                    md.getDatabaseProductVersion(), vars, target.monthlyCost(), target.currency(), nodes(target),
                    target.notes(), target.costItems());
        } catch (SQLException e) {
            throw new TargetException("cannot read metadata of target '" + target.name() + "' ("
                    + target.redactedUrl() + "): " + SqlErrors.describe(e), e);
        }
    }

    /**
     * Name of the variable ({@code true}) that marks a target whose database runs inside the load generator's
     * process (H2 in memory or on a local file): its engine works on the workers' own threads, so the load
     * generator's CPU is the database's too and a client-bound judgement has no meaning for it.
     */
    public static final String EMBEDDED_VARIABLE = "tailstream.embedded";

    /** True if the database runs in this process, on the workers' threads (see {@link #EMBEDDED_VARIABLE}). */
    public boolean embedded() {
        return dialect.embedded() && !target.jdbcUrl().matches("(?i)jdbc:h2:(tcp|ssl):.*");
    }

    /** Name under which the JDBC driver's name and version are added to a step's target variables. */
    public static final String JDBC_DRIVER_VARIABLE = "tailstream.jdbc_driver";

    /**
     * Name under which the isolation level of the workers' connections is added to a step's target variables:
     * {@code READ UNCOMMITTED}, {@code READ COMMITTED}, {@code REPEATABLE READ} or {@code SERIALIZABLE}.
     */
    public static final String ISOLATION_VARIABLE = "tailstream.isolation";

    /**
     * Data plus index bytes of {@code tables} in the connection's current database or schema, as the dialect reads
     * it ({@link Dialect#dataBytes}); null when the dialect cannot tell cheaply, no table is named or none exists.
     */
    public Long dataBytes(List<String> tables) {
        if (tables.isEmpty()) {
            return null;
        }
        try (Connection c = pool.getConnection()) {
            return dialect.dataBytes(c, tables);
        } catch (SQLException e) {
            throw new TargetException("cannot read the data size of target '" + target.name() + "' ("
                    + target.redactedUrl() + "): " + SqlErrors.describe(e), e);
        }
    }

    /** Target info from configuration alone (no connection): what a run announces before its steps. */
    public static TargetInfo describeOffline(Target target) {
        return new TargetInfo(target.name(), target.redactedUrl(), null, null, Map.of(), target.monthlyCost(),
                target.currency(), nodes(target), target.notes(), target.costItems());
    }

    /** Nodes as configured, else the endpoint count when there are read-only endpoints. */
    private static Integer nodes(Target target) {
        if (target.nodes() != null || target.readOnlyUrls().isEmpty()) {
            return target.nodes();
        }
        return 1 + target.readOnlyUrls().size();
    }

    @Override
    public void close() {
        readOnlyPools.forEach(HikariDataSource::close);
        pool.close();
    }
}
