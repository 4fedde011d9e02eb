package io.tailstream.producer.workload.tpcc;

/**
 * Keying and think times of a terminal (clause 5.2.5): before each transaction the keying time of its type, after it
 * a think time drawn from a negative exponential distribution with the type's mean, truncated at 10 times the mean.
 * Off by default, as HammerDB, BenchBase and go-tpc run TPC-C; on, a terminal completes about 2.9 transactions a
 * minute and ten terminals per warehouse at most 12.61 New-Orders ({@link #MAX_TPMC_PER_WAREHOUSE}).
 */
final class TpccPacing {

    /** Keying time per type, seconds, indexed as {@link TpccSession}'s ops. */
    static final double[] KEYING_S = {18, 3, 2, 2, 2};
    /** Mean think time per type, seconds. */
    static final double[] THINK_MEAN_S = {12, 12, 10, 5, 5};
    /** A think time is at most this many times its mean. */
    static final double THINK_TRUNCATION = 10;
    /**
     * The most tpmC a warehouse's 10 terminals make with {@link TpccMix}'s deck: 10 of 23 cards New-Orders of the
     * 60 s / 20.70 s mean cycle, times 10. The specification's 12.86 is that of a mix with 45% New-Orders (a
     * 20.99 s cycle).
     */
    static final double MAX_TPMC_PER_WAREHOUSE = 12.61;

    private final TpccRandom random;

    TpccPacing(TpccRandom random) {
        this.random = random;
    }

    /** Keying time before a transaction of {@code type}, ns. */
    long keyingNanos(int type) {
        return (long) (KEYING_S[type] * 1e9);
    }

    /** A think time after a transaction of {@code type}, ns: {@code -ln(r) * mean}, r uniform in (0, 1], truncated. */
    long thinkNanos(int type) {
        double mean = THINK_MEAN_S[type];
        return (long) (Math.min(-Math.log(random.unitOpenAtZero()) * mean, THINK_TRUNCATION * mean) * 1e9);
    }
}
