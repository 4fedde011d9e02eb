package io.tailstream.aggregator.stall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.StallEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link StallDetector} against hand-computed scenarios and, on random series, against {@link #reference}: a batch
 * restatement of the rules (flag every window, then cut runs of flagged windows per kind).
 */
class StallDetectorTest {

    private static final long T0 = 1_700_000_000_000L;
    private final StallConfig config = StallConfig.defaults();

    @Test
    void hardStall_fiveEmptyWindows_isOneStallOfFiveSeconds_publishedOpenThenClosed() {
        StallDetector d = new StallDetector(config, null);
        List<Stall> published = new ArrayList<>();
        int i = 0;
        for (; i < 10; i++) {
            published.addAll(d.accept(point(i, 100, 1000, 2000)));
        }
        assertThat(published).isEmpty();
        for (; i < 15; i++) {
            published.addAll(d.accept(point(i, 0, 0, 0)));
        }
        assertThat(published).hasSize(5).allSatisfy(s -> {
            assertThat(s.open()).isTrue();
            assertThat(s.kind()).isEqualTo(StallEvent.HARD);
            assertThat(s.startMs()).isEqualTo(T0 + 10_000);
        });
        assertThat(published).extracting(Stall::endMs)
                .containsExactly(T0 + 11_000, T0 + 12_000, T0 + 13_000, T0 + 14_000, T0 + 15_000);
        published.clear();
        // the window after the stall holds the stalled transactions: 5 s latency
        published.addAll(d.accept(point(i++, 150, 1500, 5_000_000)));
        assertThat(published).singleElement().satisfies(s -> {
            assertThat(s.open()).isFalse();
            assertThat(s.durationMs()).isEqualTo(5000);
            assertThat(s.worstP99Micros()).isEqualTo(5_000_000);
            assertThat(s.baselineQps()).isEqualTo(1000.0);
            assertThat(s.minQps()).isZero();
        });
        assertThat(d.stallCount()).isEqualTo(1);
        assertThat(d.stallMs()).isEqualTo(5000);
    }

    @Test
    void throughputDrop_shorterThanK_isNoStall_longerIsOne() {
        StallDetector d = new StallDetector(config, null);
        List<Stall> published = new ArrayList<>();
        int i = 0;
        for (; i < 10; i++) {
            published.addAll(d.accept(point(i, 100, 1000 + i, 2000)));
        }
        // baseline median of 1000..1009 = 1004.5; 499 < 50 % for 2 windows: not a stall (K = 3)
        published.addAll(d.accept(point(i++, 50, 499, 2000)));
        published.addAll(d.accept(point(i++, 50, 499, 2000)));
        published.addAll(d.accept(point(i++, 100, 1000, 2000)));
        assertThat(published).isEmpty();
        // exactly 50 % is not below the threshold; 3 windows below it are a stall
        published.addAll(d.accept(point(i++, 100, 502.5, 2000)));
        assertThat(published).isEmpty();
        for (int k = 0; k < 3; k++) {
            published.addAll(d.accept(point(i++, 40, 400 - k, 2000)));
        }
        assertThat(published).singleElement().satisfies(s -> {
            assertThat(s.kind()).isEqualTo(StallEvent.THROUGHPUT);
            assertThat(s.open()).isTrue();
            assertThat(s.windows()).isEqualTo(3);
        });
        List<Stall> ended = d.finish();
        assertThat(ended).singleElement().satisfies(s -> {
            assertThat(s.open()).isFalse();
            assertThat(s.minQps()).isEqualTo(398.0);
            assertThat(s.durationMs()).isEqualTo(3000);
        });
    }

    @Test
    void latencySpike_overMultipleForTwoWindows_isAStall_andStateSurvivesJson() {
        StallDetector d = new StallDetector(config, null);
        for (int i = 0; i < 6; i++) {
            d.accept(point(i, 100, 1000, 1000 + i)); // baseline P99 = lower median of 1000..1005 = 1002
        }
        assertThat(d.accept(point(6, 100, 1000, 3007))).isEmpty(); // first spike window (> 3006)
        StallDetector restored = new StallDetector(config,
                Json.read(Json.write(d.state()), StallDetector.State.class));
        List<Stall> second = restored.accept(point(7, 100, 1000, 9000));
        assertThat(second).singleElement().satisfies(s -> {
            assertThat(s.kind()).isEqualTo(StallEvent.LATENCY);
            assertThat(s.baselineP99Micros()).isEqualTo(1002);
            assertThat(s.worstP99Micros()).isEqualTo(9000);
            assertThat(s.startMs()).isEqualTo(T0 + 6000);
        });
        assertThat(restored.accept(point(8, 100, 1000, 3006))).singleElement()
                .satisfies(s -> assertThat(s.open()).isFalse());
    }

    @Test
    void randomSeries_detectorEqualsReferenceModel() {
        Random random = new Random(20261130);
        for (int series = 0; series < 300; series++) {
            StallConfig c = new StallConfig(0.3 + random.nextDouble() * 0.5, 1 + random.nextInt(4),
                    1.5 + random.nextDouble() * 3, 1 + random.nextInt(3), 5 + random.nextInt(30), 1 + random.nextInt(5));
            List<WindowPoint> points = randomSeries(random, 30 + random.nextInt(200));
            StallDetector d = new StallDetector(c, null);
            List<Stall> ended = new ArrayList<>();
            for (WindowPoint p : points) {
                d.accept(p).stream().filter(s -> !s.open()).forEach(ended::add);
            }
            ended.addAll(d.finish());
            ended.sort((a, b) -> a.kind().equals(b.kind()) ? Long.compare(a.startMs(), b.startMs())
                    : a.kind().compareTo(b.kind()));
            List<Stall> expected = reference(points, c);
            assertThat(ended).as("series %d with %s", series, c).isEqualTo(expected);
            assertThat(d.stallCount()).isEqualTo(expected.size());
            assertThat(d.stallMs()).isEqualTo(expected.stream().mapToLong(Stall::durationMs).sum());
        }
    }

    @Test
    void config_rejectsBadThresholds_namingKeyAndValue() {
        assertThatThrownBy(() -> new StallConfig(1.5, 3, 3, 2, 60, 5))
                .hasMessageContaining("throughputFraction").hasMessageContaining("1.5");
        assertThatThrownBy(() -> new StallConfig(0.5, 0, 3, 2, 60, 5))
                .hasMessageContaining("throughputMinWindows").hasMessageContaining("0");
        assertThatThrownBy(() -> new StallConfig(0.5, 3, 1.0, 2, 60, 5)).hasMessageContaining("latencyMultiple");
        assertThatThrownBy(() -> new StallConfig(0.5, 3, 3, 2, 10, 11)).hasMessageContaining("minBaselineWindows");
    }

    /**
     * The rules restated in batch: flag each window (the baseline is the median of the last {@code baselineWindows}
     * unflagged windows), then every maximal run of a kind's flagged windows at least as long as its K is a stall.
     */
    static List<Stall> reference(List<WindowPoint> points, StallConfig c) {
        int n = points.size();
        boolean[] hard = new boolean[n];
        boolean[] slow = new boolean[n];
        boolean[] spike = new boolean[n];
        double[] baseQps = new double[n];
        long[] baseP99 = new long[n];
        List<WindowPoint> accepted = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            WindowPoint p = points.get(i);
            List<WindowPoint> recent = accepted.subList(Math.max(0, accepted.size() - c.baselineWindows()),
                    accepted.size());
            boolean ready = recent.size() >= c.minBaselineWindows();
            if (ready) {
                double[] q = recent.stream().mapToDouble(WindowPoint::qps).sorted().toArray();
                baseQps[i] = q.length % 2 == 1 ? q[q.length / 2] : (q[q.length / 2 - 1] + q[q.length / 2]) / 2;
                long[] l = recent.stream().mapToLong(WindowPoint::p99Micros).sorted().toArray();
                baseP99[i] = l[(l.length - 1) / 2];
            }
            hard[i] = p.count() == 0;
            slow[i] = !hard[i] && ready && p.qps() < c.throughputFraction() * baseQps[i];
            spike[i] = !hard[i] && ready && p.p99Micros() > c.latencyMultiple() * baseP99[i];
            if (!hard[i] && !slow[i] && !spike[i]) {
                accepted.add(p);
            }
        }
        List<Stall> out = new ArrayList<>();
        out.addAll(runs(StallEvent.HARD, hard, 1, points, baseQps, baseP99));
        out.addAll(runs(StallEvent.LATENCY, spike, c.latencyMinWindows(), points, baseQps, baseP99));
        out.addAll(runs(StallEvent.THROUGHPUT, slow, c.throughputMinWindows(), points, baseQps, baseP99));
        return out;
    }

    private static List<Stall> runs(String kind, boolean[] flag, int k, List<WindowPoint> points, double[] baseQps,
                                    long[] baseP99) {
        List<Stall> out = new ArrayList<>();
        int i = 0;
        while (i < flag.length) {
            if (!flag[i]) {
                i++;
                continue;
            }
            int j = i;
            while (j < flag.length && flag[j]) {
                j++;
            }
            if (j - i >= k) {
                double min = Double.MAX_VALUE;
                long worst = 0;
                for (int x = i; x < j; x++) {
                    min = Math.min(min, points.get(x).qps());
                    worst = Math.max(worst, points.get(x).p99Micros());
                }
                if (kind.equals(StallEvent.HARD) && j < flag.length) {
                    worst = Math.max(worst, points.get(j).p99Micros());
                }
                out.add(new Stall(kind, points.get(i).startMs(), points.get(j - 1).endMs(), j - i, baseQps[i],
                        baseP99[i], min, worst, false, true));
            }
            i = j;
        }
        return out;
    }

    /** Steady QPS with noise, interrupted by empty windows, throughput drops and latency spikes of random length. */
    private static List<WindowPoint> randomSeries(Random random, int n) {
        List<WindowPoint> points = new ArrayList<>();
        int i = 0;
        while (i < n) {
            int len = 1 + random.nextInt(6);
            int mode = random.nextInt(10);
            for (int k = 0; k < len && i < n; k++, i++) {
                double qps = 1000 + random.nextGaussian() * 50;
                long p99 = 2000 + random.nextInt(400);
                long count = 100;
                switch (mode) {
                    case 0 -> {
                        count = 0;
                        qps = 0;
                        p99 = 0;
                    }
                    case 1 -> qps = qps * (0.1 + random.nextDouble() * 0.6);
                    case 2 -> p99 = p99 * (2 + random.nextInt(6));
                    default -> { }
                }
                points.add(point(i, count, Math.max(0.5, qps), p99));
            }
        }
        return points;
    }

    private static WindowPoint point(int second, long count, double qps, long p99) {
        return new WindowPoint(T0 + second * 1000L, T0 + (second + 1) * 1000L, count, qps, p99);
    }

    @Test
    void median_evenAndOdd() {
        assertThat(StallDetector.median(new double[] {3, 1, 2})).isEqualTo(2.0);
        assertThat(StallDetector.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
        assertThat(StallDetector.median(new long[] {4, 1, 3, 2})).isEqualTo(2);
    }
}
