package io.tailstream.schemas.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AggregatorEventsJsonTest {

    @Test
    void stallEvent_roundTripsAndDerivesDepthAndDuration() {
        StallEvent e = new StallEvent("r", 2, StallEvent.THROUGHPUT, 10_000, 15_000, false, 1_000, 250, 900, 40_000,
                List.of("read_write"), 16_000);
        assertThat(Json.read(Json.write(e), StallEvent.class)).isEqualTo(e);
        assertThat(e.durationMs()).isEqualTo(5_000);
        assertThat(e.depth()).isCloseTo(0.25, within(1e-12));
        assertThat(e.key()).isEqualTo("r/2/throughput/10000");
    }

    @Test
    void stepSummary_roundTripsAndDerivesStallShare() {
        StepSummary s = new StepSummary("r", 2, WindowStats.ALL_OPS, 0, 60_000, 600_000, 3, Map.of("deadlock", 3L),
                12_000_000, 200_000, 9_999.95, 1_000.5, 500, 900, 1_200, 2_000, 2_500, 9_000, 1, 6_000, -1.5, 0.03,
                false, 0, 0, "HISTO", 61_000);
        assertThat(Json.read(Json.write(s), StepSummary.class)).isEqualTo(s);
        assertThat(s.stallShare()).isCloseTo(0.1, within(1e-12));
        assertThat(s.key()).isEqualTo("r/2/*");
    }
}
