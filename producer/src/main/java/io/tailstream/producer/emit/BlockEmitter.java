package io.tailstream.producer.emit;

import io.tailstream.producer.time.Clock;
import io.tailstream.schemas.block.SampleBlock;
import io.tailstream.schemas.block.SampleBlockEncoder;
import io.tailstream.schemas.block.SampleStatus;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The emission engine of one run and producer, independent of threads so tests can drive it: {@link #runOnce()}
 * does one round of the emitter's work (send handed-over blocks, take aged blocks from workers, heartbeats,
 * end-of-step markers). {@link KafkaSampleSink} calls it in a loop on its own thread.
 *
 * <p>Hand-over: a worker's {@link Writer} fills its own encoder; a full encoder goes into a lock-free queue and the
 * worker takes a spare from a lock-free pool. Encoders are created on demand up to
 * {@link EmitterSettings#maxBufferedBlocks()}; after that a worker waits for a spare and the wait is counted
 * (backpressure instead of dropping or unbounded memory). Each writer has its own monitor, held for one
 * {@code add} by its worker (uncontended) and taken by the emitter only when it sweeps for aged blocks.
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
    private final ConcurrentLinkedQueue<Filled> filled = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<SampleBlockEncoder> sparesClosed = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<SampleBlockEncoder> sparesOpen = new ConcurrentLinkedQueue<>();
    private final AtomicInteger encodersCreated = new AtomicInteger();
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
        return Math.min(encodersCreated.get(), settings.maxBufferedBlocks());
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
                for (Writer w : s.writers) {
                    w.stealIfOlder(now, maxAge);
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
                for (Writer w : r.step.writers) {
                    w.stealIfOlder(now, Long.MIN_VALUE);
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
        Filled f;
        while ((f = filled.poll()) != null) {
            SampleBlockEncoder enc = f.encoder;
            Step s = f.step;
            long seq = nextSeq++;
            blocksAssigned.incrementAndGet();
            byte[] block = enc.seal(runId, producerId, seq, s.stepId, clock.epochMicros(), s.ops, 0);
            int samples = enc.sampleCount();
            enc.reset();
            release(enc);
            s.blocksSeq.incrementAndGet();
            transport.sendBlock(null, key, block, error -> s.acked(error, samples));
            any = true;
        }
        return any;
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

    private void handOff(Step s, SampleBlockEncoder enc) {
        filled.add(new Filled(enc, s));
    }

    private void release(SampleBlockEncoder enc) {
        (enc.openLoop() ? sparesOpen : sparesClosed).add(enc);
    }

    private SampleBlockEncoder acquire(Step s) {
        ConcurrentLinkedQueue<SampleBlockEncoder> pool = s.openLoop ? sparesOpen : sparesClosed;
        SampleBlockEncoder e = pool.poll();
        if (e != null) {
            return e;
        }
        if (encodersCreated.incrementAndGet() <= settings.maxBufferedBlocks()) {
            return new SampleBlockEncoder(settings.maxSamplesPerBlock(), s.openLoop);
        }
        encodersCreated.decrementAndGet();
        long t0 = clock.nanoTime();
        wakeUp.run();
        while ((e = pool.poll()) == null) {
            checkFailure("step " + s.stepId);
            LockSupport.parkNanos(50_000);
            if (Thread.currentThread().isInterrupted()) {
                throw new EmitException("interrupted while waiting for a free block buffer in step " + s.stepId,
                        new InterruptedException());
            }
        }
        s.backpressureNanos.add(clock.nanoTime() - t0);
        return e;
    }

    private record Filled(SampleBlockEncoder encoder, Step step) {}

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
        final CopyOnWriteArrayList<Writer> writers = new CopyOnWriteArrayList<>();
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
            Writer w = new Writer(this);
            writers.add(w);
            return w;
        }

        @Override
        public StepCounts finish() {
            return BlockEmitter.this.finish(this);
        }
    }

    /** One worker's writer. */
    final class Writer implements SampleWriter {
        private final Step step;
        private SampleBlockEncoder enc; // guarded by this
        private long openedNanos; // guarded by this

        Writer(Step step) {
            this.step = step;
        }

        @Override
        public void write(long startEpochMicros, long latencyMicros, long intendedStartEpochMicros, int opIndex,
                          SampleStatus status, int queries, boolean warmup) {
            synchronized (this) {
                if (enc != null) {
                    add(startEpochMicros, latencyMicros, intendedStartEpochMicros, opIndex, status, queries, warmup);
                    return;
                }
            }
            writeToFreshBlock(startEpochMicros, latencyMicros, intendedStartEpochMicros, opIndex, status, queries,
                    warmup);
        }

        /** Out of line: once per block, so the per-sample path stays small enough to inline cheaply. */
        private void writeToFreshBlock(long startEpochMicros, long latencyMicros, long intendedStartEpochMicros,
                                       int opIndex, SampleStatus status, int queries, boolean warmup) {
            // may wait for a spare: never while holding the monitor the emitter's sweep takes
            SampleBlockEncoder fresh = acquire(step);
            synchronized (this) {
                enc = fresh;
                openedNanos = clock.nanoTime();
                add(startEpochMicros, latencyMicros, intendedStartEpochMicros, opIndex, status, queries, warmup);
            }
        }

        private void add(long start, long latency, long intended, int op, SampleStatus status, int queries,
                         boolean warmup) {
            SampleBlockEncoder e = enc;
            e.add(start, latency, intended, op, status, queries, warmup);
            if (e.isFull()) {
                handOffFull();
            }
        }

        /** Out of line: once per block. */
        private void handOffFull() {
            handOff(step, enc);
            enc = null;
        }

        @Override
        public synchronized void flush() {
            if (enc != null) {
                if (enc.isEmpty()) {
                    release(enc);
                } else {
                    handOff(step, enc);
                }
                enc = null;
            }
        }

        synchronized void stealIfOlder(long nowNanos, long maxAgeNanos) {
            if (enc != null && !enc.isEmpty() && nowNanos - openedNanos >= maxAgeNanos) {
                handOff(step, enc);
                enc = null;
            }
        }
    }
}
