package io.tailstream.producer.emit;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link BlockTransport} that keeps going when the broker is slow or away: blocks go to the inner transport while
 * less than {@link SpoolSettings#maxInflightBytes()} are unacknowledged; beyond that, and for as long as anything is
 * spooled, they are appended to a {@link SpoolFile}, and a replay thread hands them to the inner transport in the
 * order they were spooled as soon as the in-flight bytes fall again. A block whose send fails with a retriable error
 * (the broker did not answer within Kafka's delivery timeout) is spooled again rather than failed. Memory stays
 * bounded by the in-flight limit; disk by the spool limit, which stops the run with a message when reached. Nothing
 * is dropped: each block's {@link Ack} runs exactly once, when Kafka acknowledged it or failed it for good.
 *
 * <p>Control events take their own ordered path through a second spool file: one is in flight at a time, the next
 * is sent only once the previous one is acknowledged, so they reach the control topic exactly in the order they
 * were sent. {@link #sendControl} hands an event to Kafka when the previous one is acknowledged within
 * {@link #CONTROL_WAIT}; otherwise (the broker is slow or away) it appends it to the control spool and returns, and
 * the control sender delivers it later. An event whose send fails with a retriable error is re-sent. Both files
 * count against the spool limit; reaching it stops the run; a control event that could not be spooled or that
 * Kafka refused for good fails every later send and {@link #flush}, so nothing is dropped silently.
 *
 * <p>Thread safe.
 */
public final class SpoolingTransport implements BlockTransport {

    private static final Logger log = LoggerFactory.getLogger(SpoolingTransport.class);

    /** How long {@link #sendControl} waits for the previous control event before spooling the next. */
    static final java.time.Duration CONTROL_WAIT = java.time.Duration.ofMillis(500);
    /** Pause before a control event whose send failed with a retriable error is sent again. */
    static final java.time.Duration CONTROL_RETRY_BACKOFF = java.time.Duration.ofMillis(200);
    /**
     * {@code max.block.ms} of the Kafka producer under this transport ({@link KafkaSampleSink}). When the broker goes
     * away the client soon falls back to its bootstrap servers and forgets the topics' metadata; from then on every
     * {@code send} blocks its caller until metadata returns or {@code max.block.ms} passes. With the 30 s the sink
     * used before, the emitter thread stood still for 30 s at the start of an outage (nothing spooled, workers waiting
     * for block buffers, heartbeats late; SpoolIntegrationTest's thread dumps); with 1 s the first such send fails with
     * a retriable timeout after a second, it is spooled, and the spool takes every later block. The replay and control
     * threads pay at most this per attempt while the broker is away. A {@code max.block.ms} the user sets wins.
     */
    public static final java.time.Duration KAFKA_MAX_BLOCK = java.time.Duration.ofSeconds(1);

    /** Longest wait of the replay and control threads without news (they are notified of every change). */
    private static final long IDLE_WAIT_MILLIS = 100;

    private final BlockTransport inner;
    private final SpoolSettings settings;
    private final SpoolFile spool;
    private final SpoolFile controlSpool;
    private final Thread replayer;
    private final Thread controlSender;
    // guarded by this: the control event being delivered (oldest first), and what follows it in controlSpool
    private SpoolFile.Entry controlHead;
    private boolean controlHeadSent;
    private boolean controlHeadCounted;
    private long controlRetryAtNanos;
    private long controlQueued;
    private long controlEventsSpooled;
    private EmitException controlFailure;
    private long heldHighWaterBytes;
    private long periodHighWaterBytes;
    // guarded by this
    private final ArrayDeque<Ack> spooledAcks = new ArrayDeque<>();
    private long inflightBytes;
    private long inflightBlocks;
    private boolean spooling;
    private boolean closed;
    private RuntimeException replayFailure;
    private long blocksSpooled;
    private long spoolEpisodes;
    private long spoolingSinceNanos;
    private long spoolingNanos;
    private Exception lastKafkaError;
    private long lastKafkaErrorNanos;

    public SpoolingTransport(BlockTransport inner, SpoolSettings settings, String producerId) {
        this.inner = inner;
        this.settings = settings;
        String base = "spool-" + producerId.replaceAll("[^A-Za-z0-9._-]", "_");
        this.spool = new SpoolFile(settings.dir().resolve(base + ".bin"), settings.limitBytes());
        this.controlSpool = new SpoolFile(settings.dir().resolve(base + "-control.bin"), settings.limitBytes());
        this.replayer = new Thread(this::replayLoop, "tailstream-spool-replay-" + producerId);
        this.replayer.setDaemon(true);
        this.replayer.start();
        this.controlSender = new Thread(this::controlLoop, "tailstream-spool-control-" + producerId);
        this.controlSender.setDaemon(true);
        this.controlSender.start();
    }

    @Override
    public java.util.Set<String> threadNames() {
        java.util.Set<String> names = new java.util.HashSet<>(inner.threadNames());
        names.add(replayer.getName());
        names.add(controlSender.getName());
        return java.util.Set.copyOf(names);
    }

    /** Refuses a record that would take both spool files together past the limit. */
    private void checkLimitLocked(SpoolFile.Entry e) {
        long held = spool.heldBytes() + controlSpool.heldBytes();
        if (held + SpoolFile.recordBytes(e) > settings.limitBytes()) {
            throw SpoolFile.spoolFull(spool.path(), settings.limitBytes(), held, blocksSpooled + controlEventsSpooled);
        }
    }

    private void trackHeldLocked() {
        long held = spool.heldBytes() + controlSpool.heldBytes();
        heldHighWaterBytes = Math.max(heldHighWaterBytes, held);
        periodHighWaterBytes = Math.max(periodHighWaterBytes, held);
    }

    @Override
    public int samplePartitions() {
        return inner.samplePartitions();
    }

    @Override
    public void sendBlock(Integer partition, byte[] key, byte[] block, Ack ack) {
        synchronized (this) {
            if (replayFailure != null) {
                throw new EmitException("the spool replay failed: " + replayFailure.getMessage(), replayFailure);
            }
            if (spooling || inflightBytes + block.length > settings.maxInflightBytes()) {
                if (!spooling) {
                    startSpoolingLocked();
                    log.warn("Kafka is slow or unreachable ({} bytes unacknowledged): spooling blocks to {}",
                            inflightBytes, spool.path());
                }
                spoolLocked(new SpoolFile.Entry(partition, key, block), ack);
                return;
            }
            inflightBytes += block.length;
            inflightBlocks++;
        }
        sendInner(new SpoolFile.Entry(partition, key, block), ack);
    }

    private void startSpoolingLocked() {
        spooling = true;
        spoolEpisodes++;
        spoolingSinceNanos = System.nanoTime();
    }

    private void spoolLocked(SpoolFile.Entry e, Ack ack) {
        checkLimitLocked(e);
        spool.append(e);
        spooledAcks.add(ack);
        blocksSpooled++;
        trackHeldLocked();
        notifyAll();
    }

    private void sendInner(SpoolFile.Entry e, Ack ack) {
        inner.sendBlock(e.partition(), e.key(), e.block(), error -> done(e, ack, error));
    }

    private void done(SpoolFile.Entry e, Ack ack, Exception error) {
        boolean retry = error instanceof RetriableException;
        synchronized (this) {
            noteErrorLocked(error);
            inflightBytes -= e.block().length;
            inflightBlocks--;
            if (retry && !closed) {
                try {
                    if (!spooling) {
                        startSpoolingLocked();
                    }
                    spoolLocked(e, ack);
                    return;
                } catch (RuntimeException full) {
                    error = full;
                }
            }
            // who waits on an acknowledgement: the replay thread while blocks are spooled, flush() for the last one;
            // waking both spool threads for every block cost more CPU than sending it
            if (spooling || inflightBlocks == 0 || error != null) {
                notifyAll();
            }
        }
        ack.done(error);
    }

    private void replayLoop() {
        while (true) {
            SpoolFile.Entry e;
            Ack ack;
            synchronized (this) {
                try {
                    while (!closed && (spool.isEmpty() || inflightBytes >= settings.maxInflightBytes() / 2)) {
                        if (spooling && spool.isEmpty() && spool.resetIfCaughtUp()) {
                            spooling = false; // caught up: new blocks go straight to Kafka again, after these
                            spoolingNanos += System.nanoTime() - spoolingSinceNanos;
                            log.info("spool {} replayed; sending directly again", spool.path());
                        }
                        // woken by spooled blocks and acknowledgements; the timeout is a safety net
                        wait(IDLE_WAIT_MILLIS);
                    }
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
                if (closed) {
                    return;
                }
                try {
                    e = spool.next();
                } catch (RuntimeException ex) {
                    replayFailure = ex;
                    log.error("spool replay stopped: {}", ex.getMessage());
                    return;
                }
                ack = spooledAcks.poll();
                inflightBytes += e.block().length;
                inflightBlocks++;
            }
            sendInner(e, ack);
        }
    }

    /**
     * Queues a control event behind the earlier ones: handed to Kafka when the previous one is acknowledged within
     * {@link #CONTROL_WAIT}, else appended to the control spool. Does not wait for its acknowledgement
     * ({@link #flush} does).
     *
     * @throws EmitException if an earlier control event failed for good, or the spool is full
     */
    @Override
    public void sendControl(byte[] key, byte[] json) {
        SpoolFile.Entry e = new SpoolFile.Entry(null, key, json);
        synchronized (this) {
            throwIfControlFailedLocked();
            if (closed) {
                throw new EmitException("control event sent after the spool " + controlSpool.path() + " closed", null);
            }
            long deadline = System.nanoTime() + CONTROL_WAIT.toNanos();
            while (controlHead != null || controlQueued > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || controlFailure != null) {
                    break;
                }
                try {
                    wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    break; // spooled below rather than lost
                }
            }
            throwIfControlFailedLocked();
            if (controlHead == null && controlQueued == 0) {
                controlHead = e;
                controlHeadSent = false;
                controlHeadCounted = false;
                notifyAll();
                return;
            }
            try {
                checkLimitLocked(e);
                controlSpool.append(e);
            } catch (RuntimeException full) {
                // sticky: every later control event and flush fails with it, so the run stops saying why
                controlFailure = full instanceof EmitException ee ? ee
                        : new EmitException("cannot spool a control event: " + full.getMessage(), full);
                notifyAll();
                throw controlFailure;
            }
            controlQueued++;
            controlEventsSpooled++;
            trackHeldLocked();
            notifyAll();
        }
    }

    private void throwIfControlFailedLocked() {
        if (controlFailure != null) {
            throw new EmitException(controlFailure.getMessage(), controlFailure);
        }
    }

    /** Delivers control events one at a time, in order: the next is sent only once the previous is acknowledged. */
    private void controlLoop() {
        while (true) {
            SpoolFile.Entry e;
            synchronized (this) {
                try {
                    while (!closed && controlFailure == null && !controlReadyLocked()) {
                        long waitMs = controlHead != null && !controlHeadSent
                                ? Math.max(1, TimeUnit.NANOSECONDS.toMillis(controlRetryAtNanos - System.nanoTime()))
                                : IDLE_WAIT_MILLIS;
                        wait(Math.min(waitMs, IDLE_WAIT_MILLIS));
                    }
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
                if (closed || controlFailure != null) {
                    return;
                }
                if (controlHead == null) {
                    try {
                        controlHead = controlSpool.next();
                    } catch (RuntimeException ex) {
                        controlFailure = new EmitException("control spool replay failed: " + ex.getMessage(), ex);
                        notifyAll();
                        return;
                    }
                    controlQueued--;
                    controlHeadCounted = true; // counted when it was spooled
                    if (controlQueued == 0) {
                        controlSpool.resetIfCaughtUp();
                    }
                }
                controlHeadSent = true;
                e = controlHead;
            }
            try {
                inner.sendControlAsync(e.key(), e.block(), error -> controlDone(e, error));
            } catch (RuntimeException ex) {
                controlDone(e, ex);
            }
        }
    }

    private boolean controlReadyLocked() {
        if (controlHead != null) {
            return !controlHeadSent && System.nanoTime() >= controlRetryAtNanos;
        }
        return controlQueued > 0;
    }

    private void controlDone(SpoolFile.Entry e, Exception error) {
        synchronized (this) {
            if (controlHead != e) {
                return; // defensive: each head is acknowledged once
            }
            noteErrorLocked(error);
            if (error == null) {
                controlHead = null;
                controlHeadSent = false;
            } else if (error instanceof RetriableException && !closed) {
                log.warn("control event not acknowledged by Kafka ({}): sending it again", error.toString());
                controlHeadSent = false;
                controlRetryAtNanos = System.nanoTime() + CONTROL_RETRY_BACKOFF.toNanos();
                if (!controlHeadCounted) {
                    controlHeadCounted = true;
                    controlEventsSpooled++;
                }
            } else {
                controlFailure = new EmitException("a control event (" + e.block().length + " bytes) could not be"
                        + " delivered to Kafka: " + error.getMessage(), error);
                log.error("{}", controlFailure.getMessage());
            }
            notifyAll();
        }
    }

    /** Waits until the spool is drained and every block acknowledged, at most the drain timeout. */
    @Override
    public void flush() {
        long deadline = System.nanoTime() + settings.drainTimeout().toNanos();
        while (true) {
            inner.flush();
            synchronized (this) {
                if (replayFailure != null) {
                    throw new EmitException("the spool replay failed: " + replayFailure.getMessage(), replayFailure);
                }
                throwIfControlFailedLocked();
                if (spool.isEmpty() && inflightBlocks == 0 && controlHead == null && controlQueued == 0) {
                    return;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new EmitException("the spool " + spool.path() + " did not drain within "
                            + settings.drainTimeout().toSeconds() + " s (" + describeLocked()
                            + "): is the broker reachable?", lastKafkaError);
                }
                try {
                    wait(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), 100)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new EmitException("interrupted while draining the spool " + spool.path(), e);
                }
            }
        }
    }

    private void noteErrorLocked(Exception error) {
        if (error != null) {
            lastKafkaError = error;
            lastKafkaErrorNanos = System.nanoTime();
        }
    }

    /** What is waiting and why, for a message: counts, whether blocks are spooled, Kafka's last error and its age. */
    public synchronized String describe() {
        return describeLocked();
    }

    private String describeLocked() {
        String last = lastKafkaError == null ? "none" : lastKafkaError + ", "
                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastKafkaErrorNanos) + " ms ago";
        return spooledAcks.size() + " blocks waiting, " + inflightBlocks + " unacknowledged (" + inflightBytes
                + " bytes), " + controlWaitingLocked() + " control events waiting, " + blocksSpooled
                + " blocks spooled in " + spoolEpisodes + " episodes, " + (spooling ? "spooling" : "sending directly")
                + (replayFailure != null ? ", replay failed: " + replayFailure.getMessage() : "")
                + "; last error from Kafka: " + last;
    }

    private long controlWaitingLocked() {
        return controlQueued + (controlHead != null ? 1 : 0);
    }

    /**
     * What the spool did in this run.
     *
     * @param blocksSpooled        blocks appended to the spool (a block spooled again after a retriable failure counts
     *                             again)
     * @param bytesSpooled         bytes appended to both spool files
     * @param highWaterBytes       most bytes both files held at once
     * @param episodes             times the block path switched from Kafka to the spool
     * @param controlEventsSpooled control events that waited for the broker: appended to the control spool, or sent
     *                             again after a retriable failure
     * @param spoolingMillis       how long the block path spooled, over all episodes: from the first block spooled
     *                             until the spool was replayed (until now for an episode still going on)
     */
    public record SpoolStats(Path path, long blocksSpooled, long bytesSpooled, long highWaterBytes, long episodes,
                             long controlEventsSpooled, long spoolingMillis) {}

    public synchronized SpoolStats stats() {
        long nanos = spoolingNanos + (spooling ? System.nanoTime() - spoolingSinceNanos : 0);
        return new SpoolStats(spool.path(), blocksSpooled, spool.bytesAppended() + controlSpool.bytesAppended(),
                heldHighWaterBytes, spoolEpisodes, controlEventsSpooled, TimeUnit.NANOSECONDS.toMillis(nanos));
    }

    /**
     * What the spool holds at this moment, for a metrics endpoint.
     *
     * @param heldBytes            bytes both spool files hold on disk (written and not yet replayed)
     * @param blocksWaiting        blocks in the spool, not yet handed to Kafka
     * @param controlEventsWaiting control events not yet acknowledged
     * @param spooling             whether new blocks go to the spool (Kafka slow or away, or the spool not yet
     *                             replayed)
     * @param limitBytes           the spool's limit ({@code --spool-limit}); reaching it stops the run
     * @param blocksSpooled        blocks appended to the spool since the start (a block spooled again counts again)
     */
    public record SpoolNow(long heldBytes, long blocksWaiting, long controlEventsWaiting, boolean spooling,
                           long limitBytes, long blocksSpooled) {}

    /** What the spool holds now. */
    public synchronized SpoolNow now() {
        return new SpoolNow(spool.heldBytes() + controlSpool.heldBytes(), spooledAcks.size(),
                controlWaitingLocked(), spooling, settings.limitBytes(), blocksSpooled);
    }

    /** Most bytes both spool files held at once since the previous call (or the start): a step's peak. */
    public synchronized long takePeriodHighWaterBytes() {
        long peak = periodHighWaterBytes;
        periodHighWaterBytes = spool.heldBytes() + controlSpool.heldBytes();
        return peak;
    }

    /** Control events not yet acknowledged. */
    public synchronized long controlEventsWaiting() {
        return controlWaitingLocked();
    }

    /** Blocks waiting in the spool. */
    public synchronized long spooledBlocks() {
        return spooledAcks.size();
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        try {
            replayer.join(5_000);
            controlSender.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            inner.close();
        } finally {
            Ack ack;
            int undelivered = 0;
            synchronized (this) {
                undelivered = spooledAcks.size();
            }
            if (undelivered > 0) {
                log.error("closing with {} blocks still spooled in {} (file kept): they were not delivered",
                        undelivered, spool.path());
                EmitException lost = new EmitException(undelivered + " blocks still spooled in " + spool.path()
                        + " when the run ended: not delivered", null);
                while (true) {
                    synchronized (this) {
                        ack = spooledAcks.poll();
                    }
                    if (ack == null) {
                        break;
                    }
                    ack.done(lost);
                }
            }
            long controlLeft;
            synchronized (this) {
                controlLeft = controlWaitingLocked();
            }
            if (controlLeft > 0) {
                log.error("closing with {} control events not delivered (file {} kept)", controlLeft,
                        controlSpool.path());
            }
            try {
                spool.close();
            } finally {
                controlSpool.close();
            }
        }
    }
}
