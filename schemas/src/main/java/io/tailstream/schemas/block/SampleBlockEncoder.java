package io.tailstream.schemas.block;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
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
 * <p>One encoder belongs to one thread at a time (a worker fills it, hands it to the emitter, which seals and resets
 * it). One other thread may meanwhile read what the owner has added so far, without a lock: {@link #sealPublished}
 * seals the samples added since a {@link Position} into a block of their own, while the owner keeps adding. Each
 * {@link #add} publishes its sample with a release store (a plain store on x86, where a lock would cost two atomic
 * instructions per sample), and the bytes of a published sample never change until {@link #reset()}.
 */
public final class SampleBlockEncoder {

    private static final VarHandle PUBLISHED;

    static {
        try {
            PUBLISHED = MethodHandles.lookup().findVarHandle(SampleBlockEncoder.class, "published", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Worst case of one encoded sample: two 10-byte varints, one 10-byte lag, two 5-byte varints. */
    static final int MAX_SAMPLE_BYTES = 40;

    private final boolean openLoop;
    private final int maxSamples;
    private byte[] buf;
    private int pos;
    private int count;
    private long baseStartEpochMicros;
    private long prevStartEpochMicros;
    /** {@code count << 32 | pos} as of the last {@link #add}: release-stored by the owner, read with acquire. */
    @SuppressWarnings("unused") // through PUBLISHED
    private long published;
    /** {@link #buf} as of its last growth, for a reading thread: growth copies every published byte first. */
    private volatile byte[] publishedBuf;

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
        this.publishedBuf = buf;
    }

    /**
     * Appends one sample. Allocation-free unless the buffer must grow.
     *
     * @throws IllegalArgumentException if a value is out of the format's range, or the block is full
     */
    public void add(long startEpochMicros, long latencyMicros, long intendedStartEpochMicros, int opIndex,
                    SampleStatus status, int queries, boolean warmup) {
        // the per-sample path is kept small (checks and growth call out of line) so that the JIT inlines it into a
        // worker's loop without crowding out the workload's own code (docs/benchmarks.md)
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
        PUBLISHED.setRelease(this, ((long) count << 32) | pos);
    }

    private void grow() {
        buf = Arrays.copyOf(buf, buf.length * 2);
        publishedBuf = buf;
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

    /**
     * Samples added so far as a reading thread sees them: every sample counted here can be sealed by
     * {@link #sealPublished}. Safe to call from any thread.
     */
    public int publishedSampleCount() {
        return (int) ((long) PUBLISHED.getAcquire(this) >>> 32);
    }

    /** Forgets the samples; the buffer is kept for the next block. Never while another thread reads. */
    public void reset() {
        pos = 0;
        count = 0;
        PUBLISHED.setRelease(this, 0L);
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
                baseStartEpochMicros, buf, 0, pos, false);
    }

    /**
     * How far a reader has sealed an encoder's samples into blocks: {@code samples} samples taking {@code pos} bytes,
     * the last of them started at {@code lastStartEpochMicros} (irrelevant when {@code samples == 0}).
     */
    public record Position(int samples, int pos, long lastStartEpochMicros) {
        /** Nothing sealed yet. */
        public static final Position START = new Position(0, 0, 0);
    }

    /** A block sealed by {@link #sealPublished}: its bytes, its sample count, and where the next one starts. */
    public record Sealed(byte[] block, int samples, Position next) {}

    /**
     * Seals the samples published since {@code from} into a block of their own (a complete, valid block: its base
     * start is its first sample's start), or returns null if none were added since. Unlike {@link #seal}, this may run
     * on another thread while the owner keeps adding: samples the owner adds meanwhile are not included, and
     * {@link Sealed#next()} is where a later call continues. One reader at a time, never across {@link #reset()}.
     * The samples are walked once to find where the next block starts, so this costs more than {@link #seal}: it is
     * meant for taking the samples of an idle owner, not for every block.
     */
    public Sealed sealPublished(Position from, String runId, String producerId, long blockSeq, int stepId,
                                long sealedAtEpochMicros, List<String> ops, int extraFlags) {
        long p = (long) PUBLISHED.getAcquire(this);
        int toSamples = (int) (p >>> 32);
        int toPos = (int) p;
        if (toSamples <= from.samples()) {
            return null;
        }
        byte[] b = publishedBuf; // after the acquire: holds every published byte
        long start = from.samples() == 0 ? baseStartEpochMicros : from.lastStartEpochMicros();
        int firstDeltaEnd = skipVarLong(b, from.pos());
        long firstStart = start + unZigZag(readVarLong(b, from.pos()));
        long last = firstStart;
        int at = skipSampleAfterDelta(b, firstDeltaEnd);
        for (int i = from.samples() + 1; i < toSamples; i++) {
            last += unZigZag(readVarLong(b, at));
            at = skipSampleAfterDelta(b, skipVarLong(b, at));
        }
        if (at != toPos) {
            throw new IllegalStateException("published samples end at byte " + toPos + ", walked to " + at);
        }
        int flags = extraFlags | (openLoop ? SampleBlock.FLAG_OPEN_LOOP : 0);
        // the first sample's start becomes the block's base, so its delta is 0, as in any block
        byte[] block = assemble(runId, producerId, blockSeq, stepId, flags, sealedAtEpochMicros, ops,
                toSamples - from.samples(), firstStart, b, firstDeltaEnd, toPos, true);
        return new Sealed(block, toSamples - from.samples(), new Position(toSamples, toPos, last));
    }

    /** Skips latency, opStatus, queries and (open loop) the lag of the sample whose start delta ends at {@code at}. */
    private int skipSampleAfterDelta(byte[] b, int at) {
        at = skipVarLong(b, skipVarLong(b, skipVarLong(b, at)));
        return openLoop ? skipVarLong(b, at) : at;
    }

    private static int skipVarLong(byte[] b, int at) {
        while (b[at] < 0) {
            at++;
        }
        return at + 1;
    }

    private static long readVarLong(byte[] b, int at) {
        long v = 0;
        for (int shift = 0; ; shift += 7) {
            byte x = b[at++];
            v |= (long) (x & 0x7F) << shift;
            if (x >= 0) {
                return v;
            }
        }
    }

    private static long unZigZag(long v) {
        return (v >>> 1) ^ -(v & 1);
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
        return assemble(runId, producerId, blockSeq, stepId, flags, sealedAtEpochMicros, ops, 0, 0, new byte[0], 0, 0,
                false);
    }

    /**
     * @param samples          the sample records are {@code samples[from, to)}
     * @param zeroFirstDelta   write a start delta of 0 before them: {@code from} is just after the first sample's delta
     */
    private static byte[] assemble(String runId, String producerId, long blockSeq, int stepId, int flags,
                                   long sealedAtEpochMicros, List<String> ops, int count, long baseStart,
                                   byte[] samples, int from, int to, boolean zeroFirstDelta) {
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
        int samplesLength = to - from + (zeroFirstDelta ? 1 : 0);
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
        if (zeroFirstDelta) {
            w.bytes[w.pos++] = 0;
        }
        System.arraycopy(samples, from, w.bytes, w.pos, to - from);
        w.pos += to - from;
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
