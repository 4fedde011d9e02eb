package io.tailstream.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PlateauTest {

    @Test
    void reached_afterPatienceFlatLevels() {
        Plateau p = new Plateau(5, 1);
        assertThat(p.reached(List.of(100.0))).isFalse();
        assertThat(p.reached(List.of(100.0, 200.0))).isFalse();
        assertThat(p.reached(List.of(100.0, 200.0, 209.9))).isTrue(); // +4.95% < 5%
        assertThat(p.reached(List.of(100.0, 200.0, 210.1))).isFalse(); // +5.05% still rises
        assertThat(p.reached(List.of(100.0, 200.0, 150.0))).isTrue();
        Plateau two = new Plateau(5, 2);
        assertThat(two.reached(List.of(100.0, 200.0, 201.0))).isFalse();
        assertThat(two.reached(List.of(100.0, 200.0, 201.0, 250.0))).isFalse(); // rising again resets
        assertThat(two.reached(List.of(100.0, 200.0, 201.0, 202.0))).isTrue();
        // compared with the best lower level, not the previous one: a dip then a small recovery is still flat
        assertThat(two.reached(List.of(100.0, 200.0, 150.0, 205.0))).isTrue();
    }

    @Test
    void begin_isTheKneeBeforeTheDecidingFlatLevels() {
        Plateau fivePct = new Plateau(5, 1);
        assertThat(fivePct.begin(List.of(100.0, 200.0, 205.0, 207.0))).isEqualTo(1);
        assertThat(fivePct.begin(List.of(100.0, 200.0, 400.0))).isEqualTo(-1);
        // a dip, then a level that does not beat the best by 5 %: began at the best (200), not at the dip
        Plateau patient = new Plateau(5, 2);
        assertThat(patient.begin(List.of(100.0, 200.0, 150.0, 205.0, 300.0))).isEqualTo(1);
        // one flat level, then a rise resets the count
        assertThat(patient.begin(List.of(100.0, 101.0, 150.0, 151.0, 152.0))).isEqualTo(2);
        assertThat(fivePct.begin(List.of(100.0))).isEqualTo(-1);
        assertThat(fivePct.begin(List.of())).isEqualTo(-1);
    }

    /**
     * The producer asks after each level and stops at the first yes; the reference is the sweep-stop rule as the
     * producer first stated it (flat levels counted over the levels so far, reached when the trailing count reaches
     * the patience), and the knee is found by brute force.
     */
    @Test
    void stopAndKnee_matchAReferenceModel_onRandomSweeps() {
        Random random = new Random(42);
        for (int i = 0; i < 2_000; i++) {
            double gain = random.nextInt(4) * 5;
            int patience = 1 + random.nextInt(3);
            Plateau rule = new Plateau(gain, patience);
            List<Double> qps = new ArrayList<>();
            double q = 100;
            int levels = 1 + random.nextInt(8);
            for (int l = 0; l < levels; l++) {
                q *= 0.9 + random.nextDouble() * 0.4;
                qps.add(q);
            }
            int stop = -1;
            int referenceStop = -1;
            for (int n = 1; n <= qps.size(); n++) {
                if (stop < 0 && rule.reached(qps.subList(0, n))) {
                    stop = n;
                }
                if (referenceStop < 0 && trailingFlat(qps.subList(0, n), gain) >= patience) {
                    referenceStop = n;
                }
            }
            assertThat(stop).as("%s, %s", rule, qps).isEqualTo(referenceStop);
            int begin = rule.begin(qps);
            assertThat(begin >= 0).as("%s, %s", rule, qps).isEqualTo(stop >= 0);
            if (begin >= 0) {
                // the deciding flat run is the last `patience` levels of that prefix; the knee is the best level
                // before it (the first on equal QPS), which the run's first level was compared with
                int run = stop - patience;
                int knee = 0;
                for (int l = 1; l < run; l++) {
                    if (qps.get(l) > qps.get(knee)) {
                        knee = l;
                    }
                }
                assertThat(begin).as("%s, %s", rule, qps).isEqualTo(knee);
                assertThat((qps.get(run) / qps.get(knee) - 1) * 100).isLessThan(gain);
            }
        }
    }

    /** Flat levels at the end of {@code qps}: each gains less than {@code gainPct} over the best level before it. */
    private static int trailingFlat(List<Double> qps, double gainPct) {
        int flat = 0;
        double best = qps.get(0);
        for (double x : qps.subList(1, qps.size())) {
            flat = x < best * (1 + gainPct / 100.0) ? flat + 1 : 0;
            best = Math.max(best, x);
        }
        return flat;
    }

    @Test
    void constructor_refusesOutOfRangeValues_ifValid_readsThemAsAbsent() {
        assertThatThrownBy(() -> new Plateau(-1, 1)).hasMessage("plateau minGainPct must be in 0..100000, was -1.0");
        assertThatThrownBy(() -> new Plateau(Double.NaN, 1)).hasMessageContaining("minGainPct");
        assertThatThrownBy(() -> new Plateau(5, 0)).hasMessage("plateau patience must be in 1..100, was 0");
        assertThatThrownBy(() -> new Plateau(5, 101)).hasMessageContaining("patience");
        assertThat(Plateau.ifValid(-1, 1)).isNull();
        assertThat(Plateau.ifValid(5, 0)).isNull();
        assertThat(Plateau.ifValid(7.5, 2)).isEqualTo(new Plateau(7.5, 2));
        assertThat(Plateau.DEFAULT).isEqualTo(new Plateau(5, 1));
    }
}
