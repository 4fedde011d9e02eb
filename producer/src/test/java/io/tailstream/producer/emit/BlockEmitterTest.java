package io.tailstream.producer.emit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tailstream.producer.time.ManualClock;
import io.tailstream.schemas.block.BlockHeader;
import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleBlockDecoder;
import io.tailstream.schemas.block.SampleStatus;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The emitter's block logic, driven step by step with a manual clock and an in-memory transport. */
class BlockEmitterTest {

    static final long T0_MICROS = 1_700_000_000_000_000L;
    final ManualClock clock = new ManualClock(1_000_000_000L, T0_MICROS);
    final ListTransport transport = new ListTransport(3);
    final EmitterSettings settings = new EmitterSettings(4, Duration.ofMillis(150), Duration.ofMillis(25),
            Duration.ofMillis(200), 8, Duration.ofSeconds(5));
    final BlockEmitter emitter = new BlockEmitter("run-1", "p1", transport, clock, settings);

    static void write(SampleWriter w, long start, int latency) {
        w.write(start, latency, start, 0, SampleStatus.OK, 20, false);
    }

    List<BlockHeader> headers() {
        return transport.blocks().stream().map(s -> SampleBlockDecoder.readHeader(s.block())).toList();
    }

    @Test
    void beginStep_sendsHeartbeatAtOnce_andEvery200ms() {
        emitter.beginStep(7, List.of("oltp_read_write"), false);
        emitter.runOnce();
        clock.advanceMillis(199);
        emitter.runOnce();
        clock.advanceMillis(1);
        emitter.runOnce();
        List<BlockHeader> h = headers();
        assertThat(h).hasSize(2).allMatch(BlockHeader::heartbeat);
        assertThat(h).extracting(BlockHeader::blockSeq).containsExactly(0L, 1L);
        assertThat(h.get(1).sealedAtEpochMicros()).isEqualTo(T0_MICROS + 200_000);
        assertThat(h.get(0).ops()).containsExactly("oltp_read_write");
        assertThat(transport.blocks()).allMatch(s -> s.partition() == null);
    }

    @Test
    void fullBlock_isSentWithItsSamples_andAgedBlockIsTakenFromIdleWorker() {
        StepEmission step = emitter.beginStep(1, List.of("op"), false);
        emitter.runOnce(); // heartbeat seq 0
        SampleWriter w = step.writer();
        for (int i = 0; i < 5; i++) {
            write(w, T0_MICROS + i, 10 + i);
        }
        emitter.runOnce(); // the full block of 4
        assertThat(headers()).hasSize(2);
        BlockHeader full = headers().get(1);
        assertThat(full.sampleCount()).isEqualTo(4);
        assertThat(full.blockSeq()).isEqualTo(1);
        assertThat(full.stepId()).isEqualTo(1);
        // the fifth sample waits in the worker's block until a sweep (every 25 ms) finds it 150 ms old
        clock.advanceMillis(149);
        emitter.runOnce();
        assertThat(headers()).hasSize(2);
        clock.advanceMillis(24);
        emitter.runOnce();
        assertThat(headers()).as("no sweep within 25 ms of the last").hasSize(2);
        clock.advanceMillis(1);
        emitter.runOnce();
        List<BlockHeader> h = headers();
        assertThat(h).hasSize(3);
        assertThat(h.get(2).sampleCount()).isEqualTo(1);
        List<Sample> aged = SampleBlockDecoder.samples(transport.blocks().get(2).block());
        assertThat(aged).containsExactly(new Sample(T0_MICROS + 4, 14, T0_MICROS + 4, 0, SampleStatus.OK, 20, false));
        assertThat(new String(transport.blocks().get(2).key(), java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo("run-1/p1");
    }

    @Test
    void busyWorker_handsItsBlockOver_whenASampleEndsMaxBlockAgeAfterTheFirst_withoutASweep() {
        StepEmission step = emitter.beginStep(1, List.of("op"), false);
        emitter.runOnce(); // heartbeat seq 0
        SampleWriter w = step.writer();
        write(w, T0_MICROS, 10); // ends at +10 µs: due when a sample ends at +150,010 µs
        write(w, T0_MICROS + 149_000, 1_009);
        emitter.runOnce();
        assertThat(headers()).as("not yet due").hasSize(1);
        write(w, T0_MICROS + 149_500, 510);
        emitter.runOnce(); // no sweep: the clock has not moved
        assertThat(headers()).hasSize(2);
        assertThat(SampleBlockDecoder.samples(transport.blocks().get(1).block()))
                .extracting(Sample::startEpochMicros).containsExactly(T0_MICROS, T0_MICROS + 149_000, T0_MICROS + 149_500);
    }

    @Test
    void idleWorker_keepsItsBlock_whileTheEmitterSendsWhatItHolds_andEverySampleGoesOnce() {
        StepEmission step = emitter.beginStep(1, List.of("op"), false);
        emitter.runOnce(); // heartbeat seq 0
        SampleWriter w = step.writer();
        write(w, T0_MICROS, 10);
        write(w, T0_MICROS + 5, 10);
        for (int sweep = 0; sweep < 6; sweep++) { // sweeps at 25 ... 150 ms: idle since 25, waited 150 ms at 150
            clock.advanceMillis(25);
            emitter.runOnce();
        }
        assertThat(headers()).hasSize(2);
        assertThat(headers().get(1).sampleCount()).isEqualTo(2);
        // the worker goes on in the same block: the next sweep sees it busy, and its samples wait again
        write(w, T0_MICROS + 7, 10);
        clock.advanceMillis(25);
        emitter.runOnce();
        assertThat(headers()).as("busy since the last sweep").hasSize(2);
        write(w, T0_MICROS + 9, 10); // the fourth sample fills the block of 4: the rest goes as its own block
        emitter.runOnce();
        List<BlockHeader> h = headers();
        assertThat(h).extracting(BlockHeader::blockSeq).containsExactly(0L, 1L, 2L);
        assertThat(h.get(2).sampleCount()).isEqualTo(2);
        assertThat(SampleBlockDecoder.samples(transport.blocks().get(2).block()))
                .extracting(Sample::startEpochMicros).containsExactly(T0_MICROS + 7, T0_MICROS + 9);
        write(w, T0_MICROS + 11, 10);
        w.flush();
        emitter.runOnce();
        assertThat(headers()).hasSize(4);
        assertThat(headers().stream().mapToInt(BlockHeader::sampleCount).sum()).isEqualTo(5);
    }

    @Test
    void blockTakenWhollyByTheEmitter_thenHandedOver_sendsNothingTwice() throws Exception {
        BlockEmitter.Step step = emitter.beginStep(1, List.of("op"), false);
        emitter.runOnce(); // heartbeat seq 0
        SampleWriter w = step.writer();
        write(w, T0_MICROS, 10);
        emitter.requestEnd(step);
        emitter.runOnce(); // the step's end takes the worker's sample at once; then 3 end markers
        w.flush(); // the worker stops afterwards: its block holds nothing unsent
        emitter.runOnce();
        List<BlockHeader> h = headers();
        assertThat(h).extracting(BlockHeader::blockSeq).containsExactly(0L, 1L, 2L, 3L, 4L);
        assertThat(h.get(1).sampleCount()).isEqualTo(1);
        assertThat(step.counts().samplesSent()).isEqualTo(1);
    }

    /**
     * Workers on their own threads write while the emitter, on this one, takes their samples whenever they pause
     * (1 ms age, 1 ms sweeps, real clock): each sample arrives exactly once and in its worker's order, sequences have
     * no gaps, and the counts agree. Fails if a sample taken by the emitter is also sent with the handed-over block, or
     * one is lost between the two.
     */
    @Test
    void concurrentWorkersAndSweeps_everySampleExactlyOnce_inOrder() throws Exception {
        ListTransport sink = new ListTransport(1);
        BlockEmitter busy = new BlockEmitter("run-1", "p1", sink, io.tailstream.producer.time.Clock.system(),
                new EmitterSettings(256, Duration.ofMillis(1), Duration.ofMillis(1), Duration.ofMillis(200), 64,
                        Duration.ofSeconds(30)));
        BlockEmitter.Step step = busy.beginStep(1, List.of("w0", "w1"), false);
        int perWorker = 200_000;
        List<Thread> workers = new java.util.ArrayList<>();
        for (int k = 0; k < 2; k++) {
            int op = k;
            SampleWriter w = step.writer();
            workers.add(new Thread(() -> {
                for (int i = 0; i < perWorker; i++) {
                    w.write(T0_MICROS + i, 1, T0_MICROS + i, op, SampleStatus.OK, i % 7, false);
                    if (i % 1_000 == 0) {
                        java.util.concurrent.locks.LockSupport.parkNanos(2_000_000); // idle: the sweep takes
                    }
                }
                w.flush();
            }));
        }
        workers.forEach(Thread::start);
        while (workers.stream().anyMatch(Thread::isAlive)) {
            busy.runOnce();
        }
        CompletableFuture<Void> done = busy.requestEnd(step);
        busy.runOnce();
        assertThat(done).isCompleted();
        long[] next = new long[2];
        long seq = 0;
        int partial = 0;
        for (ListTransport.Sent sent : sink.blocks()) {
            BlockHeader h = SampleBlockDecoder.readHeader(sent.block());
            assertThat(h.blockSeq()).isEqualTo(seq++);
            if (h.sampleCount() > 0 && h.sampleCount() < 256) {
                partial++;
            }
            for (Sample s : SampleBlockDecoder.samples(sent.block())) {
                int op = s.opIndex();
                assertThat(s.startEpochMicros()).as("worker %d's next sample", op).isEqualTo(T0_MICROS + next[op]);
                assertThat(s.queries()).isEqualTo((int) (next[op] % 7));
                next[op]++;
            }
        }
        assertThat(next).containsExactly(perWorker, perWorker);
        assertThat(partial).as("blocks taken from pausing workers").isGreaterThan(10);
        assertThat(step.counts().samplesSent()).isEqualTo(2L * perWorker);
    }

    @Test
    void endOfStep_flushesThenMarksEveryPartition_andCountsEverything() throws Exception {
        BlockEmitter.Step step = emitter.beginStep(2, List.of("op"), false);
        SampleWriter a = step.writer();
        SampleWriter b = step.writer();
        for (int i = 0; i < 6; i++) {
            write(a, T0_MICROS + i, 5);
        }
        write(b, T0_MICROS, 5);
        a.flush();
        b.flush();
        CompletableFuture<Void> done = emitter.requestEnd(step);
        emitter.runOnce();
        assertThat(done).isCompleted();
        List<BlockHeader> h = headers();
        // heartbeat, 3 data blocks (4 + 2 + 1 samples), 3 end markers
        assertThat(h).extracting(BlockHeader::blockSeq).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L);
        assertThat(h.stream().mapToInt(BlockHeader::sampleCount).sum()).isEqualTo(7);
        List<ListTransport.Sent> markers = transport.blocks().subList(4, 7);
        assertThat(markers).extracting(ListTransport.Sent::partition).containsExactly(0, 1, 2);
        assertThat(h.subList(4, 7)).allMatch(BlockHeader::endOfStep);
        assertThat(step.counts()).isEqualTo(new StepEmission.StepCounts(7, 7, 0));
        assertThat(emitter.blocksSent()).isEqualTo(7);
        assertThat(emitter.samplesAcked()).isEqualTo(7);
        // an ended step gets no more heartbeats
        clock.advanceMillis(1000);
        emitter.runOnce();
        assertThat(headers()).hasSize(7);
    }

    @Test
    void allBuffersTaken_workerWaitsForASpare_andTheWaitIsCounted() throws Exception {
        // 8 buffers of 4 samples: the ninth block must wait for the emitter to free one
        BlockEmitter.Step step = emitter.beginStep(3, List.of("op"), false);
        SampleWriter w = step.writer();
        for (int i = 0; i < 32; i++) {
            write(w, T0_MICROS + i, 1);
        }
        Thread worker = new Thread(() -> write(w, T0_MICROS + 32, 1));
        worker.start();
        worker.join(200);
        assertThat(worker.isAlive()).as("worker waits while every buffer is queued").isTrue();
        clock.advanceMillis(3);
        emitter.runOnce();
        worker.join(5_000);
        assertThat(worker.isAlive()).isFalse();
        w.flush();
        emitter.requestEnd(step);
        emitter.runOnce();
        assertThat(step.counts().samplesSent()).isEqualTo(33);
        assertThat(step.counts().backpressureNanos()).isEqualTo(3_000_000L);
    }

    @Test
    void idleEmitter_sleepsUntilTheNextSweepOrHeartbeat() {
        assertThat(emitter.nanosUntilDue()).as("no step: the next sweep").isEqualTo(25_000_000L);
        emitter.beginStep(5, List.of("op"), false);
        assertThat(emitter.nanosUntilDue()).as("a new step's first heartbeat is due at once").isZero();
        emitter.runOnce();
        clock.advanceMillis(10);
        assertThat(emitter.nanosUntilDue()).isEqualTo(15_000_000L);
        clock.advanceMillis(15);
        emitter.runOnce(); // sweeps
        assertThat(emitter.nanosUntilDue()).isEqualTo(25_000_000L);
        clock.advanceMillis(180);
        assertThat(emitter.nanosUntilDue()).as("overdue sweep").isZero();
        emitter.runOnce(); // sweeps, and sends the heartbeat due at 200 ms: the next at 405
        assertThat(emitter.nanosUntilDue()).isEqualTo(25_000_000L);
        // sweeping less often than heartbeats: the heartbeat sets the sleep
        BlockEmitter rare = new BlockEmitter("run-1", "p1", transport, clock, new EmitterSettings(4,
                Duration.ofMillis(150), Duration.ofSeconds(1), Duration.ofMillis(200), 8, Duration.ofSeconds(5)));
        rare.beginStep(1, List.of("op"), false);
        rare.runOnce();
        clock.advanceMillis(50);
        assertThat(rare.nanosUntilDue()).isEqualTo(150_000_000L);
    }

    @Test
    void stepEnd_andWorkerWaitingForABuffer_wakeTheEmitter() throws Exception {
        java.util.concurrent.atomic.AtomicInteger wakeUps = new java.util.concurrent.atomic.AtomicInteger();
        emitter.onWakeUp(wakeUps::incrementAndGet);
        BlockEmitter.Step step = emitter.beginStep(6, List.of("op"), false);
        SampleWriter w = step.writer();
        for (int i = 0; i < 32; i++) {
            write(w, T0_MICROS + i, 1);
        }
        assertThat(wakeUps).as("handing over full blocks does not wake it").hasValue(0);
        Thread worker = new Thread(() -> write(w, T0_MICROS + 32, 1));
        worker.start();
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (wakeUps.get() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(wakeUps).as("a worker waiting for a spare").hasValue(1);
        emitter.runOnce();
        worker.join(5_000);
        w.flush();
        emitter.requestEnd(step);
        assertThat(wakeUps).as("a step's end").hasValue(2);
    }

    @Test
    void failedDelivery_isReported_notSwallowed() {
        transport.failWith = new RuntimeException("broker down");
        BlockEmitter.Step step = emitter.beginStep(4, List.of("op"), false);
        emitter.runOnce();
        assertThatThrownBy(() -> emitter.checkFailure("step 4"))
                .isInstanceOf(EmitException.class).hasMessageContaining("broker down").hasMessageContaining("run-1");
        assertThatThrownBy(() -> emitter.beginStep(5, List.of("op"), false)).isInstanceOf(EmitException.class);
        assertThat(step.counts().blocksSent()).isZero();
    }
}
