package io.tailstream.aggregator.step;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.analysis.Plateau;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RunSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The plan's plateau rule as stage 3 takes it from {@code RunStarted.settings}, either version. */
class PlanPlateauTest {

    @Test
    void planPlateau_fromTypedOrVersion1Settings_noneOrOutOfRangeIsNoPlan() {
        assertThat(RunSummaryCalculator.planPlateau(Json.read(
                "{\"version\":2,\"plateau\":{\"minGainPct\":7.5,\"patience\":2}}", RunSettings.class)))
                .isEqualTo(new Plateau(7.5, 2));
        assertThat(RunSummaryCalculator.planPlateau(RunSettings.fromVersion1(
                Map.of("plateau", "minGainPct=7.5, patience=2")))).isEqualTo(new Plateau(7.5, 2));
        assertThat(RunSummaryCalculator.planPlateau(RunSettings.fromVersion1(Map.of("plateau", "none")))).isNull();
        assertThat(RunSummaryCalculator.planPlateau(RunSettings.NONE)).isNull();
        assertThat(RunSummaryCalculator.planPlateau(RunSettings.fromVersion1(
                Map.of("plateau", "minGainPct=-1.0, patience=1")))).isNull();
        assertThat(RunSummaryCalculator.planPlateau(Json.read(
                "{\"version\":2,\"plateau\":{\"minGainPct\":5,\"patience\":0}}", RunSettings.class))).isNull();
    }
}
