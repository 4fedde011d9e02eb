package io.tailstream.aggregator.step;

import static io.tailstream.aggregator.step.ScopeWindowsFixture.RUN;
import static io.tailstream.aggregator.step.ScopeWindowsFixture.STEP;
import static io.tailstream.aggregator.step.ScopeWindowsFixture.T0;
import static io.tailstream.aggregator.step.ScopeWindowsFixture.scope;
import static io.tailstream.aggregator.step.ScopeWindowsFixture.window;
import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.aggregator.stall.StallConfig;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.StepSummary;
import io.tailstream.schemas.event.WindowStats;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link StepSummaries}: a scope's summary waits for the step to be complete or for the wait to pass, and is
 * published again only when its figures change.
 */
class StepSummariesTest {

    private static final long ENDED_AT_MS = T0 + 20_000;
    private static final long WAIT_MS = 30_000;

    private final StallSeries series = new StallSeries(StallConfig.defaults());
    private final ScopeWindows scopeWindows = new ScopeWindows(new Rollups(List.of()), series);
    private final StepSummaries summaries = new StepSummaries(series, Duration.ofMillis(WAIT_MS));

    @Test
    void publish_producerWithoutItsEnd_waitsUntilWaitedOut_thenIsIncompleteNamingIt() {
        StepMeta meta = started("p1").withStarted(stepStarted("p2")).withStepEnded(stepEnded("p1", 10))
                .withBlocks(10).withEnd(WindowStats.ALL_OPS, ENDED_AT_MS);
        ScopeState s = tenSeconds();

        assertThat(summaries.waitedOut(meta, ENDED_AT_MS + WAIT_MS - 1)).isFalse();
        assertThat(summaries.publish(s, meta, false, ENDED_AT_MS + WAIT_MS - 1)).isNull();

        assertThat(summaries.waitedOut(meta, ENDED_AT_MS + WAIT_MS)).isTrue();
        StepSummary summary = summaries.publish(s, meta, true, ENDED_AT_MS + WAIT_MS).summary();
        assertThat(summary.complete()).isFalse();
        assertThat(summary.missingProducers()).containsExactly("p2");
        assertThat(summary.missingBlocks()).isEqualTo(-1); // unknown while a producer's end is missing
    }

    @Test
    void publish_completeStep_exactOverTheWindows_thenAgainOnlyWhenTheFiguresChange() {
        StepMeta meta = started("p1").withStepEnded(stepEnded("p1", 10)).withBlocks(10)
                .withEnd(WindowStats.ALL_OPS, ENDED_AT_MS);

        StepSummaries.Publication first = summaries.publish(tenSeconds(), meta, false, ENDED_AT_MS);
        assertThat(first.summary()).satisfies(summary -> {
            assertThat(summary.complete()).isTrue();
            assertThat(summary.count()).isEqualTo(1000);
            assertThat(summary.spanSource()).isEqualTo(StepSummary.SPAN_WINDOWS);
            assertThat(summary.qps()).isEqualTo(100.0);
            assertThat(summary.missingBlocks()).isZero();
        });
        assertThat(first.scope().finalized()).isTrue();

        StepSummaries.Publication same = summaries.publish(first.scope(), meta, false, ENDED_AT_MS + 5000);
        assertThat(same.summary()).isNull(); // only the emission time would differ

        ScopeState corrected = scopeWindows.apply(same.scope(), window("*", 4, 3, 700, 0, 3), true, -1).scope();
        StepSummary again = summaries.publish(corrected, meta, false, ENDED_AT_MS + 6000).summary();
        assertThat(again.count()).isEqualTo(1003);
        assertThat(again.lateCount()).isEqualTo(3);
    }

    /** Seconds 0 to 9, 100 samples each, through to the scope's end. */
    private ScopeState tenSeconds() {
        ScopeState s = scope(WindowStats.ALL_OPS);
        for (int second = 0; second < 10; second++) {
            s = scopeWindows.apply(s, window(WindowStats.ALL_OPS, second, 100, 1000), false, -1).scope();
        }
        return s.endedNow();
    }

    private static StepMeta started(String producerId) {
        return StepMeta.start(RUN, STEP).withStarted(stepStarted(producerId));
    }

    private static StepStarted stepStarted(String producerId) {
        return new StepStarted(RUN, T0, producerId, STEP, null, "oltp_read_only", 4, 1, 0, 10_000, List.of("read"), 1,
                Map.of());
    }

    private static StepEnded stepEnded(String producerId, long blocksSent) {
        return new StepEnded(RUN, ENDED_AT_MS, producerId, STEP, 1000, blocksSent, 0, StepEnded.COMPLETED);
    }
}
