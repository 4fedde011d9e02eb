package io.tailstream.producer.emit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The spool's ordering, bounds and accounting against a transport whose acknowledgements the test controls. */
class SpoolingTransportTest {

    @TempDir
    Path dir;

    /** Holds every block until the test acknowledges or fails it. */
    static final class HeldTransport implements BlockTransport {
        record Held(byte[] block, Ack ack) {}

        final List<Held> held = new ArrayList<>();
        final List<Byte> delivered = new ArrayList<>();

        @Override
        public int samplePartitions() {
            return 1;
        }

        @Override
        public synchronized void sendBlock(Integer partition, byte[] key, byte[] block, Ack ack) {
            held.add(new Held(block, ack));
        }

        synchronized int heldCount() {
            return held.size();
        }

        /** Acknowledges (or fails) every held block, in the order sent. */
        void release(Exception error) {
            List<Held> now;
            synchronized (this) {
                now = new ArrayList<>(held);
                held.clear();
                if (error == null) {
                    now.forEach(h -> delivered.add(h.block()[0]));
                }
            }
            now.forEach(h -> h.ack().done(error));
        }

        @Override
        public void sendControl(byte[] key, byte[] json) {}

        @Override
        public void flush() {}

        @Override
        public void close() {}
    }

    static byte[] block(int i) {
        byte[] b = new byte[100];
        b[0] = (byte) i;
        return b;
    }

    @Test
    void overflowIsSpooled_replayedInOrder_eachAckExactlyOnce_memoryBoundedByInflight() throws Exception {
        HeldTransport inner = new HeldTransport();
        SpoolingTransport t = new SpoolingTransport(inner, new SpoolSettings(dir, 1 << 20, 1024, Duration.ofSeconds(10)),
                "p");
        int[] acks = new int[100];
        for (int i = 0; i < 100; i++) {
            int n = i;
            t.sendBlock(null, new byte[] {1}, block(i), e -> {
                assertThat(e).isNull();
                acks[n]++;
            });
        }
        // 1024 bytes in flight at most: 10 blocks went to Kafka, 90 to the spool
        assertThat(inner.heldCount()).isEqualTo(10);
        assertThat(t.spooledBlocks()).isEqualTo(90);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (inner.delivered.size() < 100 && System.nanoTime() < deadline) {
            inner.release(null);
            Thread.sleep(5);
            assertThat(inner.heldCount() * 100).isLessThanOrEqualTo(1024);
        }
        t.flush();
        assertThat(inner.delivered).hasSize(100);
        for (int i = 0; i < 100; i++) {
            assertThat(inner.delivered.get(i)).isEqualTo((byte) i);
            assertThat(acks[i]).as("ack %d", i).isEqualTo(1);
        }
        assertThat(t.stats().blocksSpooled()).isEqualTo(90);
        // caught up: the next block goes straight to Kafka
        t.sendBlock(null, new byte[] {1}, block(100), e -> {});
        assertThat(inner.heldCount()).isEqualTo(1);
        t.close();
    }

    @Test
    void retriableFailure_isSpooledAgain_notFailed() throws Exception {
        HeldTransport inner = new HeldTransport();
        SpoolingTransport t = new SpoolingTransport(inner, new SpoolSettings(dir, 1 << 20, 1 << 20,
                Duration.ofSeconds(10)), "p");
        List<Exception> results = new ArrayList<>();
        t.sendBlock(null, new byte[] {1}, block(7), e -> results.add(e));
        inner.release(new TimeoutException("delivery timeout"));
        assertThat(results).isEmpty();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (inner.heldCount() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        inner.release(null);
        t.flush();
        assertThat(results).hasSize(1).containsOnlyNulls();
        assertThat(inner.delivered).containsExactly((byte) 7);
        t.close();
    }

    @Test
    void spoolLimit_stopsWithAClearMessage() {
        HeldTransport inner = new HeldTransport();
        SpoolingTransport t = new SpoolingTransport(inner, new SpoolSettings(dir, 2048, 1024, Duration.ofSeconds(1)),
                "p");
        assertThatThrownBy(() -> {
            for (int i = 0; i < 1000; i++) {
                t.sendBlock(null, new byte[] {1}, block(i), e -> {});
            }
        }).isInstanceOf(EmitException.class)
                .hasMessageContaining("reached its limit of 2048 bytes")
                .hasMessageContaining("stopping the run rather than dropping samples");
        assertThatThrownBy(t::flush).hasMessageContaining("did not drain within 1 s");
        t.close();
    }
}
