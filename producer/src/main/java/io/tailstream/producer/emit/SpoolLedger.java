package io.tailstream.producer.emit;

import java.util.concurrent.TimeUnit;

/**
 * What the block path and the control path of a {@link SpoolingTransport} share: the limit both spool files count
 * against, what was spooled (blocks, control events), the files' high-water marks, Kafka's last error and whether the
 * transport is closed. Its monitor is the one lock of the whole transport: it guards this ledger and the state of
 * {@link BlockSpool} and {@link ControlSender}, and the replay thread, the control thread and
 * {@link SpoolingTransport#flush} wait on it for news (every change notifies it).
 *
 * <p>Thread safe: methods whose names end in {@code Locked} must be called holding this object's monitor; the others
 * take it.
 */
final class SpoolLedger {

    /** Longest wait of the replay and control threads without news (they are notified of every change). */
    static final long IDLE_WAIT_MILLIS = 100;

    private final SpoolFile blockFile;
    private final SpoolFile controlFile;
    private final long limitBytes;
    // guarded by this
    private long blocksSpooled;
    private long controlEventsSpooled;
    private long heldHighWaterBytes;
    private long periodHighWaterBytes;
    private Exception lastKafkaError;
    private long lastKafkaErrorNanos;
    private boolean closed;

    /** @param limitBytes most bytes both files may hold together */
    SpoolLedger(SpoolFile blockFile, SpoolFile controlFile, long limitBytes) {
        this.blockFile = blockFile;
        this.controlFile = controlFile;
        this.limitBytes = limitBytes;
    }

    /**
     * Appends a block to the block file and counts it.
     *
     * @throws EmitException if it would take both files together past the limit
     */
    void spoolBlockLocked(SpoolFile.Entry e) {
        appendLocked(blockFile, e);
        blocksSpooled++;
    }

    /**
     * Appends a control event to the control file and counts it as one that waited for the broker.
     *
     * @throws EmitException if it would take both files together past the limit
     */
    void spoolControlEventLocked(SpoolFile.Entry e) {
        appendLocked(controlFile, e);
        controlEventsSpooled++;
    }

    /** Counts a control event that waited for the broker without going through the file (sent again). */
    void controlEventWaitedLocked() {
        controlEventsSpooled++;
    }

    private void appendLocked(SpoolFile file, SpoolFile.Entry e) {
        long held = heldBytesLocked();
        if (held + SpoolFile.recordBytes(e) > limitBytes) {
            throw SpoolFile.spoolFull(blockFile.path(), limitBytes, held, blocksSpooled + controlEventsSpooled);
        }
        file.append(e);
        held = heldBytesLocked();
        heldHighWaterBytes = Math.max(heldHighWaterBytes, held);
        periodHighWaterBytes = Math.max(periodHighWaterBytes, held);
    }

    /** Bytes both files hold on disk. */
    long heldBytesLocked() {
        return blockFile.heldBytes() + controlFile.heldBytes();
    }

    long blocksSpooledLocked() {
        return blocksSpooled;
    }

    long controlEventsSpooledLocked() {
        return controlEventsSpooled;
    }

    /** Bytes appended to both files since they were opened. */
    long bytesAppended() {
        return blockFile.bytesAppended() + controlFile.bytesAppended();
    }

    /** Most bytes both files held at once. */
    long highWaterBytesLocked() {
        return heldHighWaterBytes;
    }

    /** Most bytes both files held at once since the previous call (or the start). */
    long takePeriodHighWaterBytesLocked() {
        long peak = periodHighWaterBytes;
        periodHighWaterBytes = heldBytesLocked();
        return peak;
    }

    /** Remembers an error Kafka answered with, for messages; null (acknowledged) is ignored. */
    void noteErrorLocked(Exception error) {
        if (error != null) {
            lastKafkaError = error;
            lastKafkaErrorNanos = System.nanoTime();
        }
    }

    /** Kafka's last error, or null. */
    Exception lastKafkaErrorLocked() {
        return lastKafkaError;
    }

    /** Kafka's last error and its age, or {@code none}. */
    String describeLastErrorLocked() {
        return lastKafkaError == null ? "none" : lastKafkaError + ", "
                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastKafkaErrorNanos) + " ms ago";
    }

    boolean closedLocked() {
        return closed;
    }

    /** Marks the transport closed and wakes its threads so they end. */
    synchronized void close() {
        closed = true;
        notifyAll();
    }
}
