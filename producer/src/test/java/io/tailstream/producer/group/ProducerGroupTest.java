package io.tailstream.producer.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ProducerGroupTest {

    private static final List<String> THREE = List.of("a", "b", "c");

    @Test
    void splitThreads_sharesSumToTheStepsThreads_theFirstInIdOrderGetTheRest() {
        ProducerGroup g = new ProducerGroup(3, true, null);
        assertThat(THREE.stream().map(p -> g.threadsOf(5, THREE, p))).containsExactly(2, 2, 1);
        assertThat(THREE.stream().map(p -> g.threadsOf(6, THREE, p))).containsExactly(2, 2, 2);
        for (int total = 1; total <= 50; total++) {
            int t = total;
            assertThat(THREE.stream().mapToInt(p -> g.threadsOf(t, THREE, p)).sum()).isEqualTo(total);
        }
        assertThat(IntStream.range(0, 3).map(i -> ProducerGroup.share(100_001, THREE, THREE.get(i))).sum())
                .isEqualTo(100_001);
    }

    @Test
    void eachRunsTheFullCount() {
        ProducerGroup g = new ProducerGroup(3, false, Duration.ofSeconds(30));
        assertThat(THREE.stream().map(p -> g.threadsOf(5, THREE, p))).containsExactly(5, 5, 5);
    }

    @Test
    void fewerThreadsThanProducers_theLastSitTheStepOut_andAreNotAmongItsProducers() {
        ProducerGroup g = new ProducerGroup(3, true, null);
        StepAgreement.Agreed agreed = new StepAgreement.Agreed(1_000, THREE);
        StepCoordinator.Start a = g.start(4, 2, agreed, "a");
        assertThat(a.runs()).isTrue();
        assertThat(a.threads()).isEqualTo(1);
        assertThat(a.participants()).containsExactly("a", "b");
        StepCoordinator.Start c = g.start(4, 2, agreed, "c");
        assertThat(c.runs()).isFalse();
        assertThat(c.reason()).isEqualTo("step 4 has 2 threads for 3 producers: none falls to this one");
    }

    @Test
    void aProducerLeftOut_doesNotRun_andSaysWhoDid() {
        StepCoordinator.Start d = new ProducerGroup(3, true, null)
                .start(1, 6, new StepAgreement.Agreed(1_000, THREE), "d");
        assertThat(d.runs()).isFalse();
        assertThat(d.reason()).isEqualTo("step 1 started without this producer (its producers: a, b, c)");
    }

    @Test
    void bounds() {
        assertThat(new ProducerGroup(2, true, null).joinTimeout()).isEqualTo(ProducerGroup.DEFAULT_JOIN_TIMEOUT);
        assertThatThrownBy(() -> new ProducerGroup(0, true, null)).hasMessage("producers must be in 1..256, was 0");
        assertThatThrownBy(() -> new ProducerGroup(2, true, Duration.ZERO))
                .hasMessage("joinTimeout must be > 0, was PT0S");
    }
}
