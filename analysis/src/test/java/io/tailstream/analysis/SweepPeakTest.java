package io.tailstream.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SweepPeakTest {

    @Test
    void index_highestQps_lowestThreadsOnEqualQps_unmeasuredLevelsSkipped() {
        assertThat(SweepPeak.index(List.of(1, 2, 4), List.of(10.0, 30.0, 20.0))).isEqualTo(1);
        assertThat(SweepPeak.index(List.of(1, 2, 4), List.of(10.0, 30.0, 30.0))).isEqualTo(1);
        assertThat(SweepPeak.index(List.of(8, 4, 2), List.of(30.0, 30.0, 10.0))).isEqualTo(1);
        assertThat(SweepPeak.index(List.of(1, 2, 4), Arrays.asList(null, 5.0, null))).isEqualTo(1);
        assertThat(SweepPeak.index(List.of(1, 2), Arrays.asList(null, null))).isEqualTo(-1);
        assertThat(SweepPeak.index(List.of(), List.of())).isEqualTo(-1);
        assertThatThrownBy(() -> SweepPeak.index(List.of(1), List.of())).hasMessageContaining("1 thread counts");
    }

    /** Reference: the measured levels sorted by QPS descending, then threads ascending; the first one. */
    @Test
    void index_isTheFirstLevelOfTheSortedLevels_onRandomSweeps() {
        Random random = new Random(7);
        for (int i = 0; i < 2_000; i++) {
            int n = random.nextInt(7);
            List<Integer> threads = new ArrayList<>(IntStream.rangeClosed(1, 16).boxed().toList());
            java.util.Collections.shuffle(threads, random);
            threads = threads.subList(0, n);
            List<Double> qps = new ArrayList<>();
            for (int l = 0; l < n; l++) {
                // few distinct values, so ties are common
                qps.add(random.nextInt(5) == 0 ? null : (double) random.nextInt(4));
            }
            List<Integer> t = threads;
            int expected = IntStream.range(0, n).filter(l -> qps.get(l) != null).boxed()
                    .min(Comparator.<Integer>comparingDouble(l -> -qps.get(l)).thenComparing(t::get)).orElse(-1);
            assertThat(SweepPeak.index(threads, qps)).as("%s %s", threads, qps).isEqualTo(expected);
        }
    }
}
