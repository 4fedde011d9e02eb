package io.tailstream.aggregator.window;

import io.tailstream.schemas.block.SampleStatus;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Binary serde of {@link WindowAggregate} for the partials repartition topic, the window store and its changelog.
 * These bytes never leave the aggregator's internal topics, but are versioned so a restarted (newer) aggregator
 * can still restore an older changelog.
 *
 * <p>Layout, version 4 (all integers unsigned LEB128 varints unless said otherwise):
 * <pre>
 *   byte    version (4)
 *   byte    1 if a scope follows, 0 for an aggregate without scope (the initializer's)
 *   string  runId   (varint length + UTF-8), varint stepId, string op   -- only if a scope follows
 *   varint  lateCount, heartbeats, ticks, blocks
 *   byte    phases present: bit 0 measured, bit 1 warm-up (a phase without samples, errors or queries is left out)
 *   per phase present, measured first:
 *     varint  okQueries, failedQueries
 *     varint  n = number of non-zero error codes, then n x (varint code, varint count)
 *     varint  m = non-empty buckets of successful samples, then m x (varint bucket-key delta, varint count)
 *     varint  m = non-empty buckets of failed samples, likewise
 *   varint  p = producers whose blocks went in, then p x string producerId (sorted)
 * </pre>
 * Version 3 is version 4 without the producers (read as none: a tick of version 3 closes its scope at once, as
 * stage 2 did before it waited for every producer of a step).
 * Versions 1 and 2 (one histogram of every sample; version 1 without {@code blocks}) are still read, so a changelog
 * written before the upgrade restores. They did not keep failed samples' latencies or statements apart, nor the
 * measured samples of a window mixing both phases: such an aggregate is restored with every latency and statement in
 * its successful samples (counts and errors stay exact), in the measured phase if it had no warm-up sample, else in
 * the warm-up phase (where version-1 summaries left a mixed window). This touches only the windows open at the
 * upgrade.
 *
 * <p>A partial of a 1024-sample block is typically 1-2 KB; a one-second window of an OLTP op a few KB. Cost is linear
 * in non-empty buckets, never in the histogram's range (see {@link SparseHistogram} for why this matters).
 *
 * <p>Thread safe (stateless).
 */
public final class WindowAggregateSerde implements Serde<WindowAggregate> {

    static final byte VERSION = 4;
    static final byte VERSION_3 = 3;
    static final byte VERSION_2 = 2;
    static final byte VERSION_1 = 1;
    private static final int MEASURED = 1;
    private static final int WARMUP = 2;

    @Override
    public Serializer<WindowAggregate> serializer() {
        return (topic, value) -> value == null ? null : serialize(value);
    }

    @Override
    public Deserializer<WindowAggregate> deserializer() {
        return (topic, bytes) -> bytes == null ? null : deserialize(bytes);
    }

    public static byte[] serialize(WindowAggregate a) {
        PhaseSamples measured = a.measured();
        PhaseSamples warmup = a.warmup();
        Writer w = new Writer(64 + 6 * (measured.buckets() + warmup.buckets()));
        w.bytes[w.pos++] = VERSION;
        if (a.runId() == null) {
            w.bytes[w.pos++] = 0;
        } else {
            w.bytes[w.pos++] = 1;
            w.string(a.runId());
            w.varLong(a.stepId());
            w.string(a.op());
        }
        w.varLong(a.lateCount());
        w.varLong(a.heartbeats());
        w.varLong(a.ticks());
        w.varLong(a.blocks());
        int phases = (measured.isEmpty() ? 0 : MEASURED) | (warmup.isEmpty() ? 0 : WARMUP);
        w.ensure(1);
        w.bytes[w.pos++] = (byte) phases;
        if ((phases & MEASURED) != 0) {
            phase(w, measured);
        }
        if ((phases & WARMUP) != 0) {
            phase(w, warmup);
        }
        w.varLong(a.producers().size());
        for (String p : a.producers()) {
            w.string(p);
        }
        return Arrays.copyOf(w.bytes, w.pos);
    }

    private static void phase(Writer w, PhaseSamples p) {
        w.varLong(p.okQueries);
        w.varLong(p.failedQueries);
        errorCodes(w, p.errorsByCode);
        histogram(w, p.ok);
        histogram(w, p.failed);
    }

    private static void errorCodes(Writer w, long[] byCode) {
        int nonZero = 0;
        for (long n : byCode) {
            if (n != 0) {
                nonZero++;
            }
        }
        w.varLong(nonZero);
        for (int code = 0; code < byCode.length; code++) {
            if (byCode[code] != 0) {
                w.varLong(code);
                w.varLong(byCode[code]);
            }
        }
    }

    private static void histogram(Writer w, SparseHistogram h) {
        w.varLong(h.size());
        long prev = 0;
        for (int i = 0; i < h.size(); i++) {
            w.ensure(20);
            long b = h.bucketAt(i);
            w.varLong(b - prev);
            w.varLong(h.countAt(i));
            prev = b;
        }
    }

    /**
     * @throws SerializationException if the bytes are not a version-1 to -4 aggregate
     */
    public static WindowAggregate deserialize(byte[] bytes) {
        Reader r = new Reader(bytes);
        try {
            int version = r.byteAt();
            if (version != VERSION && version != VERSION_3 && version != VERSION_2 && version != VERSION_1) {
                throw new SerializationException("unsupported window aggregate version " + version);
            }
            int hasScope = r.byteAt();
            String runId = null;
            int stepId = 0;
            String op = null;
            if (hasScope == 1) {
                runId = r.string();
                stepId = Math.toIntExact(r.varLong());
                op = r.string();
            } else if (hasScope != 0) {
                throw new SerializationException("bad scope marker " + hasScope);
            }
            WindowAggregate a = version >= VERSION_3 ? current(r, runId, stepId, op) : legacy(r, version, runId, stepId,
                    op);
            if (version == VERSION) {
                int n = r.count(r.remaining());
                Set<String> producers = new TreeSet<>();
                for (int i = 0; i < n; i++) {
                    producers.add(r.string());
                }
                a.withProducers(producers);
            }
            if (r.remaining() != 0) {
                throw new SerializationException(r.remaining() + " trailing bytes after a window aggregate");
            }
            return a;
        } catch (IllegalArgumentException | ArithmeticException | ArrayIndexOutOfBoundsException e) {
            throw new SerializationException("corrupt window aggregate (" + bytes.length + " bytes): " + e.getMessage(),
                    e);
        }
    }

    private static WindowAggregate current(Reader r, String runId, int stepId, String op) {
        long late = r.varLong();
        long heartbeats = r.varLong();
        long ticks = r.varLong();
        long blocks = r.varLong();
        int phases = r.byteAt();
        if ((phases & ~(MEASURED | WARMUP)) != 0) {
            throw new SerializationException("bad phase flags " + phases);
        }
        PhaseSamples measured = (phases & MEASURED) != 0 ? phase(r) : new PhaseSamples();
        PhaseSamples warmup = (phases & WARMUP) != 0 ? phase(r) : new PhaseSamples();
        return WindowAggregate.restore(runId, stepId, op, measured, warmup, late, heartbeats, ticks, blocks);
    }

    private static PhaseSamples phase(Reader r) {
        long okQueries = r.varLong();
        long failedQueries = r.varLong();
        long[] byCode = errorCodes(r);
        return new PhaseSamples(histogram(r), histogram(r), byCode, okQueries, failedQueries);
    }

    /** A version-1 or -2 aggregate: every latency in one histogram (see the class documentation). */
    private static WindowAggregate legacy(Reader r, int version, String runId, int stepId, String op) {
        r.varLong(); // errors: the sum of the codes below
        long queries = r.varLong();
        long warmupCount = r.varLong();
        long late = r.varLong();
        long heartbeats = r.varLong();
        long ticks = r.varLong();
        long blocks = version == VERSION_1 ? 0 : r.varLong();
        long[] byCode = errorCodes(r);
        PhaseSamples samples = new PhaseSamples(histogram(r), SparseHistogram.EMPTY, byCode,
                queries, 0);
        boolean measured = warmupCount == 0;
        return WindowAggregate.restore(runId, stepId, op, measured ? samples : new PhaseSamples(),
                measured ? new PhaseSamples() : samples, late, heartbeats, ticks, blocks);
    }

    private static long[] errorCodes(Reader r) {
        long[] byCode = new long[SampleStatus.MAX_CODE + 1];
        int codes = r.count(byCode.length);
        for (int i = 0; i < codes; i++) {
            byCode[r.count(byCode.length - 1)] = r.varLong();
        }
        return byCode;
    }

    private static SparseHistogram histogram(Reader r) {
        // every bucket takes at least two bytes: bound the allocation by the bytes present
        int m = r.count(r.remaining() / 2);
        long[] buckets = new long[m];
        long[] counts = new long[m];
        long prev = 0;
        for (int i = 0; i < m; i++) {
            prev += r.varLong();
            buckets[i] = prev;
            counts[i] = r.varLong();
        }
        return SparseHistogram.of(buckets, counts, m);
    }

    private static final class Writer {
        byte[] bytes;
        int pos;

        Writer(int capacity) {
            bytes = new byte[capacity];
        }

        void ensure(int more) {
            if (bytes.length - pos < more) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, pos + more));
            }
        }

        void varLong(long v) {
            ensure(10);
            while ((v & ~0x7FL) != 0) {
                bytes[pos++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            bytes[pos++] = (byte) v;
        }

        void string(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            varLong(b.length);
            ensure(b.length);
            System.arraycopy(b, 0, bytes, pos, b.length);
            pos += b.length;
        }
    }

    private static final class Reader {
        private final byte[] b;
        private int pos;

        Reader(byte[] b) {
            this.b = b;
        }

        int remaining() {
            return b.length - pos;
        }

        int byteAt() {
            if (pos >= b.length) {
                throw new SerializationException("window aggregate truncated at byte " + pos);
            }
            return b[pos++];
        }

        long varLong() {
            long result = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (pos >= b.length) {
                    throw new SerializationException("window aggregate truncated at byte " + pos);
                }
                byte x = b[pos++];
                result |= (long) (x & 0x7F) << shift;
                if ((x & 0x80) == 0) {
                    if (result < 0) {
                        throw new SerializationException("negative varint at byte " + pos);
                    }
                    return result;
                }
            }
            throw new SerializationException("varint longer than 10 bytes at byte " + pos);
        }

        /** A count or index, at most {@code max}. */
        int count(int max) {
            long n = varLong();
            if (n > max) {
                throw new SerializationException("value " + n + " exceeds " + max + " at byte " + pos);
            }
            return (int) n;
        }

        String string() {
            int len = count(remaining());
            String s = new String(b, pos, len, StandardCharsets.UTF_8);
            pos += len;
            return s;
        }
    }
}
