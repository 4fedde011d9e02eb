package io.tailstream.aggregator.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tailstream.analysis.SoakTrend;
import io.tailstream.schemas.event.ClientHealth;
import io.tailstream.schemas.event.ServerCounters;
import io.tailstream.schemas.event.StallEvent;
import io.tailstream.schemas.event.WindowStats;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The live page's timeline of a step ({@link LiveWindows#timeline}): its roll-up points, bounded; the soak figures of
 * its measured base windows, as the report computes them; its stall episodes; its producers' health.
 */
class StepTimelineTest {

    private static final long T0 = 1_764_000_000_000L;

    private final LiveWindows live = new LiveWindows(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));

    @Test
    void rollups_areThePoints_theFinestThatReachesBackToTheStart() {
        for (int i = 0; i < 12; i++) {
            live.onRollup(window(T0 + i * 10_000L, 10_000, 100, 0, 0));
        }
        live.onRollup(window(T0, 60_000, 600, 0, 0));
        live.onRollup(window(T0 + 60_000, 60_000, 600, 0, 0));
        live.onRollup(window(T0, 10_000, 100, 0, 0)); // the same again (a retried transaction): replaces
        live.onRollup(window(T0 + 10_000, 10_000, 7, 0, 7)); // a roll-up late correction: adds
        live.onRollup(op("read", T0 + 20_000, 10_000)); // one op's roll-up: not the step's line
        live.onWindow(op("read", T0 + 21_000, 1_000));

        List<StepTimeline.Point> points = live.timeline("r", 1).points();
        assertThat(points).hasSize(12).extracting(StepTimeline.Point::startMs)
                .startsWith(T0, T0 + 10_000).endsWith(T0 + 110_000);
        assertThat(points.get(0).count()).isEqualTo(100);
        assertThat(points.get(1).count()).isEqualTo(107);
        assertThat(points.get(1).qps()).isCloseTo(10.7, within(1e-9));
        assertThat(live.timeline("r", 2)).isNull();
    }

    @Test
    void beyondTwelveHoursOfTenSecondPoints_theMinutePointsAreShown_andMemoryIsBounded() {
        int tens = StepTimeline.POINTS_KEPT + 360; // 13 hours
        for (int i = 0; i < tens; i++) {
            live.onRollup(window(T0 + i * 10_000L, 10_000, 100, 0, 0));
            if (i % 6 == 5) {
                live.onRollup(window(T0 + (i - 5) * 10_000L, 60_000, 600, 0, 0));
            }
        }
        List<StepTimeline.Point> points = live.timeline("r", 1).points();
        assertThat(points).hasSize(tens / 6);
        assertThat(points.get(0).startMs()).isEqualTo(T0);
        assertThat(points.get(0).endMs() - points.get(0).startMs()).isEqualTo(60_000);
    }

    @Test
    void trend_isTheSoakFiguresOfTheMeasuredWindows_eachOnce() {
        SoakTrend expected = new SoakTrend();
        for (int i = 0; i < 7_200; i++) {
            double qps = 1000 - 10.0 * i / 3600 + (i % 7);
            long start = T0 + i * 1000L;
            WindowStats w = window(start, 1000, 1, 0, 0, qps, i < 60 ? 1 : 0);
            live.onWindow(w);
            if (i < 60) {
                continue; // warm-up
            }
            expected.add(start / 1000.0, qps);
            if (i % 100 == 0) {
                live.onWindow(w); // seen again
                live.onWindow(window(start, 1000, 2, 0, 2, 3.0, 0)); // a late correction
            }
        }
        StepTimeline.Trend t = live.timeline("r", 1).trend();
        assertThat(t.windows()).isEqualTo(7_140);
        assertThat(t.meanQps()).isEqualTo(expected.meanQps());
        assertThat(t.trendPctPerHour()).isEqualTo(expected.trendPctPerHour()).isNegative();
        assertThat(t.jitterPct()).isEqualTo(expected.jitterPct());
        assertThat(t.firstHourQps()).isEqualTo(expected.firstHourQps());
        assertThat(t.lastHourQps()).isEqualTo(expected.lastHourQps());
    }

    @Test
    void stalls_everyEpisodeByStart_openOnesToo_withdrawnOnesNot() {
        for (int i = 0; i < 30; i++) {
            live.onStall(stall(T0 + i * 60_000L, T0 + i * 60_000L + 5_000, false));
        }
        live.onStall(stall(T0 + 40 * 60_000L, T0 + 40 * 60_000L + 3_000, true));
        live.onStall(stall(T0 + 41 * 60_000L, T0 + 41 * 60_000L, false)); // withdrawn
        live.onWindow(window(T0, 1000, 10, 4, 0));
        List<StallEvent> stalls = live.timeline("r", 1).stalls();
        assertThat(stalls).hasSize(31).isSortedAccordingTo(java.util.Comparator.comparingLong(
                StallEvent::startEpochMs));
        assertThat(stalls.get(30).open()).isTrue();
        assertThat(live.timeline("r", 1).errorsTotal()).isEqualTo(4);
        // the runs overview shows the newest 20
        assertThat(live.runs().get(0).steps().get(0).endedStalls()).hasSize(20);
    }

    @Test
    void producers_theLatestHealth_andHowOftenClientBound() {
        live.onControl(health("p2", T0, false));
        live.onControl(health("p1", T0, true));
        live.onControl(health("p1", T0 + 1000, false));
        live.onControl(health("p1", T0 - 1000, true)); // late: counted, not the latest
        List<ProducerGauges.Health> producers = live.producers("r");
        assertThat(producers).extracting(ProducerGauges.Health::producerId).containsExactly("p1", "p2");
        assertThat(producers.get(0).latest().atEpochMs()).isEqualTo(T0 + 1000);
        assertThat(producers.get(0).reports()).isEqualTo(3);
        assertThat(producers.get(0).clientBoundReports()).isEqualTo(2);
        assertThat(live.producers("other")).isEmpty();
    }

    @Test
    void server_theHighestReadingsPer10s_ofTheFirstProducer_asTheReportsLines() {
        // bucket 0: two readings; bucket 1: a failed reading only; bucket 2: a lock wait
        live.onControl(counters("p1", T0 + 1_000, Map.of("Threads_running", 3L, "Innodb_buffer_pool_pages_dirty",
                50L, "Innodb_buffer_pool_pages_total", 1000L, "Com_select", 9L), null));
        live.onControl(counters("p1", T0 + 2_000, Map.of("Threads_running", 5L, "Innodb_buffer_pool_pages_dirty",
                40L, "Innodb_buffer_pool_pages_total", 1000L), null));
        live.onControl(counters("p2", T0 + 3_000, Map.of("Threads_running", 64L), null)); // another producer
        live.onControl(counters("p1", T0 + 11_000, Map.of(), "timeout"));
        live.onControl(counters("p1", T0 + 21_000, Map.of("Threads_running", 9L, "state.Waiting for backup lock",
                8L, "Innodb_row_lock_current_waits", 1L, "Innodb_buffer_pool_pages_dirty", 90L,
                "Innodb_buffer_pool_pages_total", 1000L), null));

        var lines = live.timeline("r", 1).server();
        assertThat(lines.sessions()).extracting(l -> l.label()).containsExactly("running", "waiting on a lock");
        assertThat(lines.sessions().get(0).atMs()).containsExactly(T0, T0 + 10_000, T0 + 20_000);
        assertThat(lines.sessions().get(0).values()).containsExactly(5, Double.NaN, 9);
        assertThat(lines.sessions().get(1).values()).containsExactly(0, Double.NaN, 9);
        assertThat(lines.pressure()).extracting(l -> l.label()).containsExactly("dirty pages %");
        assertThat(lines.pressure().get(0).values()).containsExactly(5.0, Double.NaN, 9.0);
    }

    private static WindowStats window(long startMs, long lengthMs, long count, long errors, long late) {
        return window(startMs, lengthMs, count, errors, late, count * 1000.0 / lengthMs, 0);
    }

    private static WindowStats window(long startMs, long lengthMs, long count, long errors, long late, double qps,
                                      long warmup) {
        return new WindowStats("r", 1, WindowStats.ALL_OPS, startMs, startMs + lengthMs, count, errors, Map.of(),
                count, warmup, late, qps, qps, 1500, 1000, 1500, 1800, 2000, 2500, 3000, "");
    }

    private static WindowStats op(String op, long startMs, long lengthMs) {
        return new WindowStats("r", 1, op, startMs, startMs + lengthMs, 5, 0, Map.of(), 5, 0, 0, 5, 5, 1500, 1000,
                1500, 1800, 2000, 2500, 3000, "");
    }

    private static StallEvent stall(long startMs, long endMs, boolean open) {
        return new StallEvent("r", 1, StallEvent.HARD, startMs, endMs, open, 100, 0, 1000, 0, List.of(), endMs);
    }

    private static ServerCounters counters(String producer, long at, Map<String, Long> gauges, String error) {
        return new ServerCounters("r", at, producer, 1, "db", gauges, Map.of(), 500, error);
    }

    private static ClientHealth health(String producer, long at, boolean bound) {
        return new ClientHealth("r", at, producer, 1, 40, 90, 0, 0, Map.of("db", 0.3), bound);
    }
}
