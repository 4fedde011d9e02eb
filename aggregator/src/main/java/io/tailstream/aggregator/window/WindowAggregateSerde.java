package io.tailstream.aggregator.window;

import io.tailstream.schemas.block.SampleStatus;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Binary serde of {@link WindowAggregate} for the partials repartition topic, the window store and its changelog.
 * These bytes never leave the aggregator's internal topics, but are versioned so a restarted (newer) aggregator
 * can still restore an older changelog.
 *
 * <p>Layout, version 2 (all integers unsigned LEB128 varints unless said otherwise); version 1 is the same
 * without {@code blocks} and is still read (blocks = 0), so a changelog written before the upgrade restores:
 * <pre>
 *   byte    version (2)
 *   byte    1 if a scope follows, 0 for an aggregate without scope (the initializer's)
 *   string  runId   (varint length + UTF-8), varint stepId, string op   -- only if a scope follows
 *   varint  errors, queries, warmupCount, lateCount, heartbeats, ticks, blocks (v2 only)
 *   varint  n = number of non-zero error codes, then n x (varint code, varint count)
 *   varint  m = number of non-empty latency buckets, then m x (varint bucket-key delta, varint count)
 * </pre>
 * A partial of a 1024-sample block is typically 1-2 KB; a one-second window of an OLTP op a few KB. Cost is linear
 * in non-empty buckets, never in the histogram's range (see {@link SparseHistogram} for why this matters).
 *
 * <p>Thread safe (stateless).
 */
public final class WindowAggregateSerde implements Serde<WindowAggregate> {

    static final byte VERSION = 2;
    static final byte VERSION_1 = 1;

    @Override
    public Serializer<WindowAggregate> serializer() {
        return (topic, value) -> value == null ? null : serialize(value);
    }

    @Override
    public Deserializer<WindowAggregate> deserializer() {
        return (topic, bytes) -> bytes == null ? null : deserialize(bytes);
    }

    public static byte[] serialize(WindowAggregate a) {
        SparseHistogram h = a.latencies();
        Writer w = new Writer(64 + 6 * h.size());
        w.bytes[w.pos++] = VERSION;
        if (a.runId() == null) {
            w.bytes[w.pos++] = 0;
        } else {
            w.bytes[w.pos++] = 1;
            w.string(a.runId());
            w.varLong(a.stepId());
            w.string(a.op());
        }
        w.varLong(a.errors());
        w.varLong(a.queries());
        w.varLong(a.warmupCount());
        w.varLong(a.lateCount());
        w.varLong(a.heartbeats());
        w.varLong(a.ticks());
        w.varLong(a.blocks());
        long[] byCode = a.errorsByCodeView();
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
        w.varLong(h.size());
        long prev = 0;
        for (int i = 0; i < h.size(); i++) {
            w.ensure(20);
            long b = h.bucketAt(i);
            w.varLong(b - prev);
            w.varLong(h.countAt(i));
            prev = b;
        }
        return Arrays.copyOf(w.bytes, w.pos);
    }

    /**
     * @throws SerializationException if the bytes are not a version-1 or version-2 aggregate
     */
    public static WindowAggregate deserialize(byte[] bytes) {
        Reader r = new Reader(bytes);
        try {
            int version = r.byteAt();
            if (version != VERSION && version != VERSION_1) {
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
            long errors = r.varLong();
            long queries = r.varLong();
            long warmup = r.varLong();
            long late = r.varLong();
            long heartbeats = r.varLong();
            long ticks = r.varLong();
            long blocks = version == VERSION_1 ? 0 : r.varLong();
            long[] byCode = new long[SampleStatus.MAX_CODE + 1];
            int codes = r.count(byCode.length);
            for (int i = 0; i < codes; i++) {
                byCode[r.count(byCode.length - 1)] = r.varLong();
            }
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
            if (r.remaining() != 0) {
                throw new SerializationException(r.remaining() + " trailing bytes after a window aggregate");
            }
            return WindowAggregate.restore(runId, stepId, op, errors, queries, warmup, late, heartbeats, ticks, blocks,
                    byCode, SparseHistogram.of(buckets, counts, m));
        } catch (IllegalArgumentException | ArithmeticException | ArrayIndexOutOfBoundsException e) {
            throw new SerializationException("corrupt window aggregate (" + bytes.length + " bytes): " + e.getMessage(),
                    e);
        }
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
                throw new SerializationException("empty window aggregate");
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
