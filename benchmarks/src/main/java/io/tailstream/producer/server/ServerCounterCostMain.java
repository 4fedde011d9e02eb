package io.tailstream.producer.server;

import io.tailstream.producer.target.Target;
import io.tailstream.producer.target.TargetConnections;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Locale;

/**
 * What one reading of the server's counters costs: its wall time on the client, and the server's CPU time, read from
 * {@code /proc} around many readings back to back (run it against an idle local server: every CPU tick of the
 * server process in between is counted as the readings'). For PostgreSQL the process is the sampler's own backend;
 * for MySQL/MariaDB the server process, whose pid is given.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.tailstream.producer.server.ServerCounterCostMain \
 *     jdbc:mysql://127.0.0.1:3306/tailstream_test tailstream TS_PW 2000 $(pidof mariadbd)
 * java -cp benchmarks/target/benchmarks.jar io.tailstream.producer.server.ServerCounterCostMain \
 *     jdbc:postgresql://127.0.0.1:5432/test postgres - 2000
 * </pre>
 */
public final class ServerCounterCostMain {

    /** Linux's clock ticks per second for /proc/PID/stat times ({@code getconf CLK_TCK}). */
    private static final double TICKS_PER_SECOND = 100;

    private ServerCounterCostMain() {}

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String user = args[1];
        String passwordEnv = args[2];
        int readings = Integer.parseInt(args[3]);
        Target target = Target.of("cost", url, user, () -> "-".equals(passwordEnv) ? null : System.getenv(passwordEnv));
        try (TargetConnections tc = TargetConnections.open(target, 1); Connection c = tc.dataSource().getConnection()) {
            ServerCounterSource source = ServerCounterSource.forDialect(tc.dialect());
            long pid = args.length > 4 ? Long.parseLong(args[4]) : backendPid(c);
            for (int i = 0; i < 100; i++) {
                source.read(c); // warm-up: the driver's and the server's code paths
            }
            long[] wallNanos = new long[readings];
            long ticks0 = cpuTicks(pid);
            long t0 = System.nanoTime();
            int values = 0;
            for (int i = 0; i < readings; i++) {
                long s = System.nanoTime();
                CounterReading r = source.read(c);
                wallNanos[i] = System.nanoTime() - s;
                values = r.gauges().size() + r.counters().size();
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            long ticks = cpuTicks(pid) - ticks0;
            Arrays.sort(wallNanos);
            double serverMsPerReading = ticks / TICKS_PER_SECOND * 1000 / readings;
            System.out.printf(Locale.ROOT, "%s: %d readings of %d values in %.1f s; wall per reading p50 %.2f ms,"
                            + " p99 %.2f ms; server CPU %.3f ms per reading (%d ticks of pid %d), %.3f%% of one core"
                            + " at one reading a second%n", tc.dialect().name(), readings, values, seconds,
                    wallNanos[readings / 2] / 1e6, wallNanos[(int) (readings * 0.99)] / 1e6, serverMsPerReading,
                    ticks, pid, serverMsPerReading / 10);
        }
    }

    private static long backendPid(Connection c) throws Exception {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** utime + stime of a process, in clock ticks (fields 14 and 15 of /proc/PID/stat, after the command). */
    private static long cpuTicks(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }
}
