package io.tailstream.reporter.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The per-unit series' percentiles of resamples against counting each resample's buckets one by one. */
class StepSecondsTest {

    /** A random step: per unit a few hundred successful samples over a spread of buckets, some units empty. */
    private static List<long[]> cells(SplittableRandom random, int units, int firstBucket, int buckets) {
        List<long[]> cells = new ArrayList<>();
        for (int u = 0; u < units; u++) {
            if (random.nextInt(10) == 0) {
                continue;
            }
            int centre = firstBucket + random.nextInt(buckets);
            for (int k = 0; k < 20; k++) {
                int b = Math.min(firstBucket + buckets - 1, Math.max(firstBucket, centre + random.nextInt(-15, 16)));
                cells.add(new long[] {u, b, 1 + random.nextInt(40)});
            }
        }
        return cells;
    }

    /** The bucket of the nearest rank of the units' counts, as a plain scan; null when they hold no sample. */
    private static Double bruteForce(List<List<long[]>> steps, int[] units, double p) {
        long[] counts = new long[10_000];
        int[] offset = new int[steps.size() + 1];
        int[] sizes = new int[steps.size()];
        for (int s = 0; s < steps.size(); s++) {
            sizes[s] = (int) steps.get(s).stream().mapToLong(c -> c[0]).max().orElse(-1) + 1;
        }
        for (int u : units) {
            int s = 0;
            int local = u;
            while (local >= sizes[s]) {
                local -= sizes[s];
                s++;
            }
            for (long[] c : steps.get(s)) {
                if (c[0] == local) {
                    counts[(int) c[1]] += c[2];
                }
            }
        }
        long n = 0;
        for (long c : counts) {
            n += c;
        }
        if (n == 0) {
            return null;
        }
        long rank = (long) Math.ceil(p * n);
        long upto = 0;
        for (int b = 0; ; b++) {
            upto += counts[b];
            if (upto >= rank) {
                return Math.exp((b + 0.5) / 100);
            }
        }
    }

    @Test
    void percentileOfResamples_isTheBucketOfTheNearestRank_alsoOverConcatenatedSteps() {
        SplittableRandom random = new SplittableRandom(11);
        for (int trial = 0; trial < 60; trial++) {
            int parts = 1 + random.nextInt(3);
            List<List<long[]>> cells = new ArrayList<>();
            List<StepSeconds> series = new ArrayList<>();
            int total = 0;
            for (int part = 0; part < parts; part++) {
                int units = 2 + random.nextInt(40);
                List<long[]> c = cells(random, units, 500 + random.nextInt(300), 1 + random.nextInt(400));
                // the brute force infers a step's units from its cells: keep the last unit populated
                c.add(new long[] {units - 1, 600, 1});
                cells.add(c);
                series.add(StepSeconds.build(1, new double[units], c));
                total += units;
            }
            StepSeconds s = StepSeconds.concat(series);
            assertThat(s.units()).isEqualTo(total);
            for (double p : new double[] {0.5, 0.99, 0.999, 1.0}) {
                int[] resample = new int[total];
                int filled = 0;
                int block = 1 + random.nextInt(5);
                while (filled < total) {
                    int start = random.nextInt(Math.max(1, total - block + 1));
                    for (int i = 0; i < block && filled < total && start + i < total; i++) {
                        resample[filled++] = start + i;
                    }
                }
                Double expected = bruteForce(cells, resample, p);
                double actual = s.percentileUs(resample, p);
                if (expected == null) {
                    assertThat(actual).isNaN();
                } else {
                    assertThat(actual).as("trial %d, p %s", trial, p).isEqualTo(expected);
                }
            }
        }
    }
}
