package io.tailstream.producer.workload.sysbench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.BitSet;
import org.junit.jupiter.api.Test;

class SysbenchUniqueTest {

    @Test
    void permute_smallPrimeThreeModFour_isABijection() {
        long p = 4091; // prime, 4091 = 4 * 1022 + 3
        BitSet hit = new BitSet();
        for (long x = 0; x < p + 5; x++) {
            hit.set((int) SysbenchUnique.permute(x, p));
        }
        assertThat(hit.cardinality()).isEqualTo((int) p + 5);
    }

    @Test
    void permute_isABijectionOnASmallPrimeModel_andFixesTheTopValues() {
        // the same construction over the 3-mod-4 prime 4294967291 cannot be enumerated; the values >= p are fixed
        for (long x = SysbenchUnique.PRIME; x < (1L << 32); x++) {
            assertThat(SysbenchUnique.permute(x)).isEqualTo(x);
        }
        assertThat(SysbenchUnique.permute(0)).isZero();
        assertThat(SysbenchUnique.permute(2)).isEqualTo(4);
        // upper half mirrored: p - (x^2 mod p)
        long x = SysbenchUnique.PRIME - 2;
        assertThat(SysbenchUnique.permute(x)).isEqualTo(SysbenchUnique.PRIME - 4);
    }

    @Test
    void next_millionDraws_allDistinct_inUnsigned32BitRange() {
        SysbenchUnique u = SysbenchUnique.seeded(7);
        java.util.HashSet<Long> seen = new java.util.HashSet<>();
        for (int i = 0; i < 1_000_000; i++) {
            long v = u.next();
            assertThat(v).isBetween(0L, 0xFFFFFFFFL);
            seen.add(v);
        }
        assertThat(seen).hasSize(1_000_000);
    }

    @Test
    void next_acrossTheIndexWrap_staysDistinct() {
        SysbenchUnique u = new SysbenchUnique(-500, 12345);
        java.util.HashSet<Long> seen = new java.util.HashSet<>();
        for (int i = 0; i < 1000; i++) {
            seen.add(u.next());
        }
        assertThat(seen).hasSize(1000);
    }
}
