package io.tailstream.producer.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.ProducerReady;
import io.tailstream.schemas.event.RunEnded;
import io.tailstream.schemas.event.RunSettings;
import io.tailstream.schemas.event.RunStarted;
import io.tailstream.schemas.event.StepGo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The producers of a shared run decide each step from the control topic's order alone. */
class StepAgreementTest {

    private static ProducerReady ready(String producer, int step, long atMs) {
        return new ProducerReady("run", atMs, producer, step, 3, 6, true, "host-" + producer);
    }

    private static RunStarted started(String producer) {
        return new RunStarted("run", 1, producer, "plan", List.of(), Map.of(), RunSettings.NONE);
    }

    private static StepAgreement read(ControlEvent... events) {
        StepAgreement a = new StepAgreement(3);
        for (ControlEvent e : events) {
            a.accept(e);
        }
        return a;
    }

    @Test
    void allReady_startAfterTheLatestReadinessPlusTheDelay_withEveryProducerSorted() {
        StepAgreement a = read(ready("c", 1, 5_000), ready("a", 1, 9_000));
        assertThat(a.decided(1)).isEmpty();
        assertThat(a.ready(1)).containsExactly("c", "a");
        a.accept(ready("b", 1, 7_000));
        assertThat(a.decided(1)).contains(new StepAgreement.Agreed(9_000 + ProducerReady.START_DELAY_MS,
                List.of("a", "b", "c")));
        assertThat(a.ready(1)).isEmpty();
    }

    @Test
    void theSameReadinessTwice_countsOnce() {
        StepAgreement a = read(ready("a", 1, 1_000), ready("a", 1, 2_000), ready("b", 1, 3_000));
        assertThat(a.decided(1)).isEmpty();
        assertThat(a.ready(1)).containsExactly("a", "b");
    }

    @Test
    void stepGoBeforeTheLastReadiness_decides_andTheLateProducerIsLeftOut() {
        StepAgreement a = read(started("a"), started("b"), started("c"), ready("a", 1, 1_000), ready("b", 1, 2_000));
        StepGo go = a.timeoutGo("run", "b", 1, 400_000);
        assertThat(go.participants()).containsExactly("a", "b");
        assertThat(go.missing()).containsExactly("c");
        assertThat(go.unseen()).isZero();
        assertThat(go.startAtEpochMs()).isEqualTo(400_000 + ProducerReady.START_DELAY_MS);
        a.accept(go);
        a.accept(ready("c", 1, 400_500));
        assertThat(a.decided(1)).contains(new StepAgreement.Agreed(401_000, List.of("a", "b")));
    }

    @Test
    void theFirstDecisionInTheTopicWins() {
        StepAgreement a = read(ready("a", 1, 1_000), ready("b", 1, 2_000), ready("c", 1, 3_000),
                new StepGo("run", 9_000, "a", 1, 10_000, List.of("a"), List.of("b", "c"), 0));
        assertThat(a.decided(1).orElseThrow().participants()).containsExactly("a", "b", "c");
        StepAgreement b = read(ready("a", 1, 1_000),
                new StepGo("run", 9_000, "a", 1, 10_000, List.of("a"), List.of(), 2), ready("b", 1, 2_000),
                ready("c", 1, 3_000));
        assertThat(b.decided(1)).contains(new StepAgreement.Agreed(10_000, List.of("a")));
    }

    @Test
    void aProducerWhoseRunEnded_isNotWaitedFor() {
        StepAgreement a = read(ready("a", 2, 1_000), ready("b", 2, 2_000));
        assertThat(a.decided(2)).isEmpty();
        a.accept(new RunEnded("run", 2_500, "c", 10, 100, "failed: step 1 failed"));
        assertThat(a.decided(2)).contains(new StepAgreement.Agreed(2_000 + ProducerReady.START_DELAY_MS,
                List.of("a", "b")));
        // and from then on, for the next step too
        a.accept(ready("b", 3, 5_000));
        a.accept(ready("a", 3, 6_000));
        assertThat(a.decided(3).orElseThrow().participants()).containsExactly("a", "b");
    }

    @Test
    void timeoutGo_countsExpectedProducersNeverSeen() {
        StepAgreement a = read(started("a"), ready("a", 1, 1_000));
        StepGo go = a.timeoutGo("run", "a", 1, 5_000);
        assertThat(go.participants()).containsExactly("a");
        assertThat(go.missing()).isEmpty();
        assertThat(go.unseen()).isEqualTo(2);
    }

    @Test
    void stepsAreDecidedApart() {
        StepAgreement a = read(ready("a", 1, 1_000), ready("b", 1, 1_000), ready("c", 1, 1_000),
                ready("a", 2, 5_000), ready("b", 2, 5_000));
        assertThat(a.decided(1)).isPresent();
        assertThat(a.decided(2)).isEmpty();
        assertThat(a.ready(2)).containsExactly("a", "b");
    }
}
