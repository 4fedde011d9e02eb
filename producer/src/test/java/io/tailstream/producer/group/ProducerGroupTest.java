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
    void workers_numberedOverTheProducers_asOneProducerWithEveryThreadNumbersThem() {
        for (boolean split : new boolean[] {true, false}) {
            ProducerGroup g = new ProducerGroup(3, split, null);
            for (int threads = 1; threads <= 20; threads++) {
                List<String> running = split && threads < 3 ? THREE.subList(0, threads) : THREE;
                java.util.BitSet seen = new java.util.BitSet();
                int all = -1;
                for (String p : running) {
                    ProducerGroup.Workers w = ProducerGroup.workers(threads, running, p, split);
                    int mine = g.threadsOf(threads, running, p);
                    assertThat(seen.get(w.first(), w.first() + mine).isEmpty()).as("no worker twice").isTrue();
                    seen.set(w.first(), w.first() + mine);
                    all = w.all();
                }
                assertThat(all).isEqualTo(split ? threads : 3 * threads);
                assertThat(seen.cardinality()).isEqualTo(all);
                assertThat(seen.nextClearBit(0)).isEqualTo(all);
            }
        }
        assertThat(ProducerGroup.workers(8, THREE, "b", true)).isEqualTo(new ProducerGroup.Workers(3, 8));
        assertThat(ProducerGroup.workers(8, THREE, "c", false)).isEqualTo(new ProducerGroup.Workers(16, 24));
        assertThatThrownBy(() -> ProducerGroup.workers(8, THREE, "d", true))
                .isInstanceOf(IllegalArgumentException.class);
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
