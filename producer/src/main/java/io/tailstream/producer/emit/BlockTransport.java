package io.tailstream.producer.emit;

/**
 * Sends blocks and control events somewhere: Kafka in production, a list in tests. Implementations are thread safe.
 */
public interface BlockTransport extends AutoCloseable {

    /** Called once per record when it is acknowledged ({@code error == null}) or finally failed. */
    @FunctionalInterface
    interface Ack {
        void done(Exception error);
    }

    /** Partitions of the samples topic: end-of-step markers go to each. */
    int samplePartitions();

    /**
     * Sends a block asynchronously; may block when the transport's own buffer is full (the emitter thread waits,
     * never a worker).
     *
     * @param partition the partition, or null to partition by key
     */
    void sendBlock(Integer partition, byte[] key, byte[] block, Ack ack);

    /**
     * Sends a control event. Returns when it is acknowledged, or, for a transport that spools
     * ({@link SpoolingTransport}), when it is queued behind the earlier ones, to be delivered in order; {@link #flush}
     * waits for it either way.
     *
     * @throws EmitException if it cannot be delivered (or queued)
     */
    void sendControl(byte[] key, byte[] json);

    /**
     * Sends a control event asynchronously; {@code ack} runs once when it is acknowledged or failed. By default
     * {@link #sendControl} run on the caller's thread.
     */
    default void sendControlAsync(byte[] key, byte[] json, Ack ack) {
        try {
            sendControl(key, json);
        } catch (RuntimeException e) {
            ack.done(e);
            return;
        }
        ack.done(null);
    }

    /**
     * Names of the threads this transport runs (a Kafka client's sender thread, a spool's replay thread), so the
     * load generator's CPU can count them; empty by default.
     */
    default java.util.Set<String> threadNames() {
        return java.util.Set.of();
    }

    /** Waits until every record sent so far is acknowledged or failed (and its {@link Ack} ran). */
    void flush();

    @Override
    void close();
}
