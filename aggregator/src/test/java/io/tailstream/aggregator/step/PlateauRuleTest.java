package io.tailstream.aggregator.step;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tailstream.producer.driver.Plateau;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The aggregator's plateau against the producer's sweep stop ({@link Plateau}), the rule it must share. */
class PlateauRuleTest {

    @Test
    void begin_isTheKneeBeforeTheDecidingFlatLevels() {
        PlateauRule fivePct = new PlateauRule(5, 1);
        assertThat(fivePct.begin(List.of(100.0, 200.0, 205.0, 207.0))).isEqualTo(1);
        assertThat(fivePct.begin(List.of(100.0, 200.0, 400.0))).isEqualTo(-1);
        // a dip, then a level that does not beat the best by 5 %: began at the best (200), not at the dip
        PlateauRule patient = new PlateauRule(5, 2);
        assertThat(patient.begin(List.of(100.0, 200.0, 150.0, 205.0, 300.0))).isEqualTo(1);
        // one flat level, then a rise resets the count
        assertThat(patient.begin(List.of(100.0, 101.0, 150.0, 151.0, 152.0))).isEqualTo(2);
        assertThat(fivePct.begin(List.of(100.0))).isEqualTo(-1);
        assertThat(fivePct.begin(List.of())).isEqualTo(-1);
    }

    @Test
    void begin_foundExactlyWhenTheProducersSweepWouldStop_onRandomSweeps() {
        Random random = new Random(42);
        for (int i = 0; i < 2_000; i++) {
            double gain = random.nextInt(4) * 5;
            int patience = 1 + random.nextInt(3);
            PlateauRule rule = new PlateauRule(gain, patience);
            Plateau producer = new Plateau(gain, patience);
            List<Double> qps = new ArrayList<>();
            double q = 100;
            int levels = 1 + random.nextInt(8);
            for (int l = 0; l < levels; l++) {
                q *= 0.9 + random.nextDouble() * 0.4;
                qps.add(q);
            }
            // the producer asks after each level (BenchmarkRunner) and stops at the first prefix that reached it
            int stop = -1;
            for (int n = 1; n <= qps.size() && stop < 0; n++) {
                if (producer.reached(qps.subList(0, n))) {
                    stop = n;
                }
            }
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
                assertThat(Plateau.gainPct(qps.get(knee), qps.get(run))).isLessThan(gain);
            }
        }
    }

    @Test
    void fromSettings_readsWhatTheProducerWrites() {
        assertThat(PlateauRule.fromSettings(Map.of("plateau", "minGainPct=7.5, patience=2")))
                .isEqualTo(new PlateauRule(7.5, 2));
        assertThat(PlateauRule.fromSettings(Map.of("plateau", "none"))).isNull();
        assertThat(PlateauRule.fromSettings(Map.of())).isNull();
        assertThat(PlateauRule.fromSettings(null)).isNull();
        assertThat(PlateauRule.fromSettings(Map.of("plateau", "minGainPct=-1.0, patience=1"))).isNull();
    }

    @Test
    void constructor_refusesOutOfRangeValues() {
        assertThatThrownBy(() -> new PlateauRule(-1, 1)).hasMessageContaining("minGainPct");
        assertThatThrownBy(() -> new PlateauRule(5, 0)).hasMessageContaining("patience");
    }
}
