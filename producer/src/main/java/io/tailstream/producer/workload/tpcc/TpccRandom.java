package io.tailstream.producer.workload.tpcc;

import java.util.SplittableRandom;

/**
 * The random numbers and strings of the TPC-C specification, revision 5.11: uniform integers, the non-uniform
 * {@code NURand(A, x, y)} of clause 2.1.6 with its constants C, customer last names from three syllables (clause
 * 4.3.2.3), and the a-strings, n-strings, zip codes and "ORIGINAL" data of clause 4.3.2 and 4.3.3.1.
 *
 * <p>Strings are ASCII letters and digits: the specification asks for a character set of at least 128 characters
 * in a-strings, which the reference kits (and this one) trade for text every database stores in one byte a character.
 *
 * <p>Owned by one thread; not thread safe.
 */
final class TpccRandom {

    /** The syllables of a customer last name (clause 4.3.2.3), indexed by the digits of a number 0..999. */
    static final String[] SYLLABLES = {"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"};
    /** The largest number whose last name {@link #lastName} spells. */
    static final int LAST_NAME_MAX = 999;
    /** The marker 10% of item and stock data hold (clause 4.3.3.1). */
    static final String ORIGINAL = "ORIGINAL";

    private static final char[] ALPHANUMERIC =
            "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();

    private final SplittableRandom random;
    private final Constants constants;

    TpccRandom(long seed, Constants constants) {
        this.random = new SplittableRandom(seed);
        this.constants = constants;
    }

    /**
     * The constants C of {@code NURand} (clause 2.1.6): one for each A the specification uses, 255 for customer last
     * names, 1023 for customer ids and 8191 for item ids, each in {@code [0, A]}.
     */
    record Constants(int cLast, int cId, int olIId) {

        /** The smallest and largest distance allowed between the C_LAST of the load and of the run (2.1.6.1). */
        static final int MIN_C_LAST_DELTA = 65;
        static final int MAX_C_LAST_DELTA = 119;

        Constants {
            check("C_LAST", cLast, 255);
            check("C_ID", cId, 1023);
            check("OL_I_ID", olIId, 8191);
        }

        /** Constants for loading a database, drawn from {@code random}. */
        static Constants forLoad(SplittableRandom random) {
            return new Constants(random.nextInt(256), random.nextInt(1024), random.nextInt(8192));
        }

        /**
         * Constants for a run against a database loaded with {@code load}: C_ID and OL_I_ID are drawn anew, and C_LAST
         * so that its distance to the load's is in [65, 119] and neither 96 nor 112 (clause 2.1.6.1), which keeps the
         * last names the run looks for apart from the distribution the load drew them from.
         */
        static Constants forRun(Constants load, SplittableRandom random) {
            while (true) {
                int cLast = random.nextInt(256);
                if (validRunDelta(load.cLast, cLast)) {
                    return new Constants(cLast, random.nextInt(1024), random.nextInt(8192));
                }
            }
        }

        /** Whether {@code run} may be the run's C_LAST for a database loaded with {@code load} (clause 2.1.6.1). */
        static boolean validRunDelta(int load, int run) {
            int delta = Math.abs(run - load);
            return delta >= MIN_C_LAST_DELTA && delta <= MAX_C_LAST_DELTA && delta != 96 && delta != 112;
        }

        private static void check(String name, int c, int a) {
            if (c < 0 || c > a) {
                throw new IllegalArgumentException(name + " constant must be in [0, " + a + "], was " + c);
            }
        }
    }

    /** The constants of this generator's {@link #nuRand}. */
    Constants constants() {
        return constants;
    }

    /** An integer uniform in {@code [x, y]}. */
    int uniform(int x, int y) {
        return random.nextInt(x, y + 1);
    }

    /** A uniform double in {@code (0, 1]}: never 0, so its logarithm is finite. */
    double unitOpenAtZero() {
        return 1.0 - random.nextDouble();
    }

    /** True with probability {@code percent} / 100. */
    boolean percent(int percent) {
        return random.nextInt(100) < percent;
    }

    /**
     * {@code NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x}, with this generator's C for
     * {@code a}: 255, 1023 or 8191.
     */
    int nuRand(int a, int x, int y) {
        int c = switch (a) {
            case 255 -> constants.cLast();
            case 1023 -> constants.cId();
            case 8191 -> constants.olIId();
            default -> throw new IllegalArgumentException("NURand's A is 255, 1023 or 8191, was " + a);
        };
        return (((uniform(0, a) | uniform(x, y)) + c) % (y - x + 1)) + x;
    }

    /** A customer id of a district's 3,000, as the transactions choose them: {@code NURand(1023, 1, 3000)}. */
    int customerId() {
        return nuRand(1023, 1, TpccScale.CUSTOMERS_PER_DISTRICT);
    }

    /** An item id of the 100,000, as New-Order chooses them: {@code NURand(8191, 1, 100000)}. */
    int itemId() {
        return nuRand(8191, 1, TpccScale.ITEMS);
    }

    /** A last name as the transactions look for them: {@code lastName(NURand(255, 0, 999))}. */
    String customerLastName() {
        return lastName(nuRand(255, 0, LAST_NAME_MAX));
    }

    /** The last name of {@code number} in 0..999: the syllables of its three digits (371: PRI CALLY OUGHT). */
    static String lastName(int number) {
        if (number < 0 || number > LAST_NAME_MAX) {
            throw new IllegalArgumentException("a last name's number is in 0..999, was " + number);
        }
        return SYLLABLES[number / 100] + SYLLABLES[number / 10 % 10] + SYLLABLES[number % 10];
    }

    /** A random a-string of uniform length in {@code [min, max]}. */
    String aString(int min, int max) {
        char[] s = new char[uniform(min, max)];
        for (int i = 0; i < s.length; i++) {
            s[i] = ALPHANUMERIC[random.nextInt(ALPHANUMERIC.length)];
        }
        return new String(s);
    }

    /** A random n-string (digits) of uniform length in {@code [min, max]}. */
    String nString(int min, int max) {
        char[] s = new char[uniform(min, max)];
        for (int i = 0; i < s.length; i++) {
            s[i] = (char) ('0' + random.nextInt(10));
        }
        return new String(s);
    }

    /** A zip code: a random n-string of 4 digits followed by "11111" (clause 4.3.2.7). */
    String zip() {
        return nString(4, 4) + "11111";
    }

    /**
     * I_DATA or S_DATA: a random a-string of length in {@code [min, max]}; 10% of them hold "ORIGINAL" at a random
     * position (clause 4.3.3.1).
     */
    String data(int min, int max) {
        String s = aString(min, max);
        if (!percent(10)) {
            return s;
        }
        int at = uniform(0, s.length() - ORIGINAL.length());
        return s.substring(0, at) + ORIGINAL + s.substring(at + ORIGINAL.length());
    }

    /** A permutation of {@code 1..n}, uniform: the customer ids of a district's loaded orders (clause 4.3.3.1). */
    int[] permutation(int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i + 1;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }
}
