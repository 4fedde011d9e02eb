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

    /** Sends a control event and waits for its acknowledgement. */
    void sendControl(byte[] key, byte[] json);

    /** Waits until every record sent so far is acknowledged or failed (and its {@link Ack} ran). */
    void flush();

    @Override
    void close();
}
