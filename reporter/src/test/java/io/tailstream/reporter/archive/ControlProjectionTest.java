package io.tailstream.reporter.archive;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.reporter.archive.ArchiveRows.StepRow;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ControlProjectionTest {

    private static StepStarted started(String producer, int threads) {
        return new StepStarted("run", 1_000, producer, 1, null, "oltp_read_write", threads, 1, 1_000, 30_000,
                List.of("oltp_read_write"), 20, Map.of());
    }

    private static StepEnded ended(String producer, long samples, long blocks) {
        return new StepEnded("run", 40_000, producer, 1, samples, blocks, 0, StepEnded.COMPLETED);
    }

    /** Two producers of one step, 2 threads each (30 s and 40 s): the step ran 4 threads, not the first one's 2. */
    @Test
    void steps_severalProducers_threadsAreTheirSum_eachProducersThreadsKept() {
        List<ControlEvent> events = List.of(started("gen-a", 2), started("gen-b", 2), ended("gen-a", 12_000, 40),
                ended("gen-b", 14_996, 52));
        StepRow row = ControlProjection.steps(events).get(0);
        assertThat(row.threads()).isEqualTo(4);
        assertThat(row.producers()).isEqualTo(2);
        assertThat(row.samplesSent()).isEqualTo(26_996);
        assertThat(row.producerThreads()).isEqualTo("{\"gen-a\":2,\"gen-b\":2}");
    }

    /** A producer's {@code step_started} re-sent (a lost acknowledgement) counts once; different counts add up. */
    @Test
    void steps_repeatedStepStarted_countsOnce_unevenThreadsAddUp() {
        List<ControlEvent> events = List.of(started("gen-a", 1), started("gen-b", 3), started("gen-a", 1));
        StepRow row = ControlProjection.steps(events).get(0);
        assertThat(row.threads()).isEqualTo(4);
        assertThat(row.producerThreads()).isEqualTo("{\"gen-a\":1,\"gen-b\":3}");
    }
}
