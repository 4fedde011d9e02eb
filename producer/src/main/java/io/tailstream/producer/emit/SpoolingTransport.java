package io.tailstream.producer.emit;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

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
 * {@link ControlSender#CONTROL_WAIT}; otherwise (the broker is slow or away) it appends it to the control spool and
 * returns, and the control sender delivers it later. An event whose send fails with a retriable error is re-sent.
 * Both files count against the spool limit; reaching it stops the run; a control event that could not be spooled or
 * that Kafka refused for good fails every later send and {@link #flush}, so nothing is dropped silently.
 *
 * <p>Thread safe. The work is split over a {@link BlockSpool} (the block path and its replay thread), a
 * {@link ControlSender} (the control path and its thread) and a {@link SpoolLedger} (what both share); one monitor,
 * the ledger's, guards all of it, as the limit spans both files and {@link #flush} waits for both paths.
 */
public final class SpoolingTransport implements BlockTransport {

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

    private final BlockTransport inner;
    private final SpoolSettings settings;
    private final SpoolFile spool;
    private final SpoolFile controlSpool;
    private final SpoolLedger ledger;
    private final BlockSpool blocks;
    private final ControlSender control;
    private final Thread replayer;
    private final Thread controlSender;

    public SpoolingTransport(BlockTransport inner, SpoolSettings settings, String producerId) {
        this.inner = inner;
        this.settings = settings;
        String base = "spool-" + producerId.replaceAll("[^A-Za-z0-9._-]", "_");
        this.spool = new SpoolFile(settings.dir().resolve(base + ".bin"), settings.limitBytes());
        this.controlSpool = new SpoolFile(settings.dir().resolve(base + "-control.bin"), settings.limitBytes());
        this.ledger = new SpoolLedger(spool, controlSpool, settings.limitBytes());
        this.blocks = new BlockSpool(inner, ledger, spool, settings.maxInflightBytes());
        this.control = new ControlSender(inner, ledger, controlSpool);
        this.replayer = new Thread(blocks::replayLoop, "tailstream-spool-replay-" + producerId);
        this.replayer.setDaemon(true);
        this.replayer.start();
        this.controlSender = new Thread(control::sendLoop, "tailstream-spool-control-" + producerId);
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

    @Override
    public int samplePartitions() {
        return inner.samplePartitions();
    }

    @Override
    public void sendBlock(Integer partition, byte[] key, byte[] block, Ack ack) {
        blocks.send(partition, key, block, ack);
    }

    /**
     * Queues a control event behind the earlier ones: handed to Kafka when the previous one is acknowledged within
     * {@link ControlSender#CONTROL_WAIT}, else appended to the control spool. Does not wait for its acknowledgement
     * ({@link #flush} does).
     *
     * @throws EmitException if an earlier control event failed for good, or the spool is full
     */
    @Override
    public void sendControl(byte[] key, byte[] json) {
        control.send(key, json);
    }

    /** Waits until the spool is drained and every block acknowledged, at most the drain timeout. */
    @Override
    public void flush() {
        long deadline = System.nanoTime() + settings.drainTimeout().toNanos();
        while (true) {
            inner.flush();
            synchronized (ledger) {
                blocks.throwIfFailedLocked();
                control.throwIfFailedLocked();
                if (blocks.drainedLocked() && control.idleLocked()) {
                    return;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new EmitException("the spool " + spool.path() + " did not drain within "
                            + settings.drainTimeout().toSeconds() + " s (" + describeLocked()
                            + "): is the broker reachable?", ledger.lastKafkaErrorLocked());
                }
                try {
                    ledger.wait(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), 100)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new EmitException("interrupted while draining the spool " + spool.path(), e);
                }
            }
        }
    }

    /** What is waiting and why, for a message: counts, whether blocks are spooled, Kafka's last error and its age. */
    public String describe() {
        synchronized (ledger) {
            return describeLocked();
        }
    }

    private String describeLocked() {
        return blocks.describeWaitingLocked() + ", " + control.waitingLocked() + " control events waiting, "
                + blocks.describeSpoolingLocked() + "; last error from Kafka: " + ledger.describeLastErrorLocked();
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

    public SpoolStats stats() {
        synchronized (ledger) {
            return new SpoolStats(spool.path(), ledger.blocksSpooledLocked(), ledger.bytesAppended(),
                    ledger.highWaterBytesLocked(), blocks.episodesLocked(), ledger.controlEventsSpooledLocked(),
                    TimeUnit.NANOSECONDS.toMillis(blocks.spoolingNanosLocked()));
        }
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
    public SpoolNow now() {
        synchronized (ledger) {
            return new SpoolNow(ledger.heldBytesLocked(), blocks.waitingLocked(), control.waitingLocked(),
                    blocks.spoolingLocked(), settings.limitBytes(), ledger.blocksSpooledLocked());
        }
    }

    /** Most bytes both spool files held at once since the previous call (or the start): a step's peak. */
    public long takePeriodHighWaterBytes() {
        synchronized (ledger) {
            return ledger.takePeriodHighWaterBytesLocked();
        }
    }

    /** Control events not yet acknowledged. */
    public long controlEventsWaiting() {
        synchronized (ledger) {
            return control.waitingLocked();
        }
    }

    /** Blocks waiting in the spool. */
    public long spooledBlocks() {
        synchronized (ledger) {
            return blocks.waitingLocked();
        }
    }

    @Override
    public void close() {
        ledger.close();
        try {
            replayer.join(5_000);
            controlSender.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            inner.close();
        } finally {
            blocks.failUndelivered();
            control.reportUndelivered();
            try {
                spool.close();
            } finally {
                controlSpool.close();
            }
        }
    }
}
