package io.tailstream.reporter.query;

import java.util.Arrays;
import java.util.List;

/**
 * A step's measurement phase as a series of time units (1 s; longer for long steps, so at most {@link #MAX_UNITS}):
 * per unit, the statements of its measured samples as {@link StepFigureQuery} counts them for QPS, and the latencies
 * of its successful samples in buckets 1% wide ({@link #bucket}); a sample belongs to the unit it completed in. The
 * series the block bootstrap resamples ({@code BlockBootstrap}) for the confidence interval of a step's change: the
 * figures themselves always come from {@link StepFigureQuery}. {@link StepSecondsQuery} reads it. Immutable.
 */
final class StepSeconds {

    /** At most this many units: a 12-hour step is 2,000 units of 22 s. */
    public static final int MAX_UNITS = 2_000;

    /** Buckets per factor e of latency: a bucket is 1% wide. */
    static final int BUCKETS_PER_E = 100;

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

    /** The 1% bucket of a latency: {@code floor(ln(latency µs) * 100)}, latencies below 1 µs counted as 1 µs. */
    static int bucket(long latencyUs) {
        return (int) Math.floor(Math.log(Math.max(latencyUs, 1)) * BUCKETS_PER_E);
    }

    /**
     * The series of one step from its counts per unit and bucket ({@code counts[unit][bucket]}, buckets from 0), the
     * buckets no unit holds trimmed at both ends.
     */
    static StepSeconds of(double unitSeconds, double[] statements, long[][] counts) {
        int min = Integer.MAX_VALUE;
        int max = -1;
        for (long[] unit : counts) {
            for (int b = 0; b < unit.length; b++) {
                if (unit[b] != 0) {
                    min = Math.min(min, b);
                    max = Math.max(max, b);
                }
            }
        }
        int first = max < 0 ? 0 : min;
        long[][] trimmed = new long[counts.length][];
        for (int u = 0; u < counts.length; u++) {
            trimmed[u] = Arrays.copyOfRange(counts[u], first, max + 1);
        }
        return new StepSeconds(unitSeconds, statements, first, cumulative(trimmed));
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
