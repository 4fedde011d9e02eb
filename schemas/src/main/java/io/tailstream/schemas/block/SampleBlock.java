package io.tailstream.schemas.block;

/**
 * Constants of the binary sample-block format, version 1. The format is specified field by field in
 * {@code schemas/README.md}; {@link SampleBlockEncoder} writes it and {@link SampleBlockDecoder} reads it.
 */
public final class SampleBlock {

    /** First two bytes of every block: ASCII {@code "TS"}. */
    public static final byte MAGIC_0 = 'T';
    public static final byte MAGIC_1 = 'S';
    /** The only version this code writes and reads. */
    public static final byte VERSION = 1;

    /** The block carries no samples; it only says the producer is alive and what its clock reads. */
    public static final int FLAG_HEARTBEAT = 1;
    /** The producer finished the step: no more samples of this step from this producer will follow. */
    public static final int FLAG_END_OF_STEP = 1 << 1;
    /** Samples carry their intended start (open-loop, coordinated-omission corrected). */
    public static final int FLAG_OPEN_LOOP = 1 << 2;
    static final int KNOWN_FLAGS = FLAG_HEARTBEAT | FLAG_END_OF_STEP | FLAG_OPEN_LOOP;

    /** Longest run or producer id, in UTF-8 bytes. */
    public static final int MAX_ID_BYTES = 128;
    /** Longest op name, in UTF-8 bytes. */
    public static final int MAX_OP_BYTES = 64;
    /** Most ops one block may name. */
    public static final int MAX_OPS = 64;
    /** Most samples one block may carry. */
    public static final int MAX_SAMPLES = 1 << 20;
    /** Smallest encoded sample: four one-byte varints. Bounds the sample count by the bytes present. */
    static final int MIN_SAMPLE_BYTES = 4;
    /** Fixed header part (magic, version, flags) and the CRC32C trailer. */
    static final int FIXED_HEADER_BYTES = 4;
    static final int TRAILER_BYTES = 4;

    private SampleBlock() {}

    /** True if the block is a heartbeat or end-of-step marker and carries no samples by definition. */
    public static boolean isMarker(int flags) {
        return (flags & (FLAG_HEARTBEAT | FLAG_END_OF_STEP)) != 0;
    }
}
