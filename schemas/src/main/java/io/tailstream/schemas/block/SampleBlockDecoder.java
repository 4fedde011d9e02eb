package io.tailstream.schemas.block;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Reads version-1 sample blocks (see {@code schemas/README.md}).
 *
 * <p>Everything in a block is untrusted: the checksum is verified before any field is parsed, every length and
 * count is checked against the format's limits and against the bytes actually present before it is used, and
 * nothing is allocated from a length read off the wire beyond those limits. Any violation is a
 * {@link CorruptBlockException} naming the reason and the offset.
 *
 * <p>Stateless and thread safe.
 */
public final class SampleBlockDecoder {

    private SampleBlockDecoder() {}

    /** Validates the block and returns its header without visiting the samples. */
    public static BlockHeader readHeader(byte[] block) {
        Reader r = new Reader(block);
        return r.header();
    }

    /**
     * Validates the block and passes each sample to the visitor, in block order.
     *
     * @return the block's header
     * @throws CorruptBlockException if the block is not a valid version-1 block
     */
    public static BlockHeader decode(byte[] block, SampleVisitor visitor) {
        Reader r = new Reader(block);
        BlockHeader header = r.header();
        r.samples(header, visitor);
        return header;
    }

    /** Decodes a block into sample objects (allocates one per sample: not for hot paths). */
    public static List<Sample> samples(byte[] block) {
        List<Sample> out = new ArrayList<>();
        decode(block, (start, latency, intended, op, status, queries, warmup) ->
                out.add(new Sample(start, latency, intended, op, status, queries, warmup)));
        return out;
    }

    private static final class Reader {
        private final byte[] b;
        private final int end; // exclusive end of the payload (start of the trailer)
        private int pos;
        private long baseStart;

        Reader(byte[] block) {
            if (block == null) {
                throw new CorruptBlockException("block is null", 0);
            }
            this.b = block;
            if (block.length < SampleBlock.FIXED_HEADER_BYTES + SampleBlock.TRAILER_BYTES) {
                throw new CorruptBlockException("block is " + block.length + " bytes, shorter than any valid block", 0);
            }
            if (block[0] != SampleBlock.MAGIC_0 || block[1] != SampleBlock.MAGIC_1) {
                throw new CorruptBlockException(String.format("bad magic 0x%02x%02x, expected 0x5453 (\"TS\")",
                        block[0] & 0xFF, block[1] & 0xFF), 0);
            }
            if (block[2] != SampleBlock.VERSION) {
                throw new CorruptBlockException("unsupported block version " + (block[2] & 0xFF)
                        + "; this reader knows version " + SampleBlock.VERSION, 2);
            }
            this.end = block.length - SampleBlock.TRAILER_BYTES;
            CRC32C crc = new CRC32C();
            crc.update(block, 0, end);
            int expected = ((block[end] & 0xFF) << 24) | ((block[end + 1] & 0xFF) << 16)
                    | ((block[end + 2] & 0xFF) << 8) | (block[end + 3] & 0xFF);
            if ((int) crc.getValue() != expected) {
                throw new CorruptBlockException(String.format("checksum mismatch: block says %08x, content gives %08x",
                        expected, (int) crc.getValue()), end);
            }
            this.pos = 3;
        }

        BlockHeader header() {
            int flags = b[pos++] & 0xFF;
            if ((flags & ~SampleBlock.KNOWN_FLAGS) != 0) {
                throw new CorruptBlockException("unknown flags 0x" + Integer.toHexString(flags), pos - 1);
            }
            String runId = string("runId", SampleBlock.MAX_ID_BYTES);
            String producerId = string("producerId", SampleBlock.MAX_ID_BYTES);
            long blockSeq = varLong("blockSeq");
            long stepId = varLong("stepId");
            if (stepId > Integer.MAX_VALUE) {
                throw new CorruptBlockException("stepId " + stepId + " out of range", pos);
            }
            long sealedAt = varLong("sealedAtEpochMicros");
            long opCount = varLong("opCount");
            if (opCount > SampleBlock.MAX_OPS) {
                throw new CorruptBlockException("block names " + opCount + " ops, at most " + SampleBlock.MAX_OPS, pos);
            }
            List<String> ops = new ArrayList<>((int) opCount);
            for (int i = 0; i < opCount; i++) {
                ops.add(string("op", SampleBlock.MAX_OP_BYTES));
            }
            int countAt = pos;
            long count = varLong("sampleCount");
            if (count > SampleBlock.MAX_SAMPLES) {
                throw new CorruptBlockException("sample count " + count + " exceeds the limit " + SampleBlock.MAX_SAMPLES,
                        countAt);
            }
            baseStart = varLong("baseStartEpochMicros");
            if (count > (long) (end - pos) / SampleBlock.MIN_SAMPLE_BYTES) {
                throw new CorruptBlockException("sample count " + count + " cannot fit in the " + (end - pos)
                        + " bytes left", countAt);
            }
            if (SampleBlock.isMarker(flags) && count != 0) {
                throw new CorruptBlockException("a heartbeat or end-of-step block must carry no samples, has " + count,
                        countAt);
            }
            return new BlockHeader(runId, producerId, blockSeq, (int) stepId, flags, sealedAt, ops, (int) count);
        }

        void samples(BlockHeader h, SampleVisitor visitor) {
            boolean openLoop = h.openLoop();
            int opCount = h.ops().size();
            long start = baseStart;
            for (int i = 0; i < h.sampleCount(); i++) {
                int at = pos;
                start += unZigZag(rawVarLong("startDelta"));
                long latency = varLong("latencyMicros");
                long code = varLong("opStatus");
                long queries = varLong("queries");
                long lag = openLoop ? varLong("scheduleLagMicros") : 0;
                int op = (int) (code >>> 5);
                int statusCode = (int) ((code >>> 1) & 0xF);
                if ((code >>> 5) >= opCount) {
                    throw new CorruptBlockException("sample " + i + " names op " + (code >>> 5) + " but the block has "
                            + opCount + " ops", at);
                }
                if (start < 0 || queries > Integer.MAX_VALUE || lag > start) {
                    throw new CorruptBlockException("sample " + i + " has out-of-range values", at);
                }
                SampleStatus status;
                try {
                    status = SampleStatus.ofCode(statusCode);
                } catch (IllegalArgumentException e) {
                    throw new CorruptBlockException("sample " + i + ": " + e.getMessage(), at);
                }
                visitor.sample(start, latency, start - lag, op, status, (int) queries, (code & 1) != 0);
            }
            if (pos != end) {
                throw new CorruptBlockException((end - pos) + " unexpected bytes after the last sample", pos);
            }
        }

        private String string(String field, int maxBytes) {
            int at = pos;
            long len = varLong(field + " length");
            if (len > maxBytes) {
                throw new CorruptBlockException(field + " length " + len + " exceeds the limit " + maxBytes, at);
            }
            if (len > end - pos) {
                throw new CorruptBlockException(field + " length " + len + " runs past the end of the block", at);
            }
            String s = new String(b, pos, (int) len, StandardCharsets.UTF_8);
            pos += (int) len;
            return s;
        }

        /** A non-negative varint (values above {@code Long.MAX_VALUE} are corrupt). */
        private long varLong(String field) {
            int at = pos;
            long v = rawVarLong(field);
            if (v < 0) {
                throw new CorruptBlockException(field + " is out of range", at);
            }
            return v;
        }

        /** Any 64-bit varint; the field name is only used in the error message. */
        private long rawVarLong(String field) {
            long result = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (pos >= end) {
                    throw new CorruptBlockException("truncated while reading " + field, pos);
                }
                byte x = b[pos++];
                result |= (long) (x & 0x7F) << shift;
                if ((x & 0x80) == 0) {
                    return result;
                }
            }
            throw new CorruptBlockException("varint longer than 10 bytes in " + field, pos);
        }

        private static long unZigZag(long v) {
            return (v >>> 1) ^ -(v & 1);
        }
    }
}
