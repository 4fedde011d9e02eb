package io.tailstream.producer.health;

import io.tailstream.producer.target.Dialect;
import io.tailstream.schemas.event.RttProbe;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.HdrHistogram.Histogram;

/**
 * The round trip to one target, measured the same way for every product: on the target's own probe connection
 * (apart from the workers' pool), one {@code SELECT 1} prepared on the server before its first execution
 * ({@link Dialect#prepareOnServer}), executed back to back, the first {@value #DISCARDED} discarded, then up to
 * {@value #TIMED} timed, the whole probe capped at {@link #CAP}. Percentiles are HdrHistogram's nearest rank, 3
 * significant digits. Thread safe (the pool hands the one connection to one caller at a time).
 */
public final class RoundTripProbe {

    /** Executions discarded first: the driver's and the server's code paths and caches warm up. */
    public static final int DISCARDED = 20;
    /** Executions timed. */
    public static final int TIMED = 200;
    /** The whole probe stops after this, however many round trips it timed (a slow or distant target). */
    public static final java.time.Duration CAP = java.time.Duration.ofSeconds(1);

    private final DataSource connection;
    private final Dialect dialect;

    /**
     * @param connection the target's probe connection (a pool of one)
     * @param dialect    the target's dialect
     */
    public RoundTripProbe(DataSource connection, Dialect dialect) {
        this.connection = connection;
        this.dialect = dialect;
    }

    /** The probe run just before a step, while no worker runs. */
    public RttProbe measure() throws SQLException {
        long deadline = System.nanoTime() + CAP.toNanos();
        Histogram h = new Histogram(1, TimeUnit.SECONDS.toNanos(60), 3);
        boolean server;
        try (Connection c = connection.getConnection();
             PreparedStatement ps = dialect.prepareOnServer(c, "SELECT 1")) {
            for (int i = 0; i < DISCARDED && System.nanoTime() - deadline < 0; i++) {
                execute(ps);
            }
            for (int i = 0; i < TIMED && System.nanoTime() - deadline < 0; i++) {
                long t0 = System.nanoTime();
                execute(ps);
                h.recordValue(Math.min(System.nanoTime() - t0, h.getHighestTrackableValue()));
            }
            server = dialect.serverPrepared(ps);
        }
        int n = (int) h.getTotalCount();
        if (n == 0) {
            return null;
        }
        String how = dialect.embedded() ? "compiled in process (embedded, no network)"
                : server ? "prepared on the server"
                : "prepared on the client (the URL turns server-side statements off)";
        String method = "SELECT 1 " + how + ", dedicated idle connection, " + DISCARDED + " discarded, " + n
                + " timed back to back";
        return new RttProbe(method, n, h.getMinValue() / 1e3, h.getValueAtPercentile(50) / 1e3,
                h.getValueAtPercentile(99) / 1e3, h.getMaxValue() / 1e3);
    }

    /**
     * One round trip on a freshly prepared statement after one discarded execution, ms: the per-second probe during
     * a step ({@code ClientHealth.rttMillis}), under the step's load.
     */
    public double once() throws SQLException {
        try (Connection c = connection.getConnection();
             PreparedStatement ps = dialect.prepareOnServer(c, "SELECT 1")) {
            execute(ps);
            long t0 = System.nanoTime();
            execute(ps);
            return (System.nanoTime() - t0) / 1e6;
        }
    }

    private static void execute(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                // the one row is fetched, as a workload fetches its rows
            }
        }
    }
}
