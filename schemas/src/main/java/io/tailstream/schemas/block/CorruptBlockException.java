package io.tailstream.schemas.block;

/**
 * A sample block that cannot be decoded: wrong magic, unknown version, bad checksum, truncated, or a field whose
 * value breaks the format's limits. The message names the reason and the byte offset where decoding stopped.
 */
public final class CorruptBlockException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int offset;

    public CorruptBlockException(String reason, int offset) {
        super(reason + " (at byte " + offset + ")");
        this.offset = offset;
    }

    /** Byte offset in the block where the problem was found. */
    public int offset() {
        return offset;
    }
}
