package io.tailstream.producer.emit;

import io.tailstream.schemas.block.SampleBlockEncoder;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The block buffers (encoders) of one emitter: created on demand up to {@link EmitterSettings#maxBufferedBlocks()},
 * then recycled through lock-free queues of spares, one for open-loop and one for closed-loop encoders (their
 * samples differ). Waiting for a spare when every buffer is in use is the caller's (see
 * {@link BlockWriter}).
 *
 * <p>Thread safe (lock-free).
 */
final class EncoderPool {

    private final int maxEncoders;
    private final int samplesPerBlock;
    private final ConcurrentLinkedQueue<SampleBlockEncoder> sparesClosed = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<SampleBlockEncoder> sparesOpen = new ConcurrentLinkedQueue<>();
    private final AtomicInteger created = new AtomicInteger();

    EncoderPool(int maxEncoders, int samplesPerBlock) {
        this.maxEncoders = maxEncoders;
        this.samplesPerBlock = samplesPerBlock;
    }

    /** A spare, else a new encoder while fewer than the maximum exist, else null. */
    SampleBlockEncoder take(boolean openLoop) {
        SampleBlockEncoder e = spare(openLoop);
        if (e != null) {
            return e;
        }
        if (created.incrementAndGet() <= maxEncoders) {
            return new SampleBlockEncoder(samplesPerBlock, openLoop);
        }
        created.decrementAndGet();
        return null;
    }

    /** A spare, or null if none is free. */
    SampleBlockEncoder spare(boolean openLoop) {
        return (openLoop ? sparesOpen : sparesClosed).poll();
    }

    /** Gives an encoder (reset) back to the spares. */
    void release(SampleBlockEncoder enc) {
        (enc.openLoop() ? sparesOpen : sparesClosed).add(enc);
    }

    /** Encoders created so far. */
    int created() {
        return Math.min(created.get(), maxEncoders);
    }
}
