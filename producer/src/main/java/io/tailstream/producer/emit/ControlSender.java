package io.tailstream.producer.emit;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control path of a {@link SpoolingTransport}: one control event is in flight at a time, the next is sent only
 * once the previous one is acknowledged, so they reach the control topic exactly in the order they were sent.
 * {@link #send} hands an event to Kafka when the previous one is acknowledged within {@link #CONTROL_WAIT};
 * otherwise it appends it to the control spool file and returns, and the control thread delivers it later. An event
 * whose send fails with a retriable error is sent again. A control event that could not be spooled or that Kafka
 * refused for good is a sticky failure: every later send and the transport's flush fail with it, so nothing is
 * dropped silently. The transport runs {@link #sendLoop} on its control thread.
 *
 * <p>Thread safe: its state is guarded by the {@link SpoolLedger}'s monitor, which it shares with the block path;
 * methods whose names end in {@code Locked} must be called holding it.
 */
final class ControlSender {

    // the console folds this logger's warnings (a retry per backoff while Kafka is away): keep the transport's name
    private static final Logger log = LoggerFactory.getLogger(SpoolingTransport.class);

    /** How long {@link #send} waits for the previous control event before spooling the next. */
    static final Duration CONTROL_WAIT = Duration.ofMillis(500);
    /** Pause before a control event whose send failed with a retriable error is sent again. */
    static final Duration CONTROL_RETRY_BACKOFF = Duration.ofMillis(200);

    private final BlockTransport inner;
    private final SpoolLedger ledger;
    private final SpoolFile controlSpool;
    // guarded by ledger: the control event being delivered (oldest first), and what follows it in controlSpool
    private SpoolFile.Entry head;
    private boolean headSent;
    private boolean headCounted;
    private long retryAtNanos;
    private long queued;
    private EmitException failure;

    ControlSender(BlockTransport inner, SpoolLedger ledger, SpoolFile controlSpool) {
        this.inner = inner;
        this.ledger = ledger;
        this.controlSpool = controlSpool;
    }

    /**
     * Queues a control event behind the earlier ones: handed to Kafka when the previous one is acknowledged within
     * {@link #CONTROL_WAIT}, else appended to the control spool. Does not wait for its acknowledgement.
     *
     * @throws EmitException if an earlier control event failed for good, or the spool is full
     */
    void send(byte[] key, byte[] json) {
        SpoolFile.Entry e = new SpoolFile.Entry(null, key, json);
        synchronized (ledger) {
            throwIfFailedLocked();
            if (ledger.closedLocked()) {
                throw new EmitException("control event sent after the spool " + controlSpool.path() + " closed", null);
            }
            long deadline = System.nanoTime() + CONTROL_WAIT.toNanos();
            while (head != null || queued > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || failure != null) {
                    break;
                }
                try {
                    ledger.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    break; // spooled below rather than lost
                }
            }
            throwIfFailedLocked();
            if (head == null && queued == 0) {
                head = e;
                headSent = false;
                headCounted = false;
                ledger.notifyAll();
                return;
            }
            try {
                ledger.spoolControlEventLocked(e);
            } catch (RuntimeException full) {
                // sticky: every later control event and flush fails with it, so the run stops saying why
                failure = full instanceof EmitException ee ? ee
                        : new EmitException("cannot spool a control event: " + full.getMessage(), full);
                ledger.notifyAll();
                throw failure;
            }
            queued++;
            ledger.notifyAll();
        }
    }

    /** @throws EmitException if a control event failed for good */
    void throwIfFailedLocked() {
        if (failure != null) {
            throw new EmitException(failure.getMessage(), failure);
        }
    }

    /**
     * The control thread's work: delivers control events one at a time, in order: the next is sent only once the
     * previous is acknowledged. Returns once the ledger is closed or a control event failed for good.
     */
    void sendLoop() {
        while (true) {
            SpoolFile.Entry e;
            synchronized (ledger) {
                try {
                    while (!ledger.closedLocked() && failure == null && !readyLocked()) {
                        long waitMs = head != null && !headSent
                                ? Math.max(1, TimeUnit.NANOSECONDS.toMillis(retryAtNanos - System.nanoTime()))
                                : SpoolLedger.IDLE_WAIT_MILLIS;
                        ledger.wait(Math.min(waitMs, SpoolLedger.IDLE_WAIT_MILLIS));
                    }
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
                if (ledger.closedLocked() || failure != null) {
                    return;
                }
                if (head == null) {
                    try {
                        head = controlSpool.next();
                    } catch (RuntimeException ex) {
                        failure = new EmitException("control spool replay failed: " + ex.getMessage(), ex);
                        ledger.notifyAll();
                        return;
                    }
                    queued--;
                    headCounted = true; // counted when it was spooled
                    if (queued == 0) {
                        controlSpool.resetIfCaughtUp();
                    }
                }
                headSent = true;
                e = head;
            }
            try {
                inner.sendControlAsync(e.key(), e.block(), error -> done(e, error));
            } catch (RuntimeException ex) {
                done(e, ex);
            }
        }
    }

    private boolean readyLocked() {
        if (head != null) {
            return !headSent && System.nanoTime() >= retryAtNanos;
        }
        return queued > 0;
    }

    private void done(SpoolFile.Entry e, Exception error) {
        synchronized (ledger) {
            if (head != e) {
                return; // defensive: each head is acknowledged once
            }
            ledger.noteErrorLocked(error);
            if (error == null) {
                head = null;
                headSent = false;
            } else if (error instanceof RetriableException && !ledger.closedLocked()) {
                log.warn("control event not acknowledged by Kafka ({}): sending it again", error.toString());
                headSent = false;
                retryAtNanos = System.nanoTime() + CONTROL_RETRY_BACKOFF.toNanos();
                if (!headCounted) {
                    headCounted = true;
                    ledger.controlEventWaitedLocked();
                }
            } else {
                failure = new EmitException("a control event (" + e.block().length + " bytes) could not be"
                        + " delivered to Kafka: " + error.getMessage(), error);
                log.error("{}", failure.getMessage());
            }
            ledger.notifyAll();
        }
    }

    /** True when no control event is waiting or in flight. */
    boolean idleLocked() {
        return head == null && queued == 0;
    }

    /** Control events not yet acknowledged. */
    long waitingLocked() {
        return queued + (head != null ? 1 : 0);
    }

    /** At close: says how many control events were not delivered (the file is kept). */
    void reportUndelivered() {
        long left;
        synchronized (ledger) {
            left = waitingLocked();
        }
        if (left > 0) {
            log.error("closing with {} control events not delivered (file {} kept)", left, controlSpool.path());
        }
    }
}
