package io.tailstream.reporter.parquet;

import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.bytes.HeapByteBufferAllocator;

/** Page layout and level encoding shared by the column encoders (format v2 data pages). */
final class Pages {

    /** Rows per data page: parquet-java's default page row-count limit, so page indexes are as fine as its writer's. */
    static final int ROWS = 20_000;
    /** Dictionary bytes beyond which a chunk's later pages fall back: parquet-java's default dictionary page size. */
    static final int MAX_DICTIONARY_BYTES = 1024 * 1024;

    private static final HeapByteBufferAllocator HEAP = new HeapByteBufferAllocator();
    /** First buffer slab of parquet-java's encoders, which grow theirs geometrically up to a page. */
    private static final int SLAB_BYTES = 64;
    private static final byte[][] BIT_WIDTH_HEADERS = new byte[33][];
    private static final byte[] NO_HEADER = new byte[0];

    static {
        for (int w = 0; w <= 32; w++) {
            BIT_WIDTH_HEADERS[w] = new byte[] {(byte) w};
        }
    }

    private Pages() {}

    /**
     * The data of an {@code RLE_DICTIONARY} page: the ids' bit width in one byte, then the ids in the RLE/bit-packed
     * hybrid encoding.
     */
    static BytesInput dictionaryIds(RleHybridEncoder rle, int[] ids, int count, int dictionarySize) {
        int bitWidth = BytesUtils.getWidthFromMaxInt(Math.max(0, dictionarySize - 1));
        return BytesInput.from(rle.encode(ids, count, bitWidth, BIT_WIDTH_HEADERS[bitWidth], false));
    }

    /**
     * Definition levels of a flat optional column's page ({@code 1} present, {@code 0} null) in the RLE/bit-packed
     * hybrid encoding with bit width 1 and no length prefix, as format v2 pages carry them. {@code present == null}:
     * every row present. {@code scratch} holds at least {@code rows} ints.
     */
    static BytesInput definitionLevels(RleHybridEncoder rle, int[] scratch, boolean[] present, int[] order,
                                       int first, int rows) {
        for (int k = 0; k < rows; k++) {
            scratch[k] = present == null || present[order[first + k]] ? 1 : 0;
        }
        return BytesInput.from(rle.encode(scratch, rows, 1, NO_HEADER, false));
    }

    /** The data of an {@code RLE} page of booleans: a 4-byte length, then 0/1 values in the hybrid encoding. */
    static BytesInput booleans(RleHybridEncoder rle, int[] values, int count) {
        return BytesInput.from(rle.encode(values, count, 1, NO_HEADER, true));
    }

    static HeapByteBufferAllocator heap() {
        return HEAP;
    }

    static int slabBytes() {
        return SLAB_BYTES;
    }
}
