package io.tailstream.producer.emit;

import io.tailstream.producer.time.Clock;
import io.tailstream.schemas.block.SampleBlockEncoder;
import io.tailstream.schemas.block.SampleStatus;
import java.util.concurrent.locks.LockSupport;

/**
 * One worker's writer: fills a {@link WorkerBlock} and hands it to its {@link BlockEmitter} when it is full or its
 * samples are {@code maxBlockAge} old. The per-sample path takes no lock and no atomic instruction: the encoder
 * publishes each sample with a release store (an uncontended monitor cost 14 ns per sample on this project's 2-core
 * VM, three times the encoding itself). Once per block the worker takes a buffer and hands it over.
 *
 * <p>Thread safety: {@link #write} and {@link #flush} are called from the worker's thread only, {@link #takeable}
 * from the emitter's thread only; they share the block as {@link WorkerBlock} describes.
 */
final class BlockWriter implements SampleWriter {
    private final BlockEmitter emitter;
    private final BlockEmitter.Step step;
    private final EncoderPool encoders;
    private final Clock clock;
    private final long maxAgeMicros;
    /** The worker's block, null between blocks. */
    private WorkerBlock block;
    /** The same, for the emitter's sweeps. */
    private volatile WorkerBlock shared;
    // the emitter's: what its previous sweep saw, to tell an idle worker from a busy one
    private WorkerBlock seenBlock;
    private int seenSamples;

    /** @param maxAgeMicros {@code maxBlockAge}: how long after its first sample ended a block is handed over */
    BlockWriter(BlockEmitter emitter, BlockEmitter.Step step, EncoderPool encoders, Clock clock, long maxAgeMicros) {
        this.emitter = emitter;
        this.step = step;
        this.encoders = encoders;
        this.clock = clock;
        this.maxAgeMicros = maxAgeMicros;
    }

    @Override
    public void write(long startEpochMicros, long latencyMicros, long intendedStartEpochMicros, int opIndex,
                      SampleStatus status, int queries, boolean warmup) {
        WorkerBlock b = block;
        if (b == null) {
            open(startEpochMicros, latencyMicros, intendedStartEpochMicros, opIndex, status, queries, warmup);
            return;
        }
        SampleBlockEncoder e = b.enc;
        e.add(startEpochMicros, latencyMicros, intendedStartEpochMicros, opIndex, status, queries, warmup);
        // samples end in order on one worker: the block is due once a sample ends maxBlockAge after its first
        if (e.isFull() || startEpochMicros + latencyMicros - b.handOverAtMicros >= 0) {
            handOver(b);
        }
    }

    /** Out of line: once per block, so the per-sample path stays small enough to inline cheaply. */
    private void open(long startEpochMicros, long latencyMicros, long intendedStartEpochMicros, int opIndex,
                      SampleStatus status, int queries, boolean warmup) {
        SampleBlockEncoder e = encoders.take(step.openLoop);
        if (e == null) {
            e = awaitSpare();
        }
        try {
            e.add(startEpochMicros, latencyMicros, intendedStartEpochMicros, opIndex, status, queries, warmup);
        } catch (RuntimeException refused) {
            encoders.release(e);
            throw refused;
        }
        WorkerBlock b = new WorkerBlock(step, e, clock.nanoTime(), startEpochMicros + latencyMicros + maxAgeMicros);
        block = b;
        shared = b;
        if (e.isFull()) {
            handOver(b);
        }
    }

    /** Every block buffer is in use: waits for a spare, and counts the wait as the step's backpressure. */
    private SampleBlockEncoder awaitSpare() {
        long t0 = clock.nanoTime();
        emitter.wakeUp();
        SampleBlockEncoder e;
        while ((e = encoders.spare(step.openLoop)) == null) {
            emitter.checkFailure("step " + step.stepId);
            LockSupport.parkNanos(50_000);
            if (Thread.currentThread().isInterrupted()) {
                throw new EmitException("interrupted while waiting for a free block buffer in step " + step.stepId,
                        new InterruptedException());
            }
        }
        step.backpressureNanos.add(clock.nanoTime() - t0);
        return e;
    }

    /** Out of line: once per block. */
    private void handOver(WorkerBlock b) {
        block = null;
        shared = null;
        emitter.handOver(b);
    }

    /** Hands the worker's block over; call from the worker's thread when it stops writing. */
    @Override
    public void flush() {
        WorkerBlock b = block;
        if (b != null) {
            handOver(b);
        }
    }

    /**
     * The emitter's sweep: this writer's block if it holds samples the emitter has not sealed and either the worker
     * wrote nothing since the previous sweep and they have waited {@code maxAgeNanos}, or {@code force}; else null.
     */
    WorkerBlock takeable(long nowNanos, long maxAgeNanos, boolean force) {
        WorkerBlock b = shared;
        if (b == null) {
            seenBlock = null;
            return null;
        }
        int published = b.enc.publishedSampleCount();
        boolean idle = b == seenBlock && published == seenSamples;
        seenBlock = b;
        seenSamples = published;
        if (published <= b.position.samples()
                || !force && !(idle && nowNanos - b.waitingSinceNanos >= maxAgeNanos)) {
            return null;
        }
        return b;
    }
}
