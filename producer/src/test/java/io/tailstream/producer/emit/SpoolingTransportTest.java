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
    static class HeldTransport implements BlockTransport {
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

    /** Holds every control event until the test acknowledges or fails the oldest one. */
    static final class HeldControlTransport extends HeldTransport {
        record Sent(String json, Ack ack) {}

        final List<Sent> sent = new ArrayList<>();
        final List<String> delivered = new ArrayList<>();

        @Override
        public synchronized void sendControlAsync(byte[] key, byte[] json, Ack ack) {
            sent.add(new Sent(new String(json, java.nio.charset.StandardCharsets.UTF_8), ack));
            notifyAll();
        }

        /** Waits for the next send and answers it with {@code error} (null: acknowledged). */
        String answerNext(Exception error) throws InterruptedException {
            Sent s;
            synchronized (this) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (sent.isEmpty()) {
                    assertThat(System.nanoTime()).as("a control event was sent").isLessThan(deadline);
                    wait(10);
                }
                s = sent.remove(0);
                if (error == null) {
                    delivered.add(s.json());
                }
            }
            s.ack().done(error);
            return s.json();
        }

        synchronized int pending() {
            return sent.size();
        }

        /** Waits until at least {@code n} control events are in flight (10 s at most). */
        synchronized void awaitPending(int n) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (sent.size() < n) {
                assertThat(System.nanoTime()).as("%d control events in flight", n).isLessThan(deadline);
                wait(10);
            }
        }
    }

    static byte[] json(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void controlEvents_oneInFlight_restSpooled_retriedOnRetriableErrors_deliveredInOrderExactlyOnce() throws Exception {
        HeldControlTransport inner = new HeldControlTransport();
        SpoolingTransport t = new SpoolingTransport(inner, new SpoolSettings(dir, 1 << 20, 1024, Duration.ofSeconds(10)),
                "p");
        long t0 = System.nanoTime();
        t.sendControl(json("k"), json("e0"));
        for (int i = 1; i <= 4; i++) {
            t.sendControl(json("k"), json("e" + i)); // e0 unacknowledged: each waits CONTROL_WAIT, then is spooled
        }
        assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(4 * ControlSender.CONTROL_WAIT.toNanos());
        assertThat(t.stats().controlEventsSpooled()).isEqualTo(4);
        assertThat(t.controlEventsWaiting()).isEqualTo(5);
        assertThat(dir.resolve("spool-p-control.bin")).isNotEmptyFile();
        inner.awaitPending(1);
        // a transport that sent more than the oldest would also fail the order checks below
        assertThat(inner.pending()).as("only the oldest is in flight").isEqualTo(1);
        // Kafka's delivery timeout: sent again, not failed, not skipped
        assertThat(inner.answerNext(new TimeoutException("delivery timeout"))).isEqualTo("e0");
        for (int i = 0; i <= 4; i++) {
            assertThat(inner.answerNext(null)).isEqualTo("e" + i);
        }
        t.flush();
        assertThat(inner.delivered).containsExactly("e0", "e1", "e2", "e3", "e4");
        assertThat(t.stats().controlEventsSpooled()).isEqualTo(5); // e0 waited too
        assertThat(t.controlEventsWaiting()).isZero();
        // caught up: the next one goes straight to Kafka, not through the spool
        t.sendControl(json("k"), json("e5"));
        assertThat(t.stats().controlEventsSpooled()).isEqualTo(5);
        assertThat(inner.answerNext(null)).isEqualTo("e5");
        t.flush();
        t.close();
        assertThat(dir.resolve("spool-p-control.bin")).doesNotExist();
    }

    @Test
    void controlEvents_spoolLimitReached_stopsTheRunWithTheReason_andEveryLaterSendFails() throws Exception {
        HeldControlTransport inner = new HeldControlTransport();
        SpoolingTransport t = new SpoolingTransport(inner, new SpoolSettings(dir, 2048, 1024, Duration.ofSeconds(2)),
                "p");
        t.sendControl(json("k"), json("first"));
        byte[] big = new byte[900];
        t.sendControl(json("k"), big);
        t.sendControl(json("k"), big);
        assertThatThrownBy(() -> t.sendControl(json("k"), big))
                .isInstanceOf(EmitException.class)
                .hasMessageContaining("reached its limit of 2048 bytes")
                .hasMessageContaining("stopping the run rather than dropping samples");
        assertThatThrownBy(() -> t.sendControl(json("k"), json("later"))).hasMessageContaining("reached its limit");
        assertThatThrownBy(t::flush).hasMessageContaining("reached its limit");
        t.close();
    }

    @Test
    void controlEvent_refusedForGood_failsLaterSendsAndFlush() throws Exception {
        HeldControlTransport inner = new HeldControlTransport();
        SpoolingTransport t = new SpoolingTransport(inner, new SpoolSettings(dir, 1 << 20, 1024, Duration.ofSeconds(2)),
                "p");
        t.sendControl(json("k"), json("e0"));
        // the answer is given on this thread, so the transport has taken it when answerNext returns
        inner.answerNext(new org.apache.kafka.common.errors.RecordTooLargeException("too large"));
        assertThatThrownBy(() -> t.sendControl(json("k"), json("e1")))
                .isInstanceOf(EmitException.class)
                .hasMessageContaining("a control event (2 bytes) could not be delivered to Kafka: too large");
        assertThatThrownBy(t::flush).hasMessageContaining("could not be delivered");
        t.close();
    }
}
