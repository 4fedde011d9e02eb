package io.tailstream.producer.emit;

import java.util.ArrayDeque;
import org.apache.kafka.common.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The block path of a {@link SpoolingTransport}: blocks go to the inner transport while less than
 * {@link SpoolSettings#maxInflightBytes()} are unacknowledged; beyond that, and for as long as anything is spooled,
 * they are appended to the block file, and the replay thread hands them to the inner transport in the order they
 * were spooled as soon as the in-flight bytes fall again. A block whose send fails with a retriable error is spooled
 * again rather than failed. Each block's {@link BlockTransport.Ack} runs exactly once. The transport runs
 * {@link #replayLoop} on its replay thread.
 *
 * <p>Thread safe: its state is guarded by the {@link SpoolLedger}'s monitor, which it shares with the control path;
 * methods whose names end in {@code Locked} must be called holding it.
 */
final class BlockSpool {

    // the console folds this logger's warnings: the spool's messages keep the transport's name
    private static final Logger log = LoggerFactory.getLogger(SpoolingTransport.class);

    private final BlockTransport inner;
    private final SpoolLedger ledger;
    private final SpoolFile spool;
    private final long maxInflightBytes;
    // guarded by ledger
    private final ArrayDeque<BlockTransport.Ack> spooledAcks = new ArrayDeque<>();
    private long inflightBytes;
    private long inflightBlocks;
    private boolean spooling;
    private RuntimeException replayFailure;
    private long spoolEpisodes;
    private long spoolingSinceNanos;
    private long spoolingNanos;

    BlockSpool(BlockTransport inner, SpoolLedger ledger, SpoolFile spool, long maxInflightBytes) {
        this.inner = inner;
        this.ledger = ledger;
        this.spool = spool;
        this.maxInflightBytes = maxInflightBytes;
    }

    /** See {@link SpoolingTransport#sendBlock}. */
    void send(Integer partition, byte[] key, byte[] block, BlockTransport.Ack ack) {
        synchronized (ledger) {
            throwIfFailedLocked();
            if (spooling || inflightBytes + block.length > maxInflightBytes) {
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

    private void spoolLocked(SpoolFile.Entry e, BlockTransport.Ack ack) {
        ledger.spoolBlockLocked(e);
        spooledAcks.add(ack);
        ledger.notifyAll();
    }

    private void sendInner(SpoolFile.Entry e, BlockTransport.Ack ack) {
        inner.sendBlock(e.partition(), e.key(), e.block(), error -> done(e, ack, error));
    }

    private void done(SpoolFile.Entry e, BlockTransport.Ack ack, Exception error) {
        boolean retry = error instanceof RetriableException;
        synchronized (ledger) {
            ledger.noteErrorLocked(error);
            inflightBytes -= e.block().length;
            inflightBlocks--;
            if (retry && !ledger.closedLocked()) {
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
                ledger.notifyAll();
            }
        }
        ack.done(error);
    }

    /**
     * The replay thread's work: hands spooled blocks to the inner transport, in order, while the in-flight bytes are
     * below half their limit. Returns once the ledger is closed or the spool cannot be read.
     */
    void replayLoop() {
        while (true) {
            SpoolFile.Entry e;
            BlockTransport.Ack ack;
            synchronized (ledger) {
                try {
                    while (!ledger.closedLocked() && (spool.isEmpty() || inflightBytes >= maxInflightBytes / 2)) {
                        if (spooling && spool.isEmpty() && spool.resetIfCaughtUp()) {
                            spooling = false; // caught up: new blocks go straight to Kafka again, after these
                            spoolingNanos += System.nanoTime() - spoolingSinceNanos;
                            log.info("spool {} replayed; sending directly again", spool.path());
                        }
                        // woken by spooled blocks and acknowledgements; the timeout is a safety net
                        ledger.wait(SpoolLedger.IDLE_WAIT_MILLIS);
                    }
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
                if (ledger.closedLocked()) {
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

    /** @throws EmitException if the replay failed: blocks behind the failure cannot be delivered */
    void throwIfFailedLocked() {
        if (replayFailure != null) {
            throw new EmitException("the spool replay failed: " + replayFailure.getMessage(), replayFailure);
        }
    }

    /** True once the spool is empty and every block sent is acknowledged. */
    boolean drainedLocked() {
        return spool.isEmpty() && inflightBlocks == 0;
    }

    /** Blocks in the spool, not yet handed to Kafka. */
    long waitingLocked() {
        return spooledAcks.size();
    }

    boolean spoolingLocked() {
        return spooling;
    }

    /** How long the block path spooled, over all episodes (until now for an episode still going on). */
    long spoolingNanosLocked() {
        return spoolingNanos + (spooling ? System.nanoTime() - spoolingSinceNanos : 0);
    }

    /** For a message: {@code 3 blocks waiting, 2 unacknowledged (200 bytes)}. */
    String describeWaitingLocked() {
        return spooledAcks.size() + " blocks waiting, " + inflightBlocks + " unacknowledged (" + inflightBytes
                + " bytes)";
    }

    /** For a message: {@code 90 blocks spooled in 1 episodes, spooling}, and the replay's failure if any. */
    String describeSpoolingLocked() {
        return ledger.blocksSpooledLocked() + " blocks spooled in " + spoolEpisodes + " episodes, "
                + (spooling ? "spooling" : "sending directly")
                + (replayFailure != null ? ", replay failed: " + replayFailure.getMessage() : "");
    }

    long episodesLocked() {
        return spoolEpisodes;
    }

    /** At close: fails the acknowledgement of every block still spooled (the file is kept). */
    void failUndelivered() {
        int undelivered;
        synchronized (ledger) {
            undelivered = spooledAcks.size();
        }
        if (undelivered == 0) {
            return;
        }
        log.error("closing with {} blocks still spooled in {} (file kept): they were not delivered",
                undelivered, spool.path());
        EmitException lost = new EmitException(undelivered + " blocks still spooled in " + spool.path()
                + " when the run ended: not delivered", null);
        while (true) {
            BlockTransport.Ack ack;
            synchronized (ledger) {
                ack = spooledAcks.poll();
            }
            if (ack == null) {
                break;
            }
            ack.done(lost);
        }
    }
}
