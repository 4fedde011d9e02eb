package io.tailstream.aggregator.step;

import static io.tailstream.aggregator.step.ScopeWindowsFixture.RUN;
import static io.tailstream.aggregator.step.ScopeWindowsFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.schemas.event.RunEnded;
import io.tailstream.schemas.event.RunSettings;
import io.tailstream.schemas.event.RunStarted;
import io.tailstream.schemas.event.StepStarted;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link RunSummaries} and the expiry of a run's state: what makes state, when a run summary goes out, and how long
 * the state is kept.
 */
class RunSummariesTest {

    @Test
    void unknownRun_itsEndOrDeadLetter_makesNoState() {
        assertThat(RunSummaries.control(null, new RunEnded(RUN, T0, "p1", 3, 30, "completed"), T0)).isNull();
        assertThat(RunSummaries.deadLetter(null, RUN, "bad_block", T0)).isNull();
    }

    @Test
    void runEnded_publishes_andEachLaterChangeRepublishes() {
        RunState r = RunSummaries.control(null, new StepStarted(RUN, T0, "p1", 1, null, "oltp_read_only", 8, 1, 0,
                10_000, List.of("read"), 1, Map.of()), T0).run();
        RunSummaries.Change dead = RunSummaries.deadLetter(r, RUN, "bad_block", T0 + 1);
        assertThat(dead.summary()).isNull(); // not ended yet
        r = dead.run();

        RunSummaries.Change ended = RunSummaries.control(r, new RunEnded(RUN, T0 + 2, "p1", 3, 30, "completed"),
                T0 + 2);
        assertThat(ended.run().publishedAtMs()).isEqualTo(T0 + 2);
        assertThat(ended.summary().stepsPending()).containsExactly(1); // its step summary comes after RunEnded
        assertThat(ended.summary().complete()).isFalse();

        RunSummaries.Change late = RunSummaries.deadLetter(ended.run(), RUN, "bad_block", T0 + 3);
        assertThat(late.summary().deadLetters()).containsEntry("bad_block", 2L);
        assertThat(late.summary().atEpochMs()).isEqualTo(T0 + 3);
    }

    @Test
    void expired_graceAfterTheLastRunSummary_orIdleLimitForARunThatNeverEnds() {
        RunState started = RunSummaries.control(null, new RunStarted(RUN, T0, "p1", "plan", List.of(), Map.of(),
                RunSettings.NONE), T0).run();
        long idle = RunState.RUN_IDLE_LIMIT.toMillis();
        assertThat(started.expired(T0 + idle - 1)).isFalse();
        assertThat(started.expired(T0 + idle)).isTrue();

        RunState published = RunSummaries.control(started, new RunEnded(RUN, T0, "p1", 0, 0, "completed"), T0).run();
        long grace = RunState.RUN_GRACE.toMillis();
        assertThat(published.expired(T0 + grace - 1)).isFalse();
        assertThat(published.expired(T0 + grace)).isTrue();
    }
}
