package io.tailstream.reporter.parquet;

import java.util.Arrays;
import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;

/**
 * The Parquet format's RLE/bit-packed hybrid encoding (definition levels, dictionary ids, booleans; see the format's
 * Encodings.md, "Run Length Encoding / Bit-Packing Hybrid"), written from an {@code int} array run by run: a run of
 * 8 or more equal values costs one header and one value whatever its length, and only the values between such runs
 * are bit-packed, 8 at a time. parquet-java's {@code RunLengthBitPackingHybridEncoder} takes one call per value,
 * which is most of the cost of a column whose values come in long runs.
 *
 * <p>Reusable, not thread safe.
 */
final class RleHybridEncoder {

    private static final BytePacker[] PACKERS = new BytePacker[33];

    static {
        for (int w = 0; w <= 32; w++) {
            PACKERS[w] = Packer.LITTLE_ENDIAN.newBytePacker(w);
        }
    }

    private byte[] out = new byte[1024];
    private int pos;
    private final int[] lastGroup = new int[8];

    /**
     * Encodes {@code values[0..count)}, each in {@code bitWidth} bits, after {@code header} (bytes written first, as
     * they are) and, if {@code lengthPrefix}, a 4-byte little-endian length of the encoded values (as data pages
     * carry booleans). Returns a new array.
     */
    byte[] encode(int[] values, int count, int bitWidth, byte[] header, boolean lengthPrefix) {
        BytePacker packer = PACKERS[bitWidth];
        pos = 0;
        ensure(header.length + Integer.BYTES);
        System.arraycopy(header, 0, out, 0, header.length);
        pos = header.length;
        int lengthAt = pos;
        if (lengthPrefix) {
            pos += Integer.BYTES;
        }
        int valueBytes = (bitWidth + 7) / 8;
        int literalsFrom = 0;
        int i = 0;
        while (i < count) {
            int v = values[i];
            int j = i + 1;
            while (j < count && values[j] == v) {
                j++;
            }
            int runLength = j - i;
            if (runLength >= 8) {
                // the values before the run are bit-packed in whole groups of 8: the run lends the last group its
                // missing values, and what is left of it, if still 8 or more, is one RLE run
                int pending = i - literalsFrom;
                int lent = (8 - pending % 8) % 8;
                if (runLength - lent >= 8) {
                    bitPacked(packer, values, literalsFrom, pending + lent, bitWidth);
                    rle(v, runLength - lent, valueBytes);
                    literalsFrom = j;
                }
            }
            i = j;
        }
        bitPacked(packer, values, literalsFrom, count - literalsFrom, bitWidth);
        if (lengthPrefix) {
            int length = pos - lengthAt - Integer.BYTES;
            out[lengthAt] = (byte) length;
            out[lengthAt + 1] = (byte) (length >>> 8);
            out[lengthAt + 2] = (byte) (length >>> 16);
            out[lengthAt + 3] = (byte) (length >>> 24);
        }
        return Arrays.copyOf(out, pos);
    }

    /** {@code n} values from {@code from} as one bit-packed run, the last group padded with zeros (never read). */
    private void bitPacked(BytePacker packer, int[] values, int from, int n, int bitWidth) {
        if (n == 0) {
            return;
        }
        int groups = (n + 7) / 8;
        ensure(5 + groups * bitWidth);
        varint((groups << 1) | 1);
        int full = n / 8;
        for (int g = 0; g < full; g++) {
            packer.pack8Values(values, from + g * 8, out, pos);
            pos += bitWidth;
        }
        if (full < groups) {
            Arrays.fill(lastGroup, 0);
            System.arraycopy(values, from + full * 8, lastGroup, 0, n - full * 8);
            packer.pack8Values(lastGroup, 0, out, pos);
            pos += bitWidth;
        }
    }

    private void rle(int value, int runLength, int valueBytes) {
        ensure(5 + valueBytes);
        varint(runLength << 1);
        for (int b = 0; b < valueBytes; b++) {
            out[pos++] = (byte) (value >>> (8 * b));
        }
    }

    private void varint(int v) {
        while ((v & ~0x7F) != 0) {
            out[pos++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out[pos++] = (byte) v;
    }

    private void ensure(int more) {
        if (pos + more > out.length) {
            out = Arrays.copyOf(out, Math.max(out.length * 2, pos + more));
        }
    }
}
