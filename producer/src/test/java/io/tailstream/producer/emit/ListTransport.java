package io.tailstream.producer.emit;

import java.util.ArrayList;
import java.util.List;

/** Records what would be sent and acknowledges it at once. Thread safe. */
public final class ListTransport implements BlockTransport {

    public record Sent(Integer partition, byte[] key, byte[] block) {}

    private final int partitions;
    final List<Sent> blocks = new ArrayList<>();
    private final List<byte[]> control = new ArrayList<>();
    volatile Exception failWith;

    public ListTransport(int partitions) {
        this.partitions = partitions;
    }

    @Override
    public int samplePartitions() {
        return partitions;
    }

    @Override
    public synchronized void sendBlock(Integer partition, byte[] key, byte[] block, Ack ack) {
        blocks.add(new Sent(partition, key, block));
        ack.done(failWith);
    }

    @Override
    public synchronized void sendControl(byte[] key, byte[] json) {
        control.add(json);
    }

    @Override
    public void flush() {
        // acknowledged synchronously
    }

    @Override
    public void close() {
        // nothing to release
    }

    public synchronized List<byte[]> control() {
        return List.copyOf(control);
    }

    public synchronized List<Sent> blocks() {
        return List.copyOf(blocks);
    }
}
