package io.tailstream.reporter.query;

import io.tailstream.reporter.archive.ArchiveLayout;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A step's measurement phase as a series of time units (1 s; longer for long steps, so at most {@link #MAX_UNITS}):
 * per unit, the statements of its measured samples as {@link StepFigureQuery} counts them for QPS, and the latencies
 * of its successful samples in buckets 1% wide. A sample belongs to the unit it completed in, counted from the start
 * of the measurement ({@code measure_start_us}, or the first measured sample's start where unknown); the last,
 * partial unit is left out. The series the block bootstrap resamples ({@code BlockBootstrap}) for the confidence
 * interval of a step's change: the figures themselves always come from {@link StepFigureQuery}. Immutable.
 */
final class StepSeconds {

    /** At most this many units: a 12-hour step is 2,000 units of 22 s. */
    public static final int MAX_UNITS = 2_000;

    /** Buckets per factor e of latency: a bucket is 1% wide. */
    private static final double BUCKETS_PER_E = 100;

    private final double unitSeconds;
    private final double[] statements;
    private final int firstBucket;
    /**
     * {@code below[u][b]}: successful samples of the units before {@code u} in the buckets before
     * {@code firstBucket + b}; cumulative in both directions, so the samples of a run of units below a bucket are two
     * reads.
     */
    private final long[][] below;

    private StepSeconds(double unitSeconds, double[] statements, int firstBucket, long[][] below) {
        this.unitSeconds = unitSeconds;
        this.statements = statements;
        this.firstBucket = firstBucket;
        this.below = below;
    }

    /** Whole units of the measurement phase. */
    public int units() {
        return statements.length;
    }

    /** Seconds per unit. */
    public double unitSeconds() {
        return unitSeconds;
    }

    /** Statements per second of one unit. */
    public double qps(int unit) {
        return statements[unit] / unitSeconds;
    }

    /** QPS over the given units (a resample: units may repeat). */
    public double qps(int[] units) {
        double s = 0;
        for (int u : units) {
            s += statements[u];
        }
        return s / (units.length * unitSeconds);
    }

    private int buckets() {
        return below[0].length - 1;
    }

    /**
     * The nearest-rank percentile {@code p} of the successful samples of the given units, µs, to the 1% bucket (its
     * geometric middle); NaN when they hold none. The units are taken as runs of consecutive ones (a resample's
     * blocks), and the bucket holding the rank is found by bisection over the cumulative counts: a resample costs
     * its blocks times the logarithm of the buckets, not its units times the buckets.
     */
    public double percentileUs(int[] units, double p) {
        int[] from = new int[units.length];
        int[] to = new int[units.length];
        int runs = 0;
        int i = 0;
        while (i < units.length) {
            int j = i;
            while (j + 1 < units.length && units[j + 1] == units[j] + 1) {
                j++;
            }
            from[runs] = units[i];
            to[runs] = units[j] + 1;
            runs++;
            i = j + 1;
        }
        long n = below(from, to, runs, buckets());
        if (n == 0) {
            return Double.NaN;
        }
        long rank = (long) Math.ceil(p * n);
        // the smallest k with rank samples below bucket k: the rank lies in bucket k - 1
        int lo = 1;
        int hi = buckets();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (below(from, to, runs, mid) >= rank) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return Math.exp((firstBucket + lo - 1 + 0.5) / BUCKETS_PER_E);
    }

    /** Successful samples of the runs of units {@code [from[r], to[r])} in the buckets before {@code bucket}. */
    private long below(int[] from, int[] to, int runs, int bucket) {
        long n = 0;
        for (int r = 0; r < runs; r++) {
            n += below[to[r]][bucket] - below[from[r]][bucket];
        }
        return n;
    }

    /** Successful samples of one unit in bucket {@code b} (relative to {@code firstBucket}). */
    private long count(int unit, int b) {
        return below[unit + 1][b + 1] - below[unit + 1][b] - below[unit][b + 1] + below[unit][b];
    }

    /**
     * The units of several steps one after the other (rounds of a key pooled), in the first step's unit length; the
     * units of a step with longer units count as they are.
     */
    public static StepSeconds concat(List<StepSeconds> parts) {
        if (parts.size() == 1) {
            return parts.get(0);
        }
        int units = parts.stream().mapToInt(StepSeconds::units).sum();
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        for (StepSeconds p : parts) {
            if (p.buckets() > 0) {
                min = Math.min(min, p.firstBucket);
                max = Math.max(max, p.firstBucket + p.buckets() - 1);
            }
        }
        int buckets = max < min ? 0 : max - min + 1;
        double[] statements = new double[units];
        long[][] counts = new long[units][buckets];
        int at = 0;
        for (StepSeconds p : parts) {
            for (int u = 0; u < p.units(); u++) {
                statements[at] = p.statements[u] * parts.get(0).unitSeconds / p.unitSeconds;
                for (int b = 0; b < p.buckets(); b++) {
                    counts[at][p.firstBucket - min + b] = p.count(u, b);
                }
                at++;
            }
        }
        return new StepSeconds(parts.get(0).unitSeconds, statements, buckets == 0 ? 0 : min, cumulative(counts));
    }

    /** {@code below} from per-unit, per-bucket counts. */
    private static long[][] cumulative(long[][] counts) {
        int buckets = counts.length == 0 ? 0 : counts[0].length;
        long[][] below = new long[counts.length + 1][buckets + 1];
        for (int u = 0; u < counts.length; u++) {
            long inUnit = 0;
            for (int b = 0; b < buckets; b++) {
                inUnit += counts[u][b];
                below[u + 1][b + 1] = below[u][b + 1] + inUnit;
            }
        }
        return below;
    }

    /** The series of each of a run's steps, by step id; steps without measured samples are absent. */
    public static Map<Integer, StepSeconds> of(ArchiveDatabase db, String runId, List<Integer> stepIds)
            throws SQLException {
        if (stepIds.isEmpty() || !db.has(ArchiveLayout.SAMPLES) || !db.has(ArchiveLayout.STEPS)) {
            return Map.of();
        }
        String run = ArchiveDatabase.sqlString(runId);
        String steps = stepIds.stream().map(String::valueOf).collect(Collectors.joining(", "));
        // the span and the unit per step; then statements per unit, and successful latencies per unit and bucket.
        // Units in integer microseconds: the per-sample arithmetic is what this pass costs.
        String base = """
                WITH m AS (
                  SELECT step_id, start_us, start_us + latency_us AS end_us, latency_us, status = 'ok' AS ok,
                         CASE WHEN status = 'ok' THEN queries ELSE greatest(queries - 1, 0) END AS statements
                  FROM samples WHERE run_id = %1$s AND step_id IN (%2$s) AND NOT warmup),
                span AS (
                  SELECT m.step_id,
                         coalesce(any_value(st.measure_start_us), min(m.start_us)) AS from_us,
                         coalesce(any_value(CASE WHEN st.measure_end_us > st.measure_start_us THEN st.measure_end_us END),
                                  max(m.end_us)) AS to_us
                  FROM m LEFT JOIN (SELECT * FROM steps WHERE run_id = %1$s) st ON st.step_id = m.step_id
                  GROUP BY m.step_id),
                unit AS (
                  SELECT step_id, from_us, unit_us, CAST((to_us - from_us) // unit_us AS INTEGER) AS units
                  FROM (SELECT step_id, from_us, to_us,
                               CAST(1000000 * greatest(1, ceil((to_us - from_us) / 1e6 / %3$d)) AS BIGINT) AS unit_us
                        FROM span)),
                u AS (
                  SELECT m.step_id, CAST((m.end_us - unit.from_us) // unit.unit_us AS INTEGER) AS unit, m.ok,
                         m.statements, m.latency_us, unit.unit_us / 1e6 AS seconds, unit.units
                  FROM m JOIN unit USING (step_id) WHERE m.end_us >= unit.from_us)
                """.formatted(run, steps, MAX_UNITS);
        // one pass: per step, unit, outcome and latency bucket, the statements and the samples
        Map<Integer, double[]> statements = new HashMap<>();
        Map<Integer, Double> seconds = new HashMap<>();
        Map<Integer, List<long[]>> cells = new HashMap<>();
        try (Statement st = db.connection().createStatement();
             ResultSet rs = st.executeQuery(base + """
                     SELECT step_id, any_value(seconds), any_value(units), unit, ok,
                            CAST(floor(ln(greatest(latency_us, 1)) * %d) AS INTEGER) AS bucket, sum(statements),
                            count(*)
                     FROM u WHERE unit < units GROUP BY step_id, unit, ok, bucket"""
                     .formatted((int) BUCKETS_PER_E))) {
            while (rs.next()) {
                int step = rs.getInt(1);
                int units = rs.getInt(3);
                int unit = rs.getInt(4);
                seconds.put(step, rs.getDouble(2));
                statements.computeIfAbsent(step, k -> new double[units])[unit] += rs.getDouble(7);
                if (rs.getBoolean(5)) {
                    cells.computeIfAbsent(step, k -> new ArrayList<>()).add(new long[] {unit, rs.getInt(6),
                            rs.getLong(8)});
                }
            }
        }
        Map<Integer, StepSeconds> out = new HashMap<>();
        statements.forEach((step, perUnit) -> out.put(step, build(seconds.get(step), perUnit,
                cells.getOrDefault(step, List.of()))));
        return out;
    }

    /**
     * The series of one step from its cells: per unit its statements, and {@code {unit, bucket, successful
     * samples}} cells ({@code bucket = floor(ln(latency µs) * 100)}).
     */
    static StepSeconds build(double unitSeconds, double[] statements, List<long[]> cells) {
        int min = cells.stream().mapToInt(c -> (int) c[1]).min().orElse(0);
        int max = cells.stream().mapToInt(c -> (int) c[1]).max().orElse(-1);
        long[][] counts = new long[statements.length][max - min + 1];
        for (long[] c : cells) {
            counts[(int) c[0]][(int) c[1] - min] += c[2];
        }
        return new StepSeconds(unitSeconds, statements, min, cumulative(counts));
    }
}
