package io.tailstream.analysis.counters;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Which of the server's counters moved around a stall, beyond their own variation before it: what the database was
 * doing when the load slowed down. A correlation in time, said as such; not a proof of cause.
 *
 * <p>For each series, the values before the stall (the readings of the {@value #LOOKBACK_MS} ms before its start; for
 * a counter, its rates per second between consecutive readings that end by then) are compared with those during it
 * (readings from its start to its end; for a counter, the intervals whose middle falls in it; a stall shorter than
 * the readings' spacing takes the first reading, or the interval, at or over its start). A series is listed when the
 * difference of the means is at least {@value #MIN_Z} standard errors ({@code sd_before * sqrt(1/n + 1/k)}, a series
 * that never varied before counting any difference) and at least {@value #MIN_RELATIVE_PCT}% of the larger mean;
 * the {@value #TOP} with the largest z are kept, in that order. A counter reset (a value lower than the one before)
 * breaks its interval; NaN readings (failed ones) are left out. Series that only echo the load (statements,
 * commits, rows, logical reads) or only carry a limit (the buffer pool's size) are not candidates, and the raw
 * inputs of {@link #DIRTY_PAGES_PCT} and {@link #CHECKPOINT_AGE_PCT} give way to them.
 *
 * <p>Error rate (a simulation with known truth in {@code StallExplanationTest}, 2,000 stalls over series of independent
 * normal noise, 30 readings before each stall): a series that did not move is listed for 0.04% of stalls; one that
 * moved by 3 of its standard deviations over a 5-second stall is listed for 97%. Real counters are autocorrelated
 * and skewed, so the rate on a real server is higher; the report says "moved most around it", not "caused".
 *
 * <p>Stateless.
 */
public final class StallExplanation {

    /** Derived: dirty pages in % of the buffer pool (MySQL, MariaDB). */
    public static final String DIRTY_PAGES_PCT = "dirty pages %";
    /** Derived: checkpoint age in % of its maximum (MariaDB) or of {@code max_wal_size} (PostgreSQL). */
    public static final String CHECKPOINT_AGE_PCT = "checkpoint age % of max";

    /** How far before a stall its baseline reaches. */
    public static final long LOOKBACK_MS = 30_000;
    static final int MIN_BEFORE = 3;
    static final double MIN_Z = 4.0;
    static final int MIN_RELATIVE_PCT = 5;
    static final int TOP = 5;

    /** Echoes of the load itself, or limits: never an explanation. */
    static final Set<String> NOT_CANDIDATES = Set.of(
            "Questions", "Com_commit", "Com_rollback", "Innodb_rows_read", "Innodb_rows_inserted",
            "Innodb_rows_updated", "Innodb_rows_deleted", "Innodb_buffer_pool_read_requests",
            "Innodb_buffer_pool_write_requests", "Innodb_log_write_requests", "Threads_connected",
            "Innodb_lsn_current", "Innodb_lsn_last_checkpoint", "Innodb_redo_log_current_lsn",
            "Innodb_redo_log_checkpoint_lsn", "Innodb_buffer_pool_pages_total", "Innodb_buffer_pool_pages_data",
            "Innodb_checkpoint_max_age", "pg_stat_database.xact_commit", "pg_stat_database.xact_rollback",
            "pg_stat_database.tup_returned", "pg_stat_database.tup_fetched", "pg_stat_database.tup_inserted",
            "pg_stat_database.tup_updated", "pg_stat_database.tup_deleted", "pg_stat_database.blks_hit",
            "pg_stat_database.numbackends", "pg_stat_wal.wal_records", "wal_lsn", "max_wal_size", "sessions.all");

    /** Raw inputs of a derived figure: listed through it. */
    static final Set<String> DERIVED_INPUTS = Set.of("Innodb_buffer_pool_pages_dirty", "Innodb_checkpoint_age",
            "checkpoint_age");

    /**
     * What the counters said about one stall.
     *
     * @param moves   the series that moved, most first; empty when none did
     * @param refusal why nothing can be said (too few readings before the stall, none during it); null otherwise
     */
    public record Explanation(List<CounterMove> moves, String refusal) {
        public Explanation {
            moves = List.copyOf(moves);
        }
    }

    private StallExplanation() {}

    /** The counters that moved around the stall {@code [startMs, endMs]} (epoch ms). */
    public static Explanation explain(List<CounterSeries> series, long startMs, long endMs) {
        List<CounterMove> moves = new ArrayList<>();
        int judged = 0;
        for (CounterSeries s : series) {
            if (NOT_CANDIDATES.contains(s.name()) || DERIVED_INPUTS.contains(s.name())) {
                continue;
            }
            double[][] split = s.cumulative() ? rates(s, startMs, endMs) : readings(s, startMs, endMs);
            double[] before = split[0];
            double[] during = split[1];
            if (before.length < MIN_BEFORE || during.length == 0) {
                continue;
            }
            judged++;
            CounterMove m = move(s, before, during);
            if (m != null) {
                moves.add(m);
            }
        }
        if (judged == 0) {
            return new Explanation(List.of(), series.isEmpty() ? "no server counters were read"
                    : "too few counter readings around the stall (at least " + MIN_BEFORE + " in the "
                    + LOOKBACK_MS / 1000 + " s before it and one during it)");
        }
        moves.sort(Comparator.comparingDouble(CounterMove::z).reversed()
                .thenComparing(Comparator.comparingDouble(StallExplanation::relative).reversed())
                .thenComparing(CounterMove::name));
        return new Explanation(moves.subList(0, Math.min(TOP, moves.size())), null);
    }

    private static double relative(CounterMove m) {
        double larger = Math.max(Math.abs(m.before()), Math.abs(m.during()));
        return larger == 0 ? 0 : Math.abs(m.during() - m.before()) / larger;
    }

    private static CounterMove move(CounterSeries s, double[] before, double[] during) {
        double mb = mean(before);
        double md = mean(during);
        double diff = Math.abs(md - mb);
        double larger = Math.max(Math.abs(mb), Math.abs(md));
        if (diff == 0 || diff < MIN_RELATIVE_PCT / 100.0 * larger) {
            return null;
        }
        double sd = sd(before, mb);
        double z = sd == 0 ? Double.POSITIVE_INFINITY
                : diff / (sd * Math.sqrt(1.0 / before.length + 1.0 / during.length));
        if (z < MIN_Z) {
            return null;
        }
        double peak = Double.NaN;
        if (!s.cumulative()) {
            peak = during[0];
            for (double d : during) {
                if (Math.abs(d - mb) > Math.abs(peak - mb)) {
                    peak = d;
                }
            }
        }
        return new CounterMove(s.name(), s.cumulative(), mb, md, peak, z);
    }

    /** A gauge's readings before and during the stall, NaN left out. */
    private static double[][] readings(CounterSeries s, long startMs, long endMs) {
        List<Double> before = new ArrayList<>();
        List<Double> during = new ArrayList<>();
        long[] at = s.atMs();
        double[] v = s.values();
        for (int i = 0; i < at.length; i++) {
            if (Double.isNaN(v[i])) {
                continue;
            }
            if (at[i] >= startMs - LOOKBACK_MS && at[i] < startMs) {
                before.add(v[i]);
            } else if (at[i] >= startMs && at[i] <= endMs) {
                during.add(v[i]);
            }
        }
        if (during.isEmpty()) {
            // a stall shorter than the readings' spacing: the first reading at or after its start, if close
            for (int i = 0; i < at.length; i++) {
                if (at[i] >= startMs && !Double.isNaN(v[i])) {
                    if (at[i] <= endMs + gap(at, i)) {
                        during.add(v[i]);
                    }
                    break;
                }
            }
        }
        return new double[][] {unbox(before), unbox(during)};
    }

    /** A counter's rates per second before and during the stall, over consecutive good readings without a reset. */
    private static double[][] rates(CounterSeries s, long startMs, long endMs) {
        List<Double> before = new ArrayList<>();
        List<Double> during = new ArrayList<>();
        Double over = null;
        long[] at = s.atMs();
        double[] v = s.values();
        for (int i = 1; i < at.length; i++) {
            if (Double.isNaN(v[i]) || Double.isNaN(v[i - 1]) || v[i] < v[i - 1]) {
                continue;
            }
            double rate = (v[i] - v[i - 1]) * 1000.0 / (at[i] - at[i - 1]);
            double middle = (at[i] + at[i - 1]) / 2.0;
            if (at[i] <= startMs && at[i] >= startMs - LOOKBACK_MS) {
                before.add(rate);
            } else if (middle >= startMs && middle <= endMs) {
                during.add(rate);
            } else if (over == null && at[i - 1] < startMs && at[i] > startMs) {
                over = rate;
            }
        }
        if (during.isEmpty() && over != null) {
            during.add(over);
        }
        return new double[][] {unbox(before), unbox(during)};
    }

    /** The spacing of the readings around index {@code i} (the one before it), 1 s when unknown. */
    private static long gap(long[] at, int i) {
        return i > 0 ? at[i] - at[i - 1] : 1_000;
    }

    /** Whether a counter counts bytes (its rate is shown in B/s). */
    static boolean isBytes(String name) {
        String n = name.toLowerCase(java.util.Locale.ROOT);
        return n.contains("bytes") || n.contains("written") || n.equals("innodb_data_read") || n.contains("lsn");
    }

    private static double[] unbox(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static double mean(double[] x) {
        double s = 0;
        for (double v : x) {
            s += v;
        }
        return s / x.length;
    }

    private static double sd(double[] x, double mean) {
        double s = 0;
        for (double v : x) {
            s += (v - mean) * (v - mean);
        }
        return Math.sqrt(s / (x.length - 1));
    }
}
