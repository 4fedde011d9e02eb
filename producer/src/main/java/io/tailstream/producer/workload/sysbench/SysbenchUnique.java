package io.tailstream.producer.workload.sysbench;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code sysbench.rand.unique()}: like sysbench's {@code sb_rand_unique}, built on Jeff Preshing's RandomSequence, a
 * permutation of the 32-bit integers, so the values look random yet never repeat within 2^32 draws. One run-wide
 * counter shared by every worker (an atomic increment), with a random start and offset per run. The exact sequence
 * is not sysbench's; what {@code oltp_insert} relies on (unique, spread over the range) is. Values are unsigned
 * 32-bit, returned in a {@code long}. Thread safe.
 */
final class SysbenchUnique {

    /** The largest prime below 2^32 that is 3 mod 4: x -> x^2 mod p is then a permutation of [0, p). */
    static final long PRIME = 4_294_967_291L;

    private final AtomicInteger index;
    private final int offset;

    SysbenchUnique(int firstIndex, int offset) {
        this.index = new AtomicInteger(firstIndex);
        this.offset = offset;
    }

    /** A sequence with a random start index and offset drawn from {@code seed}. */
    public static SysbenchUnique seeded(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        return new SysbenchUnique(r.nextInt(), r.nextInt());
    }

    /** The next unique value in [0, 2^32). */
    public long next() {
        int i = index.getAndIncrement();
        return permute((permute(i & 0xFFFFFFFFL) + (offset & 0xFFFFFFFFL) & 0xFFFFFFFFL) ^ 0x5bf03635L);
    }

    /**
     * Preshing's quadratic-residue permutation of [0, 2^32): x^2 mod p, mirrored for the upper half of [0, p); the
     * five values >= p map to themselves.
     */
    static long permute(long x) {
        return permute(x, PRIME);
    }

    /** The same construction for any prime {@code p = 3 mod 4}; values >= p are fixed. */
    static long permute(long x, long p) {
        if (x >= p) {
            return x;
        }
        // x * x < 2^64: exact as an unsigned 64-bit product
        long residue = Long.remainderUnsigned(x * x, p);
        return x <= p / 2 ? residue : p - residue;
    }
}
