package io.tailstream.aggregator.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tailstream.schemas.event.ClientHealth;
import io.tailstream.schemas.event.StallEvent;
import io.tailstream.schemas.event.StepEnded;
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
    void onStall_withdrawn_leavesNeitherAnOpenNorAnEndedStall() {
        LiveWindows live = new LiveWindows(registry, 3, 4);
        live.onStall(stall(true, 6000));
        StallEvent open = stall(true, 6000);
        live.onStall(new StallEvent(open.runId(), open.stepId(), open.kind(), open.startEpochMs(),
                open.startEpochMs(), false, open.baselineQps(), open.minQps(), open.baselineP99Micros(),
                open.worstP99Micros(), open.affectedOps(), 9000));
        assertThat(registry.scrape()).contains("tailstream_stalls_open{op=\"*\",run=\"r\",step=\"1\"} 0.0");
        LiveWindows.StepView step = live.runs().get(0).steps().get(0);
        assertThat(step.openStalls()).isEmpty();
        assertThat(step.endedStalls()).isEmpty();
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
    void onControl_eachProducerOfARunHasSeriesOfItsOwn_latestHealthAndStepTotals() {
        LiveWindows live = new LiveWindows(registry, 3, 4);
        live.onControl(new ClientHealth("r", 2_000, "p-a", 1, 40.0, 90.0, 3, 7, Map.of("db", 0.25, "db-ro", 1.5),
                true, 35.5, 2.0, 2.5));
        live.onControl(new ClientHealth("r", 1_000, "p-a", 1, 10.0, 20.0, 0, 1, Map.of("db", 9.0), false, 8.0,
                1.0, 1.0)); // older: does not replace the latest
        live.onControl(new ClientHealth("r", 1_500, "p-b", 2, 12.0, 30.0, 0, 0, Map.of("db", 0.5), false));
        live.onControl(new StepEnded("r", 3_000, "p-a", 1, 1_000, 20, 0, "completed", false, 4L, 0L, 0L));
        live.onControl(new StepEnded("r", 4_000, "p-a", 2, 500, 10, 0, "completed", false, 1L, 0L, 0L));
        live.onControl(new StepEnded("r", 4_100, "p-a", 2, 500, 10, 0, "completed", false, 1L, 0L, 0L)); // re-sent
        String text = registry.scrape();
        assertThat(text).contains("tailstream_producer_load_gen_cpu_percent{producer=\"p-a\",run=\"r\"} 35.5")
                .contains("tailstream_producer_process_cpu_percent{producer=\"p-a\",run=\"r\"} 40.0")
                .contains("tailstream_producer_emit_backlog_blocks{producer=\"p-a\",run=\"r\"} 7.0")
                .contains("tailstream_producer_client_bound{producer=\"p-a\",run=\"r\"} 1.0")
                .contains("tailstream_producer_rtt_seconds{producer=\"p-a\",run=\"r\"} 0.0015")
                .contains("tailstream_producer_step{producer=\"p-a\",run=\"r\"} 1.0")
                .contains("tailstream_producer_samples_sent{producer=\"p-a\",run=\"r\"} 1500.0")
                .contains("tailstream_producer_blocks_spooled{producer=\"p-a\",run=\"r\"} 5.0")
                // a version-1 health event: the process's CPU stands for the load generator's
                .contains("tailstream_producer_load_gen_cpu_percent{producer=\"p-b\",run=\"r\"} 12.0")
                .contains("tailstream_producer_client_bound{producer=\"p-b\",run=\"r\"} 0.0")
                .contains("tailstream_producer_samples_sent{producer=\"p-b\",run=\"r\"} 0.0");
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
