package io.tailstream.producer.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class IntervalCountersTest {

    /**
     * A writer adds transactions of exactly 20 statements while a reader takes snapshots: every snapshot must
     * satisfy queries = 20 x transactions, which unsynchronized counters violate within milliseconds.
     */
    @Test
    void snapshots_areConsistentUnderConcurrentWrites() throws InterruptedException {
        IntervalCounters c = new IntervalCounters();
        AtomicBoolean stop = new AtomicBoolean();
        Thread writer = new Thread(() -> {
            long i = 0;
            while (!stop.get()) {
                c.add(i++ % 7 != 0, 20);
            }
        });
        writer.start();
        long snapshots = 0;
        long deadline = System.nanoTime() + 300_000_000L;
        long last = 0;
        while (System.nanoTime() < deadline) {
            long[] t = new long[3];
            c.addTo(t);
            assertThat(t[2]).as("queries vs transactions").isEqualTo(20 * (t[0] + t[1]));
            assertThat(t[0] + t[1]).isGreaterThanOrEqualTo(last);
            last = t[0] + t[1];
            snapshots++;
        }
        stop.set(true);
        writer.join();
        long[] t = new long[3];
        c.addTo(t);
        assertThat(t[2]).isEqualTo(20 * (t[0] + t[1]));
        assertThat(snapshots).isGreaterThan(100);
        assertThat(last).isPositive();
    }
}
