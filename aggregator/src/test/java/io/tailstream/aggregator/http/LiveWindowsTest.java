package io.tailstream.aggregator.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tailstream.schemas.event.StallEvent;
import io.tailstream.schemas.event.WindowStats;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LiveWindowsTest {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    @Test
    void onWindow_lateCorrection_replacesWindowAndCountsErrorsOnce() {
        LiveWindows live = new LiveWindows(registry, 3, 4);
        live.onWindow(window("r", 1, "*", 1000, 100, 2, 300));
        live.onWindow(window("r", 1, "*", 2000, 200, 5, 600));
        live.onWindow(window("r", 1, "*", 1000, 110, 3, 330)); // late correction of the first window
        live.onWindow(window("r", 1, "*", 2000, 200, 5, 600)); // the same record again (a retried transaction)

        assertThat(live.windows("r", 1, "*", 10)).extracting(WindowStats::windowStartEpochMs)
                .containsExactly(2000L, 1000L);
        assertThat(live.windows("r", 1, "*", 10).get(1).count()).isEqualTo(110);
        String text = registry.scrape();
        assertThat(text).contains("tailstream_window_errors_total{op=\"*\",run=\"r\",step=\"1\"} 8.0")
                // the correction of an older window does not change the latest figures
                .contains("tailstream_window_qps{op=\"*\",run=\"r\",step=\"1\"} 600.0")
                .contains("tailstream_window_p99_seconds{op=\"*\",run=\"r\",step=\"1\"} 0.002");
        assertThat(live.runs().get(0).steps().get(0).errorsTotal()).isEqualTo(Map.of("*", 8L));
    }

    @Test
    void onWindow_beyondWindowsKept_dropsTheOldest() {
        LiveWindows live = new LiveWindows(registry, 3, 4);
        for (int i = 0; i < 5; i++) {
            live.onWindow(window("r", 1, "*", i * 1000L, 10, 0, 10));
        }
        assertThat(live.windows("r", 1, "*", 10)).extracting(WindowStats::windowStartEpochMs)
                .containsExactly(4000L, 3000L, 2000L);
        assertThat(live.windows("r", 1, "*", 2)).hasSize(2);
        assertThat(live.windows("r", 2, "*", 2)).isEmpty();
    }

    @Test
    void onStall_openThenEnded_countsOpenStallsByKey() {
        LiveWindows live = new LiveWindows(registry, 3, 4);
        StallEvent open = stall(true, 5000);
        live.onStall(open);
        live.onStall(stall(true, 6000)); // the same stall, updated
        String gauge = "tailstream_stalls_open{op=\"*\",run=\"r\",step=\"1\"} ";
        assertThat(registry.scrape()).contains(gauge + "1.0");
        live.onStall(stall(false, 7000));
        assertThat(registry.scrape()).contains(gauge + "0.0");
        live.onStall(open); // a replayed open record of an ended stall does not reopen it
        assertThat(registry.scrape()).contains(gauge + "0.0");
        LiveWindows.StepView step = live.runs().get(0).steps().get(0);
        assertThat(step.openStalls()).isEmpty();
        assertThat(step.endedStalls()).extracting(StallEvent::endEpochMs).containsExactly(7000L);
    }

    @Test
    void newRun_beyondMaxRuns_dropsTheStalestRunAndItsMeters() {
        LiveWindows live = new LiveWindows(registry, 3, 2);
        live.onWindow(window("old", 1, "*", 1000, 1, 0, 1));
        live.onWindow(window("new", 1, "*", 5000, 1, 0, 1));
        live.onWindow(window("newest", 1, "*", 6000, 1, 0, 1));
        assertThat(live.runs()).extracting(LiveWindows.RunView::run).containsExactly("new", "newest");
        assertThat(registry.scrape()).doesNotContain("run=\"old\"").contains("run=\"newest\"");
    }

    @Test
    void constructor_badBounds_nameTheArgument() {
        assertThatThrownBy(() -> new LiveWindows(registry, 0, 1)).hasMessage("windowsKept must be at least 1, got 0");
        assertThatThrownBy(() -> new LiveWindows(registry, 1, 0)).hasMessage("maxRuns must be at least 1, got 0");
    }

    private static WindowStats window(String run, int step, String op, long startMs, long count, long errors,
                                      long queries) {
        return new WindowStats(run, step, op, startMs, startMs + 1000, count, errors, Map.of(), queries, 0, 0,
                queries, count - errors, 1500, 1000, 1500, 1800, 2000, 2500, 3000, "");
    }

    private static StallEvent stall(boolean open, long endMs) {
        return new StallEvent("r", 1, StallEvent.HARD, 4000, endMs, open, 100, 0, 1000, 0, List.of(), endMs);
    }
}
