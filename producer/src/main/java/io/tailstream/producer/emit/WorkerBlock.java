package io.tailstream.producer.emit;

import io.tailstream.schemas.block.SampleBlockEncoder;

/**
 * One block a worker fills. The worker hands it over when it is full or its samples are {@code maxBlockAge} old;
 * the emitter may meanwhile seal the samples of an idle worker's block into blocks of their own
 * ({@link SampleBlockEncoder#sealPublished}), and {@link #position} says how far it got. No lock or atomic is
 * needed between the two: the worker never changes a published sample, and the emitter's thread is the one that
 * both takes samples from a worker's block and, once the block is handed over, sends what it has not taken and
 * resets the encoder, so it always sees its own {@link #position}.
 *
 * <p>Not thread safe by itself: its worker and the emitter's thread share it only as described above.
 */
final class WorkerBlock {
    final BlockEmitter.Step step;
    final SampleBlockEncoder enc;
    /** The worker hands the block over at its first sample ending at or after this. */
    final long handOverAtMicros;
    /** The emitter's: how far it sealed the samples, and since when the samples after that may wait. */
    SampleBlockEncoder.Position position = SampleBlockEncoder.Position.START;
    long waitingSinceNanos;

    WorkerBlock(BlockEmitter.Step step, SampleBlockEncoder enc, long openedNanos, long handOverAtMicros) {
        this.step = step;
        this.enc = enc;
        this.waitingSinceNanos = openedNanos;
        this.handOverAtMicros = handOverAtMicros;
    }
}
