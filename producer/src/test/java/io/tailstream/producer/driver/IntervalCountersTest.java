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
        // at least 300 ms of snapshots, and on until the writer was seen (a busy machine may hold it back)
        long start = System.nanoTime();
        long last = 0;
        while (System.nanoTime() - start < 300_000_000L || last == 0 || snapshots <= 100) {
            assertThat(System.nanoTime() - start).as("the writer counted within 60 s").isLessThan(60_000_000_000L);
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
