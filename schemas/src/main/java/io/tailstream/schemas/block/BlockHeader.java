package io.tailstream.schemas.block;

import java.util.List;

/**
 * Everything in a sample block but its samples.
 *
 * @param runId                run the block belongs to
 * @param producerId           the producer that sent it; with {@code blockSeq} it identifies the block
 * @param blockSeq             per-producer sequence number, starting at 0, one per block of any kind
 * @param stepId               step of the run the samples belong to
 * @param flags                {@link SampleBlock#FLAG_HEARTBEAT}, {@link SampleBlock#FLAG_END_OF_STEP},
 *                             {@link SampleBlock#FLAG_OPEN_LOOP}
 * @param sealedAtEpochMicros  the producer's clock when the block was sealed; for heartbeats and end-of-step
 *                             markers this is what moves time forward downstream
 * @param ops                  op names; a sample's op is an index into this list
 * @param sampleCount          number of samples that follow
 */
public record BlockHeader(
        String runId,
        String producerId,
        long blockSeq,
        int stepId,
        int flags,
        long sealedAtEpochMicros,
        List<String> ops,
        int sampleCount) {

    public BlockHeader {
        ops = List.copyOf(ops);
    }

    public boolean heartbeat() {
        return (flags & SampleBlock.FLAG_HEARTBEAT) != 0;
    }

    public boolean endOfStep() {
        return (flags & SampleBlock.FLAG_END_OF_STEP) != 0;
    }

    public boolean openLoop() {
        return (flags & SampleBlock.FLAG_OPEN_LOOP) != 0;
    }
}
