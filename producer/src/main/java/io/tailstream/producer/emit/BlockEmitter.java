package io.tailstream.producer.emit;

import io.tailstream.producer.time.Clock;
import io.tailstream.schemas.block.SampleBlock;
import io.tailstream.schemas.block.SampleBlockEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The emission engine of one run and producer, independent of threads so tests can drive it: {@link #runOnce()}
 * does one round of the emitter's work (send handed-over blocks, take the samples of idle workers, heartbeats,
 * end-of-step markers). {@link KafkaSampleSink} calls it in a loop on its own thread.
 *
 * <p>Hand-over: a worker's {@link BlockWriter} fills its own encoder and hands it over, through a lock-free queue,
 * when it is full or its first sample ended {@link EmitterSettings#maxBlockAge()} ago (judged by the samples' own
 * times, so the worker reads no clock for it); it takes a spare from a lock-free pool ({@link EncoderPool}).
 * Encoders are created on demand up to {@link EmitterSettings#maxBufferedBlocks()}; after that a worker waits for a
 * spare and the wait is counted (backpressure instead of dropping or unbounded memory). A worker that writes nothing
 * for a sweep while its samples have waited {@code maxBlockAge} (stuck in a long transaction: what a stall looks
 * like) keeps its block, and the emitter seals the samples it holds into a block of their own without stopping it
 * ({@link WorkerBlock}).
 *
 * <p>Sequences: only {@link #runOnce()} assigns block sequences, so they are 0, 1, 2, ... without gaps. Call
 * {@link #runOnce()} from one thread at a time; everything else is thread safe.
 */
final class BlockEmitter {

    private final String runId;
    private final String producerId;
    private final byte[] key;
    private final BlockTransport transport;
    private final Clock clock;
    private final EmitterSettings settings;
    private final ConcurrentLinkedQueue<WorkerBlock> filled = new ConcurrentLinkedQueue<>();
    private final EncoderPool encoders;
    private final ConcurrentLinkedQueue<EndRequest> ends = new ConcurrentLinkedQueue<>();
    private final CopyOnWriteArrayList<Step> active = new CopyOnWriteArrayList<>();
    private final AtomicLong blocksAssigned = new AtomicLong();
    private final AtomicLong samplesAcked = new AtomicLong();
    private final AtomicLong blocksAcked = new AtomicLong();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private long nextSeq;
    private long lastSweepNanos;
    /** Wakes the thread that calls {@link #runOnce()} when work should not wait for its next round. */
    private volatile Runnable wakeUp = () -> { };

    BlockEmitter(String runId, String producerId, BlockTransport transport, Clock clock, EmitterSettings settings) {
        this.runId = runId;
        this.producerId = producerId;
        this.key = (runId + "/" + producerId).getBytes(StandardCharsets.UTF_8);
        this.transport = transport;
        this.clock = clock;
        this.settings = settings;
        this.encoders = new EncoderPool(settings.maxBufferedBlocks(), settings.maxSamplesPerBlock());
        this.lastSweepNanos = clock.nanoTime();
    }

    /**
     * Sets what wakes the emitter's thread early: a step's end and a worker waiting for a spare buffer call it, so
     * that the thread may sleep until {@link #nanosUntilDue()} between rounds.
     */
    void onWakeUp(Runnable wake) {
        this.wakeUp = wake;
    }

    /**
     * Nanoseconds until the next sweep for aged blocks or the next heartbeat is due (0 if one is due now). Full blocks
     * handed over meanwhile wait for the next round: they go to a producer that lingers longer than this anyway.
     */
    long nanosUntilDue() {
        long now = clock.nanoTime();
        long until = lastSweepNanos + settings.sweepInterval().toNanos() - now;
        for (Step s : active) {
            until = Math.min(until, s.nextHeartbeatNanos - now);
        }
        return Math.max(0, until);
    }

    Step beginStep(int stepId, List<String> ops, boolean openLoop) {
        checkFailure("step " + stepId);
        Step s = new Step(stepId, List.copyOf(ops), openLoop, clock.nanoTime());
        active.add(s);
        return s;
    }

    long blocksSent() {
        return blocksAssigned.get();
    }

    long samplesAcked() {
        return samplesAcked.get();
    }

    long blocksAcked() {
        return blocksAcked.get();
    }

    /** Block buffers created so far (the pool grows on demand up to {@link EmitterSettings#maxBufferedBlocks()}). */
    int encodersCreated() {
        return encoders.created();
    }

    /** Blocks handed over and not yet sealed. */
    int backlog() {
        return filled.size();
    }

    Exception failure() {
        return failure.get();
    }

    void fail(Exception e) {
        failure.compareAndSet(null, e);
    }

    /**
     * One round of emitter work.
     *
     * @return true if anything was sent
     */
    boolean runOnce() {
        boolean worked = drain();
        long now = clock.nanoTime();
        if (now - lastSweepNanos >= settings.sweepInterval().toNanos()) {
            lastSweepNanos = now;
            long maxAge = settings.maxBlockAge().toNanos();
            for (Step s : active) {
                for (BlockWriter w : s.writers) {
                    takeIfIdle(w, now, maxAge, false);
                }
            }
            worked |= drain();
        }
        for (Step s : active) {
            if (now - s.nextHeartbeatNanos >= 0) {
                sendMarker(s, SampleBlock.FLAG_HEARTBEAT, null);
                s.nextHeartbeatNanos = now + settings.heartbeatInterval().toNanos();
                worked = true;
            }
        }
        EndRequest r;
        while ((r = ends.poll()) != null) {
            try {
                for (BlockWriter w : r.step.writers) {
                    takeIfIdle(w, now, 0, true);
                }
                drain();
                int partitions = transport.samplePartitions();
                for (int p = 0; p < partitions; p++) {
                    sendMarker(r.step, SampleBlock.FLAG_END_OF_STEP, p);
                }
                r.done.complete(null);
            } catch (RuntimeException e) {
                r.done.completeExceptionally(e);
            } finally {
                active.remove(r.step);
            }
            worked = true;
        }
        return worked;
    }

    private boolean drain() {
        boolean any = false;
        WorkerBlock b;
        while ((b = filled.poll()) != null) {
            SampleBlockEncoder enc = b.enc;
            Step s = b.step;
            long seq = nextSeq;
            if (b.position.samples() == 0) {
                send(s, seq, enc.seal(runId, producerId, seq, s.stepId, clock.epochMicros(), s.ops, 0),
                        enc.sampleCount());
            } else {
                // the emitter took some of its samples while the worker was idle: the rest, if any
                SampleBlockEncoder.Sealed rest = enc.sealPublished(b.position, runId, producerId, seq, s.stepId,
                        clock.epochMicros(), s.ops, 0);
                if (rest != null) {
                    send(s, seq, rest.block(), rest.samples());
                }
            }
            enc.reset();
            encoders.release(enc);
            any = true;
        }
        return any;
    }

    /**
     * The emitter's sweep of one writer: seals the samples of its block into a block of their own if the worker wrote
     * nothing since the previous sweep and they have waited {@code maxAgeNanos} (a worker stuck in a long
     * transaction, or stopped); with {@code force}, whatever it holds (the step's end).
     */
    private void takeIfIdle(BlockWriter w, long nowNanos, long maxAgeNanos, boolean force) {
        WorkerBlock b = w.takeable(nowNanos, maxAgeNanos, force);
        if (b == null) {
            return;
        }
        Step s = b.step;
        long seq = nextSeq;
        // the worker may add samples or hand the block over meanwhile: this seals what was published when it
        // began, and drain(), on this thread, sends whatever comes after the new position
        SampleBlockEncoder.Sealed sealed = b.enc.sealPublished(b.position, runId, producerId, seq, s.stepId,
                clock.epochMicros(), s.ops, 0);
        if (sealed == null) {
            return;
        }
        b.position = sealed.next();
        b.waitingSinceNanos = nowNanos;
        send(s, seq, sealed.block(), sealed.samples());
    }

    /** Sends a sealed block carrying sequence {@code seq}, the next one. */
    private void send(Step s, long seq, byte[] block, int samples) {
        if (seq != nextSeq) {
            throw new IllegalStateException("block sealed as sequence " + seq + ", next is " + nextSeq);
        }
        nextSeq++;
        blocksAssigned.incrementAndGet();
        s.blocksSeq.incrementAndGet();
        transport.sendBlock(null, key, block, error -> s.acked(error, samples));
    }

    private void sendMarker(Step s, int flag, Integer partition) {
        long seq = nextSeq++;
        blocksAssigned.incrementAndGet();
        byte[] block = SampleBlockEncoder.marker(runId, producerId, seq, s.stepId, flag, clock.epochMicros(), s.ops);
        s.blocksSeq.incrementAndGet();
        transport.sendBlock(partition, key, block, error -> s.acked(error, 0));
    }

    CompletableFuture<Void> requestEnd(Step s) {
        EndRequest r = new EndRequest(s);
        ends.add(r);
        wakeUp.run();
        return r.done;
    }

    /** Ends a step while another thread runs {@link #runOnce()}; waits for every acknowledgement. */
    StepEmission.StepCounts finish(Step s) {
        CompletableFuture<Void> done = requestEnd(s);
        try {
            done.get(settings.finishTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmitException("interrupted while ending the emission of step " + s.stepId, e);
        } catch (ExecutionException e) {
            throw new EmitException("cannot end the emission of step " + s.stepId + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new EmitException("the emitter did not end step " + s.stepId + " within "
                    + settings.finishTimeout().toSeconds() + " s (" + backlog() + " blocks queued)", e);
        }
        transport.flush();
        checkFailure("step " + s.stepId);
        return s.counts();
    }

    void checkFailure(String what) {
        Exception e = failure.get();
        if (e != null) {
            throw new EmitException("samples of " + what + " of run " + runId + " could not be delivered ("
                    + (blocksAssigned.get() - blocksAcked.get()) + " blocks unacknowledged): " + e.getMessage(), e);
        }
    }

    /** Wakes the emitter's thread for work that should not wait for its next round. */
    void wakeUp() {
        wakeUp.run();
    }

    /** A worker's block is full or due: the next round sends it. Called by its writer. */
    void handOver(WorkerBlock b) {
        filled.add(b);
    }

    private static final class EndRequest {
        final Step step;
        final CompletableFuture<Void> done = new CompletableFuture<>();

        EndRequest(Step step) {
            this.step = step;
        }
    }

    /** One step's emission. */
    final class Step implements StepEmission {
        final int stepId;
        final List<String> ops;
        final boolean openLoop;
        final CopyOnWriteArrayList<BlockWriter> writers = new CopyOnWriteArrayList<>();
        final AtomicLong blocksSeq = new AtomicLong();
        final AtomicLong samplesAck = new AtomicLong();
        final AtomicLong blocksAck = new AtomicLong();
        final LongAdder backpressureNanos = new LongAdder();
        volatile long nextHeartbeatNanos;

        Step(int stepId, List<String> ops, boolean openLoop, long nowNanos) {
            this.stepId = stepId;
            this.ops = ops;
            this.openLoop = openLoop;
            this.nextHeartbeatNanos = nowNanos;
        }

        void acked(Exception error, int samples) {
            if (error != null) {
                fail(error);
                return;
            }
            samplesAck.addAndGet(samples);
            blocksAck.incrementAndGet();
            samplesAcked.addAndGet(samples);
            blocksAcked.incrementAndGet();
        }

        StepCounts counts() {
            return new StepCounts(samplesAck.get(), blocksAck.get(), backpressureNanos.sum());
        }

        @Override
        public SampleWriter writer() {
            BlockWriter w = new BlockWriter(BlockEmitter.this, this, encoders, clock,
                    settings.maxBlockAge().toNanos() / 1_000);
            writers.add(w);
            return w;
        }

        @Override
        public StepCounts finish() {
            return BlockEmitter.this.finish(this);
        }
    }
}
