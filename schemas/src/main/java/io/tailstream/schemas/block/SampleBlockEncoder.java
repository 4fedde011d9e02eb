package io.tailstream.schemas.block;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Packs samples into a version-1 sample block (see {@code schemas/README.md}).
 *
 * <p>{@link #add} appends one sample to an internal buffer that is reused across blocks, so a steady stream of
 * samples allocates nothing; {@link #seal} writes the header, the samples and the CRC32C trailer into a new array
 * (the one allocation per block, which the Kafka producer needs anyway). Start times are delta-encoded against the
 * previous sample, every integer is a varint: a typical OLTP sample takes 5-7 bytes before compression.
 *
 * <p>Not thread safe: one encoder belongs to one thread at a time (a worker fills it, hands it to the emitter,
 * which seals and resets it).
 */
public final class SampleBlockEncoder {

    /** Worst case of one encoded sample: two 10-byte varints, one 10-byte lag, two 5-byte varints. */
    static final int MAX_SAMPLE_BYTES = 40;

    private final boolean openLoop;
    private final int maxSamples;
    private byte[] buf;
    private int pos;
    private int count;
    private long baseStartEpochMicros;
    private long prevStartEpochMicros;

    /**
     * @param maxSamples capacity: {@link #isFull()} turns true at this many samples
     * @param openLoop   samples carry an intended start ({@link SampleBlock#FLAG_OPEN_LOOP})
     */
    public SampleBlockEncoder(int maxSamples, boolean openLoop) {
        if (maxSamples < 1 || maxSamples > SampleBlock.MAX_SAMPLES) {
            throw new IllegalArgumentException(
                    "maxSamples must be in 1.." + SampleBlock.MAX_SAMPLES + ", was " + maxSamples);
        }
        this.maxSamples = maxSamples;
        this.openLoop = openLoop;
        // sized for typical samples; grows (rarely) if samples are unusually wide
        this.buf = new byte[Math.max(64, maxSamples * 8)];
    }

    /**
     * Appends one sample. Allocation-free unless the buffer must grow.
     *
     * @throws IllegalArgumentException if a value is out of the format's range, or the block is full
     */
    public void add(long startEpochMicros, long latencyMicros, long intendedStartEpochMicros, int opIndex,
                    SampleStatus status, int queries, boolean warmup) {
        // the per-sample path is kept small (checks and growth call out of line) so that the JIT inlines it into a
        // worker's loop without crowding out the workload's own code (docs/producer-benchmarks.md)
        if (count >= maxSamples) {
            throw full(maxSamples);
        }
        if ((latencyMicros | startEpochMicros | queries | opIndex) < 0 || opIndex >= SampleBlock.MAX_OPS) {
            throw outOfRange(startEpochMicros, latencyMicros, opIndex, queries);
        }
        if (buf.length - pos < MAX_SAMPLE_BYTES) {
            grow();
        }
        if (count == 0) {
            baseStartEpochMicros = startEpochMicros;
            prevStartEpochMicros = startEpochMicros;
        }
        long lag = 0;
        if (openLoop) {
            lag = startEpochMicros - intendedStartEpochMicros;
            if (lag < 0) {
                throw intendedAfterStart(intendedStartEpochMicros, startEpochMicros);
            }
        }
        writeVarLong(zigZag(startEpochMicros - prevStartEpochMicros));
        prevStartEpochMicros = startEpochMicros;
        writeVarLong(latencyMicros);
        writeVarLong(((long) opIndex << 5) | ((long) status.code() << 1) | (warmup ? 1 : 0));
        writeVarLong(queries);
        if (openLoop) {
            writeVarLong(lag);
        }
        count++;
    }

    private void grow() {
        buf = Arrays.copyOf(buf, buf.length * 2);
    }

    private static IllegalStateException full(int maxSamples) {
        return new IllegalStateException("block is full (" + maxSamples + " samples); seal it first");
    }

    private static IllegalArgumentException outOfRange(long start, long latency, int op, int queries) {
        return new IllegalArgumentException("sample out of range: start=" + start + " latency=" + latency + " op="
                + op + " queries=" + queries);
    }

    private static IllegalArgumentException intendedAfterStart(long intended, long start) {
        return new IllegalArgumentException("intended start " + intended + " is after the actual start " + start);
    }

    public int sampleCount() {
        return count;
    }

    public boolean isEmpty() {
        return count == 0;
    }

    public boolean isFull() {
        return count >= maxSamples;
    }

    public boolean openLoop() {
        return openLoop;
    }

    /** Forgets the samples; the buffer is kept for the next block. */
    public void reset() {
        pos = 0;
        count = 0;
    }

    /**
     * Writes the complete block: header, the samples added since the last {@link #reset()}, trailer. Does not
     * reset.
     *
     * @param extraFlags {@link SampleBlock#FLAG_END_OF_STEP} or 0 ({@code FLAG_OPEN_LOOP} is set from the
     *                   constructor)
     */
    public byte[] seal(String runId, String producerId, long blockSeq, int stepId, long sealedAtEpochMicros,
                       List<String> ops, int extraFlags) {
        int flags = extraFlags | (openLoop ? SampleBlock.FLAG_OPEN_LOOP : 0);
        if ((flags & SampleBlock.FLAG_HEARTBEAT) != 0 && count > 0) {
            throw new IllegalArgumentException("a heartbeat block carries no samples");
        }
        return assemble(runId, producerId, blockSeq, stepId, flags, sealedAtEpochMicros, ops, count,
                baseStartEpochMicros, buf, pos);
    }

    /**
     * A block without samples: a heartbeat ({@link SampleBlock#FLAG_HEARTBEAT}) or an end-of-step marker
     * ({@link SampleBlock#FLAG_END_OF_STEP}).
     */
    public static byte[] marker(String runId, String producerId, long blockSeq, int stepId, int flags,
                                long sealedAtEpochMicros, List<String> ops) {
        if (!SampleBlock.isMarker(flags)) {
            throw new IllegalArgumentException("a marker block needs FLAG_HEARTBEAT or FLAG_END_OF_STEP");
        }
        return assemble(runId, producerId, blockSeq, stepId, flags, sealedAtEpochMicros, ops, 0, 0, new byte[0], 0);
    }

    private static byte[] assemble(String runId, String producerId, long blockSeq, int stepId, int flags,
                                   long sealedAtEpochMicros, List<String> ops, int count, long baseStart,
                                   byte[] samples, int samplesLength) {
        if ((flags & ~SampleBlock.KNOWN_FLAGS) != 0) {
            throw new IllegalArgumentException("unknown flags 0x" + Integer.toHexString(flags));
        }
        if (blockSeq < 0 || stepId < 0 || sealedAtEpochMicros < 0) {
            throw new IllegalArgumentException("blockSeq, stepId and sealedAtEpochMicros must not be negative");
        }
        if (ops.size() > SampleBlock.MAX_OPS) {
            throw new IllegalArgumentException("at most " + SampleBlock.MAX_OPS + " ops per block, got " + ops.size());
        }
        byte[] run = utf8(runId, "runId", SampleBlock.MAX_ID_BYTES);
        byte[] producer = utf8(producerId, "producerId", SampleBlock.MAX_ID_BYTES);
        byte[][] opBytes = new byte[ops.size()][];
        int opsLength = 0;
        for (int i = 0; i < ops.size(); i++) {
            opBytes[i] = utf8(ops.get(i), "op", SampleBlock.MAX_OP_BYTES);
            opsLength += varLongSize(opBytes[i].length) + opBytes[i].length;
        }
        // the exact size, so the block is written once into its final array (no oversized buffer and copy)
        int size = SampleBlock.FIXED_HEADER_BYTES + varLongSize(run.length) + run.length
                + varLongSize(producer.length) + producer.length + varLongSize(blockSeq) + varLongSize(stepId)
                + varLongSize(sealedAtEpochMicros) + varLongSize(ops.size()) + opsLength + varLongSize(count)
                + varLongSize(baseStart) + samplesLength + SampleBlock.TRAILER_BYTES;
        Writer w = new Writer(new byte[size]);
        w.bytes[w.pos++] = SampleBlock.MAGIC_0;
        w.bytes[w.pos++] = SampleBlock.MAGIC_1;
        w.bytes[w.pos++] = SampleBlock.VERSION;
        w.bytes[w.pos++] = (byte) flags;
        w.string(run);
        w.string(producer);
        w.varLong(blockSeq);
        w.varLong(stepId);
        w.varLong(sealedAtEpochMicros);
        w.varLong(ops.size());
        for (byte[] op : opBytes) {
            w.string(op);
        }
        w.varLong(count);
        w.varLong(baseStart);
        System.arraycopy(samples, 0, w.bytes, w.pos, samplesLength);
        w.pos += samplesLength;
        CRC32C crc = new CRC32C();
        crc.update(w.bytes, 0, w.pos);
        int c = (int) crc.getValue();
        w.bytes[w.pos++] = (byte) (c >>> 24);
        w.bytes[w.pos++] = (byte) (c >>> 16);
        w.bytes[w.pos++] = (byte) (c >>> 8);
        w.bytes[w.pos++] = (byte) c;
        if (w.pos != size) {
            throw new IllegalStateException("block size computed as " + size + " bytes, written " + w.pos);
        }
        return w.bytes;
    }

    private static byte[] utf8(String s, String field, int maxBytes) {
        if (s == null) {
            throw new IllegalArgumentException(field + " must not be null");
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        if (b.length > maxBytes) {
            throw new IllegalArgumentException(field + " is " + b.length + " bytes, at most " + maxBytes + " allowed: " + s);
        }
        return b;
    }

    /** Bytes of {@code v} as an unsigned LEB128 varint. */
    static int varLongSize(long v) {
        return v == 0 ? 1 : (64 - Long.numberOfLeadingZeros(v) + 6) / 7;
    }

    static long zigZag(long v) {
        return (v << 1) ^ (v >> 63);
    }

    private void writeVarLong(long v) {
        while ((v & ~0x7FL) != 0) {
            buf[pos++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[pos++] = (byte) v;
    }

    private static final class Writer {
        final byte[] bytes;
        int pos;

        Writer(byte[] bytes) {
            this.bytes = bytes;
        }

        void varLong(long v) {
            while ((v & ~0x7FL) != 0) {
                bytes[pos++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            bytes[pos++] = (byte) v;
        }

        void string(byte[] s) {
            varLong(s.length);
            System.arraycopy(s, 0, bytes, pos, s.length);
            pos += s.length;
        }
    }
}
