package io.tailstream.reporter.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The radix sort against a stable comparison sort: same order, ties in arrival order, whatever the span. */
class TimeOrderTest {

    /**
     * @param rows  rows per call
     * @param span  start times drawn from this many microseconds (0: all equal; up to 2^43, where the fallback
     *              takes over)
     * @param ties  one row in {@code ties} repeats the previous row's start
     * @param run   0: rows in random order (radix sorted); else rows in ascending runs of this length, as blocks
     *              bring them (merged while there are at most 4,096 runs)
     */
    @ParameterizedTest
    @CsvSource({
        "0, 1000, 2, 0",
        "1, 1000, 2, 0",
        "2, 0, 1, 0",
        "1000, 0, 1, 0",
        "5000, 3, 2, 0",
        "70000, 1000000, 3, 0",
        "70000, 4000000000, 5, 0",
        "100000, 100000000000, 7, 0",
        "3000, 9000000000000, 2, 0",
        "3000, 4611686018427387903, 2, 0",
        "1, 1000, 2, 1024",
        "1023, 1000000, 2, 1024",
        "100000, 1000000, 3, 1024",
        "100000, 100000000, 50, 300",
        "100000, 100000000, 50, 24",
        "100000, 100000000, 50, 25",
    })
    void of_sameOrderAsStableSort(int rows, long span, int ties, int run) {
        Random random = new Random(rows ^ span);
        TimeOrder timeOrder = new TimeOrder();
        for (int trial = 0; trial < 3; trial++) {
            long[] start = new long[rows + 10]; // longer than the rows: the tail must be ignored
            long base = 1_750_000_000_000_000L - span / 2;
            for (int i = 0; i < start.length; i++) {
                start[i] = i > 0 && random.nextInt(ties) == 0 ? start[i - 1]
                        : base + (span == 0 ? 0 : Math.floorMod(random.nextLong(), span + 1));
            }
            for (int from = 0; run > 0 && from < rows; from += run) {
                Arrays.sort(start, from, Math.min(rows, from + run));
            }
            int[] order = timeOrder.of(start, rows);
            Integer[] expected = new Integer[rows];
            for (int i = 0; i < rows; i++) {
                expected[i] = i;
            }
            Arrays.sort(expected, Comparator.comparingLong((Integer i) -> start[i]).thenComparingInt(i -> i));
            // isEqualTo compares the arrays in one pass; containsExactly also diffs them, quadratic in the rows
            assertThat(Arrays.copyOf(order, rows)).isEqualTo(Arrays.stream(expected).mapToInt(i -> i).toArray());
        }
    }
}
