package io.tailstream.analysis.change;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The detector against published cases: Apache Otava's tests ({@code tests/analysis_test.py},
 * {@code tests/tigerbeetle_test.py}) with Otava's settings ({@code minSegment = 1}) and MongoDB's
 * signal-processing-algorithms ({@code tests/test_detection.py}, whose permutation test finds the same points), then
 * the segment rule that is tailstream's own.
 */
class ChangePointDetectorTest {

    private static ChangePointSettings otava(int window, double pValue, double magnitude) {
        return ChangePointSettings.otava(window, pValue, magnitude);
    }

    private static int[] indices(List<ChangePoint> cps) {
        return cps.stream().mapToInt(ChangePoint::index).toArray();
    }

    @Test
    void otavaSingleSeries_findsTheHalving() {
        double[] series = {1.02, 0.95, 0.99, 1.00, 1.12, 1.00, 1.01, 0.98, 1.01, 0.96,
                           0.50, 0.51, 0.48, 0.48, 0.55, 0.50, 0.49, 0.51, 0.50, 0.49};
        List<ChangePoint> cps = new ChangePointDetector(otava(10, 0.0001, 0)).detect(series);
        assertThat(indices(cps)).containsExactly(10);
        assertThat(cps.get(0).changePct()).isCloseTo((0.501 / 1.004 - 1) * 100, within(1e-9));
    }

    @Test
    void otavaSequence_findsBothSteps() {
        double[] sequence = {0.3, 2.4, 1.5, -0.9, -0.5, 99.7, 98.3, 99.1, 149.0, 149.7, 149.5, 149.1, 148.8, 150.0};
        assertThat(indices(new ChangePointDetector(otava(50, 0.001, 0)).detect(sequence))).containsExactly(5, 8);
    }

    /**
     * Otava's expected change points of the TigerBeetle series for each p-value and magnitude it publishes. Where the
     * result differs ({@code differences}: {@code -i} a point only Otava keeps, {@code +i} one only tailstream keeps)
     * it is because Otava, after dropping a point, does not retest the point before it, and the greedy merge then
     * drops points in another order. tailstream's result is always the test of the segments as they stand
     * ({@link #assertExact}).
     */
    @ParameterizedTest(name = "p {0}, magnitude {1}")
    @CsvSource(delimiter = ';', value = {
        "0.01; 0.05; 15 71; ",
        "0.05; 0.05; 15 71; ",
        "0.1; 0.05; 10 11 15 71 363; -363",
        "0.2; 0.05; 10 11 15 71; ",
        "0.2; 0; 3 6 7 10 11 13 15 16 28 29 35 37 39 41 44 48 49 56 58 61 65 66 69 71 74 76 82 95 108 117 125 126 129"
                + " 131 136 137 142 148 165 169 187 190 192 197 200 212 220 241 243 246 247 249 250 260 265 266 268 278"
                + " 282 288 305 306 325 330 337 338 340 347 349 363; +234",
        "0.1; 0; 3 6 10 11 15 16 28 29 35 37 39 41 44 48 49 61 71 95 117 131 142 148 165 169 192 206 212 260 265 268"
                + " 278 282 288 305 363; -6 -265 -288 -305 +220",
        "0.01; 0; 15 26 61 71 95 117 131 142 148 165 169 192 212 260; -26",
        "0.001; 0; 15 61 71 95 117 131 142 148 192 212 260; -260",
        "0.0001; 0; 71 95 117 131 142 148 192 212; ",
        "0.00001; 0; 71 95 131 192 212; "})
    void otavaTigerBeetle_matchesPublishedChangePoints(double pValue, double magnitude, String published,
                                                       String differences) throws IOException {
        double[] series = tigerBeetle();
        ChangePointSettings settings = otava(30, pValue, magnitude);
        List<Integer> otava = Arrays.stream(published.split(" ")).map(Integer::valueOf).toList();
        List<Integer> want = new java.util.ArrayList<>(otava);
        for (String d : differences == null ? new String[0] : differences.split(" ")) {
            int point = Integer.parseInt(d.substring(1));
            if (d.startsWith("-")) {
                want.remove(Integer.valueOf(point));
            } else {
                want.add(point);
            }
        }
        want.sort(null);
        List<ChangePoint> cps = new ChangePointDetector(settings).detect(series);
        assertThat(indices(cps)).containsExactly(want.stream().mapToInt(Integer::intValue).toArray());
        assertExact(cps, series, settings);
    }

    /** Every change point's figures are the test of its segments as they are, and pass the settings. */
    private static void assertExact(List<ChangePoint> cps, double[] series, ChangePointSettings settings) {
        for (int i = 0; i < cps.size(); i++) {
            int from = i == 0 ? 0 : cps.get(i - 1).index();
            int to = i + 1 == cps.size() ? series.length : cps.get(i + 1).index();
            ChangePoint cp = cps.get(i);
            assertThat(cp.segments()).isEqualTo(SegmentComparison.of(series, from, cp.index(), to));
            assertThat(cp.pValue()).isLessThan(settings.pValueThreshold(series.length));
            assertThat(cp.segments().magnitude()).isGreaterThan(settings.minMagnitude());
            assertThat(Math.min(cp.segments().pointsBefore(), cp.segments().pointsAfter()))
                    .isGreaterThanOrEqualTo(settings.minSegment());
        }
    }

    @Test
    void mongoDbCases_findTheSamePoints() {
        // one window over the whole series, as MongoDB's E-Divisive; segments of at least 3 (tailstream's default),
        // as a permutation test hardly separates one point
        ChangePointDetector whole = new ChangePointDetector(otava(100, 0.01, 0).withMinSegment(3));
        double[] step = new double[30];
        Arrays.fill(step, 50);
        Arrays.fill(step, 15, 30, 100);
        assertThat(indices(whole.detect(step))).containsExactly(15);
        double[] ahead = step.clone();
        ahead[14] = 74;
        assertThat(indices(whole.detect(ahead))).containsExactly(15);
        double[] behind = step.clone();
        behind[14] = 76;
        assertThat(indices(whole.detect(behind))).containsExactly(14);
        double[] outlier = step.clone();
        outlier[2] = 100;
        assertThat(indices(whole.detect(outlier))).containsExactly(15);
        double[] flat = new double[30];
        Arrays.fill(flat, 50);
        assertThat(whole.detect(flat)).isEmpty();
        // randint(1, 50) x 20, randint(60, 120) x 20, randint(150, 250) x 20
        double[] randomIsh = {41, 18, 23, 3, 32, 11, 40, 13, 29, 48, 47, 35, 18, 21, 6, 2, 23, 3, 4, 7,
            120, 103, 102, 81, 71, 62, 115, 61, 108, 63, 70, 98, 65, 96, 64, 74, 70, 113, 90, 114,
            208, 196, 153, 150, 225, 179, 206, 165, 177, 151, 218, 217, 244, 245, 229, 195, 225, 229, 176, 250};
        // at the defaults; a t-test at 0.01 also splits the last group at 50 (means 181 and 223)
        assertThat(indices(new ChangePointDetector(ChangePointSettings.DEFAULTS).detect(randomIsh)))
                .containsExactly(20, 40);
    }

    @Test
    void mongoDbSanity_aStepAtEveryPositionIsFound() {
        for (int cp = 4; cp < 100; cp++) {
            double[] series = new double[2 * cp];
            Arrays.fill(series, cp, 2 * cp, 1);
            assertThat(indices(new ChangePointDetector(otava(200, 0.01, 0)).detect(series))).as("step at %d", cp)
                    .containsExactly(cp);
        }
    }

    @Test
    void minSegment_anOutlyingLastRunIsNoChange_threeRunsAre() {
        Random random = new Random(7);
        double[] series = new double[40];
        for (int i = 0; i < series.length; i++) {
            series[i] = 1000 + random.nextGaussian() * 10;
        }
        series[39] = 1400;
        ChangePointDetector defaults = new ChangePointDetector(ChangePointSettings.DEFAULTS);
        assertThat(indices(new ChangePointDetector(otava(50, 0.001, 0)).detect(series))).containsExactly(39);
        assertThat(defaults.detect(series)).isEmpty();
        series[38] = 1400;
        assertThat(defaults.detect(series)).isEmpty();
        double[] longer = Arrays.copyOf(series, 41);
        longer[40] = 1400;
        assertThat(indices(defaults.detect(longer))).containsExactly(38);
    }

    @Test
    void changeInterval_holdsTheEstimate_andTheTrueShift() {
        Random random = new Random(11);
        double[] series = new double[60];
        for (int i = 0; i < series.length; i++) {
            series[i] = (i < 30 ? 1000 : 900) + random.nextGaussian() * 20;
        }
        List<ChangePoint> cps = new ChangePointDetector(ChangePointSettings.DEFAULTS).detect(series);
        assertThat(indices(cps)).containsExactly(30);
        var interval = cps.get(0).change(0.95);
        assertThat(interval.lowPct()).isLessThan(interval.estimatePct()).isLessThan(-10 + 3);
        assertThat(interval.highPct()).isGreaterThan(interval.estimatePct()).isGreaterThan(-10 - 3);
        assertThat(interval.lowPct()).isLessThan(-10.0);
        assertThat(interval.highPct()).isGreaterThan(-10.0);
    }

    @Test
    void detect_refusesNonFiniteValues() {
        assertThatThrownBy(() -> new ChangePointDetector(ChangePointSettings.DEFAULTS).detect(
                new double[] {1, Double.NaN, 2}))
                .hasMessage("point 1 of the series is not a finite number: NaN");
        assertThat(new ChangePointDetector(ChangePointSettings.DEFAULTS).detect(new double[] {5})).isEmpty();
        assertThat(new ChangePointDetector(ChangePointSettings.DEFAULTS).detect(new double[0])).isEmpty();
    }

    static double[] tigerBeetle() throws IOException {
        try (InputStream in = ChangePointDetectorTest.class.getResourceAsStream("tigerbeetle-series.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(l -> !l.startsWith("#") && !l.isBlank()).mapToDouble(Double::parseDouble).toArray();
        }
    }
}
