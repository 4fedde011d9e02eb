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
 * <p>Control events are not spooled (they are few and each is awaited): the broker must be reachable when a run
 * starts and when steps start and end, within Kafka's timeouts.
 *
 * <p>Thread safe.
 */
public final class SpoolingTransport implements BlockTransport {

    private static final Logger log = LoggerFactory.getLogger(SpoolingTransport.class);

    private final BlockTransport inner;
    private final SpoolSettings settings;
    private final SpoolFile spool;
    private final Thread replayer;
    // guarded by this
    private final ArrayDeque<Ack> spooledAcks = new ArrayDeque<>();
    private long inflightBytes;
    private long inflightBlocks;
    private boolean spooling;
    private boolean closed;
    private RuntimeException replayFailure;
    private long blocksSpooled;
    private long spoolEpisodes;

    public SpoolingTransport(BlockTransport inner, SpoolSettings settings, String producerId) {
        this.inner = inner;
        this.settings = settings;
        this.spool = new SpoolFile(settings.dir().resolve("spool-" + producerId.replaceAll("[^A-Za-z0-9._-]", "_")
                + ".bin"), settings.limitBytes());
        this.replayer = new Thread(this::replayLoop, "tailstream-spool-replay-" + producerId);
        this.replayer.setDaemon(true);
        this.replayer.start();
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
                    spooling = true;
                    spoolEpisodes++;
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

    private void spoolLocked(SpoolFile.Entry e, Ack ack) {
        spool.append(e);
        spooledAcks.add(ack);
        blocksSpooled++;
        notifyAll();
    }

    private void sendInner(SpoolFile.Entry e, Ack ack) {
        inner.sendBlock(e.partition(), e.key(), e.block(), error -> done(e, ack, error));
    }

    private void done(SpoolFile.Entry e, Ack ack, Exception error) {
        boolean retry = error instanceof RetriableException;
        synchronized (this) {
            inflightBytes -= e.block().length;
            inflightBlocks--;
            if (retry && !closed) {
                try {
                    if (!spooling) {
                        spooling = true;
                        spoolEpisodes++;
                    }
                    spoolLocked(e, ack);
                    return;
                } catch (RuntimeException full) {
                    error = full;
                }
            }
            notifyAll();
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
                            log.info("spool {} replayed; sending directly again", spool.path());
                        }
                        wait(20);
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

    @Override
    public void sendControl(byte[] key, byte[] json) {
        inner.sendControl(key, json);
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
                if (spool.isEmpty() && inflightBlocks == 0) {
                    return;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new EmitException("the spool " + spool.path() + " did not drain within "
                            + settings.drainTimeout().toSeconds() + " s (" + spooledAcks.size()
                            + " blocks waiting, " + inflightBlocks + " unacknowledged): is the broker reachable?",
                            null);
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

    /** What the spool did in this run. */
    public record SpoolStats(Path path, long blocksSpooled, long bytesSpooled, long highWaterBytes, long episodes) {}

    public synchronized SpoolStats stats() {
        return new SpoolStats(spool.path(), blocksSpooled, spool.bytesAppended(), spool.highWaterBytes(),
                spoolEpisodes);
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
            spool.close();
        }
    }
}
