package io.tailstream.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ScaleOutTest {

    @Test
    void pairs_eachSingleNodeTargetWithEachMultiNodeTargetOfItsProduct() {
        List<ScaleOut.Target> targets = List.of(new ScaleOut.Target("pg-3", "PostgreSQL", 3),
                new ScaleOut.Target("my-1", "MySQL", 1), new ScaleOut.Target("pg-1", "PostgreSQL", 1),
                new ScaleOut.Target("my-2", "MySQL", 2), new ScaleOut.Target("pg-2", "PostgreSQL", 2),
                new ScaleOut.Target("pg-x", "PostgreSQL", null), new ScaleOut.Target("h2", null, 1),
                new ScaleOut.Target("h2-ro", null, 2));
        assertThat(ScaleOut.pairs(targets)).containsExactly(
                new ScaleOut.Pair("", "h2", "h2-ro", 2),
                new ScaleOut.Pair("MySQL", "my-1", "my-2", 2),
                new ScaleOut.Pair("PostgreSQL", "pg-1", "pg-2", 2),
                new ScaleOut.Pair("PostgreSQL", "pg-1", "pg-3", 3));
        assertThat(ScaleOut.pairs(List.of(new ScaleOut.Target("a", "x", 2), new ScaleOut.Target("b", "x", 3))))
                .isEmpty();
    }

    /** Reference: every ordered pair of targets of one product, the first on 1 node, the second on more. */
    @Test
    void pairs_matchEveryQualifyingOrderedPair_onRandomTargets() {
        Random random = new Random(11);
        for (int i = 0; i < 1_000; i++) {
            List<ScaleOut.Target> targets = new ArrayList<>();
            int n = random.nextInt(8);
            for (int k = 0; k < n; k++) {
                String product = List.of("A", "B", "").get(random.nextInt(3));
                Integer nodes = random.nextInt(4) == 0 ? null : 1 + random.nextInt(3);
                targets.add(new ScaleOut.Target("t" + k, product.isEmpty() && random.nextBoolean() ? null : product,
                        nodes));
            }
            Collections.shuffle(targets, random);
            List<ScaleOut.Pair> expected = new ArrayList<>();
            for (ScaleOut.Target s : targets) {
                for (ScaleOut.Target m : targets) {
                    String product = Objects.toString(s.product(), "");
                    if (product.equals(Objects.toString(m.product(), "")) && Objects.equals(s.nodes(), 1)
                            && m.nodes() != null && m.nodes() > 1) {
                        expected.add(new ScaleOut.Pair(product, s.name(), m.name(), m.nodes()));
                    }
                }
            }
            expected.sort(Comparator.comparing(ScaleOut.Pair::product).thenComparing(ScaleOut.Pair::single)
                    .thenComparing(ScaleOut.Pair::multi));
            assertThat(ScaleOut.pairs(targets)).as("%s", targets).isEqualTo(expected);
        }
    }

    @Test
    void ratio_multiOverSingle_zeroWithoutSingleNodeQps() {
        assertThat(ScaleOut.ratio(300, 200)).isEqualTo(1.5);
        assertThat(ScaleOut.ratio(300, 0)).isZero();
        assertThat(ScaleOut.ratio(0, 0)).isZero();
    }
}
