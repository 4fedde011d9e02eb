package io.tailstream.producer.workload.ycsb;

import java.util.SplittableRandom;

/**
 * YCSB's key generators ({@code site.ycsb.generator}), with the same formulas and constants: the zipfian generator
 * of Gray et al. (SIGMOD 1994) with constant 0.99, the scrambled zipfian that spreads the popular keys over the key
 * space with a 64-bit FNV hash, the "latest" generator that favours recently inserted keys, and uniform. Each
 * instance draws from the {@link SplittableRandom} it is given; a worker owns its instances, so none is thread
 * safe.
 */
final class YcsbGenerators {

    /** {@code ZipfianGenerator.ZIPFIAN_CONSTANT}. */
    public static final double ZIPFIAN_CONSTANT = 0.99;
    /** {@code ScrambledZipfianGenerator.ITEM_COUNT}: the scrambled generator draws from this many items. */
    public static final long SCRAMBLED_ITEM_COUNT = 10_000_000_000_000_000L;
    /** {@code ScrambledZipfianGenerator.ZETAN}: zeta(ITEM_COUNT, 0.99), precomputed by YCSB. */
    public static final double SCRAMBLED_ZETAN = 26.46902820178302;

    static final long FNV_OFFSET_BASIS_64 = 0xCBF29CE484222325L;
    static final long FNV_PRIME_64 = 1099511628211L;

    private YcsbGenerators() {}

    /** A long generator over a key space; {@code next} may read a bound that grows (inserts). */
    public interface KeyGenerator {
        long next();
    }

    /**
     * {@code Utils.fnvhash64}: FNV over the 8 bytes of {@code val}, low byte first, then {@code Math.abs} (which
     * leaves {@code Long.MIN_VALUE} negative, as in YCSB).
     */
    public static long fnvhash64(long val) {
        long hash = FNV_OFFSET_BASIS_64;
        for (int i = 0; i < 8; i++) {
            long octet = val & 0x00ff;
            val = val >> 8;
            hash = hash ^ octet;
            hash = hash * FNV_PRIME_64;
        }
        return Math.abs(hash);
    }

    /** {@code ZipfianGenerator.zetastatic}: the sum of 1 / (i + 1)^theta for i in [st, n), added to {@code initial}. */
    public static double zeta(long st, long n, double theta, double initial) {
        double sum = initial;
        for (long i = st; i < n; i++) {
            sum += 1 / Math.pow(i + 1, theta);
        }
        return sum;
    }

    /**
     * {@code ZipfianGenerator}: items {@code min..max}, {@code min} the most popular. {@link #next(long)} accepts a
     * growing item count and extends zeta incrementally, as YCSB does for the "latest" distribution.
     */
    public static final class Zipfian implements KeyGenerator {
        private final SplittableRandom random;
        private final long items;
        private final long base;
        private final double theta;
        private final double zeta2theta;
        private final double alpha;
        private double zetan;
        private double eta;
        private long countForZeta;

        public Zipfian(SplittableRandom random, long min, long max) {
            this(random, min, max, ZIPFIAN_CONSTANT, zeta(0, max - min + 1, ZIPFIAN_CONSTANT, 0));
        }

        Zipfian(SplittableRandom random, long min, long max, double theta, double zetan) {
            if (max < min) {
                throw new IllegalArgumentException("zipfian range is empty: " + min + ".." + max);
            }
            this.random = random;
            this.items = max - min + 1;
            this.base = min;
            this.theta = theta;
            this.zeta2theta = zeta(0, 2, theta, 0);
            this.alpha = 1.0 / (1.0 - theta);
            this.zetan = zetan;
            this.countForZeta = items;
            this.eta = (1 - Math.pow(2.0 / items, 1 - theta)) / (1 - zeta2theta / zetan);
        }

        double zetan() {
            return zetan;
        }

        @Override
        public long next() {
            return next(items);
        }

        /** {@code nextLong(itemcount)}: a larger count extends zeta; as in YCSB a smaller one is not recomputed. */
        public long next(long itemCount) {
            if (itemCount > countForZeta) {
                zetan = zeta(countForZeta, itemCount, theta, zetan);
                countForZeta = itemCount;
                // YCSB keeps 'items' (the constructor's count) in eta's first term; so do we
                eta = (1 - Math.pow(2.0 / items, 1 - theta)) / (1 - zeta2theta / zetan);
            }
            double u = random.nextDouble();
            double uz = u * zetan;
            if (uz < 1.0) {
                return base;
            }
            if (uz < 1.0 + Math.pow(0.5, theta)) {
                return base + 1;
            }
            return base + (long) (itemCount * Math.pow(eta * u - eta + 1, alpha));
        }
    }

    /** {@code ScrambledZipfianGenerator}: zipfian over 10^16 items with YCSB's precomputed zeta, FNV-hashed into range. */
    public static final class ScrambledZipfian implements KeyGenerator {
        private final Zipfian gen;
        private final long min;
        private final long itemCount;

        public ScrambledZipfian(SplittableRandom random, long min, long max) {
            this.min = min;
            this.itemCount = max - min + 1;
            // YCSB builds ZipfianGenerator(0, ITEM_COUNT, ...): ITEM_COUNT + 1 items, with the precomputed zeta
            this.gen = new Zipfian(random, 0, SCRAMBLED_ITEM_COUNT, ZIPFIAN_CONSTANT, SCRAMBLED_ZETAN);
        }

        @Override
        public long next() {
            return min + fnvhash64(gen.next()) % itemCount;
        }
    }

    /** {@code UniformLongGenerator}: uniform over {@code [lb, ub]}. */
    public static final class Uniform implements KeyGenerator {
        private final SplittableRandom random;
        private final long lb;
        private final long interval;

        public Uniform(SplittableRandom random, long lb, long ub) {
            this.random = random;
            this.lb = lb;
            this.interval = ub - lb + 1;
        }

        @Override
        public long next() {
            // YCSB: Math.abs(ThreadLocalRandom.current().nextLong()) % interval + lb; nextLong(bound) is unbiased
            return random.nextLong(interval) + lb;
        }
    }

    /**
     * {@code SkewedLatestGenerator}: {@code max - zipfian(max)} where {@code max} is the highest acknowledged
     * insert, so the newest keys are the most popular.
     */
    public static final class SkewedLatest implements KeyGenerator {
        private final InsertCounter basis;
        private final Zipfian zipfian;

        public SkewedLatest(SplittableRandom random, InsertCounter basis) {
            this.basis = basis;
            this.zipfian = new Zipfian(random, 0, Math.max(1, basis.lastValue()) - 1);
        }

        @Override
        public long next() {
            long max = basis.lastValue();
            return max - zipfian.next(max);
        }
    }
}
