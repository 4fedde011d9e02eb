package io.tailstream.reporter.parquet;

import java.io.IOException;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;

/** Page layout and level encoding shared by the column encoders (format v2 data pages). */
final class Pages {

    /** Rows per data page: parquet-java's default page row-count limit, so page indexes are as fine as its writer's. */
    static final int ROWS = 20_000;
    /** Dictionary bytes beyond which a chunk's later pages fall back: parquet-java's default dictionary page size. */
    static final int MAX_DICTIONARY_BYTES = 1024 * 1024;

    private static final HeapByteBufferAllocator HEAP = new HeapByteBufferAllocator();
    /** First buffer slab of parquet-java's encoders, which grow theirs geometrically up to a page. */
    private static final int SLAB_BYTES = 64;

    private Pages() {}

    /**
     * The data of an {@code RLE_DICTIONARY} page: the ids' bit width in one byte, then the ids in the RLE/bit-packed
     * hybrid encoding (runs of one id cost a few bytes whatever their length).
     */
    static BytesInput dictionaryIds(int[] ids, int count, int dictionarySize) throws IOException {
        int bitWidth = BytesUtils.getWidthFromMaxInt(Math.max(0, dictionarySize - 1));
        RunLengthBitPackingHybridEncoder rle = new RunLengthBitPackingHybridEncoder(bitWidth, SLAB_BYTES,
                ROWS * Integer.BYTES + 16, HEAP);
        try {
            for (int k = 0; k < count; k++) {
                rle.writeInt(ids[k]);
            }
            // a copy: the page writer may keep what it is given, and the encoder's buffers are released below
            return BytesInput.concat(BytesInput.from(new byte[] {(byte) bitWidth}),
                    BytesInput.from(rle.toBytes().toByteArray()));
        } finally {
            rle.close();
        }
    }

    /**
     * Definition levels of a flat optional column's page ({@code 1} present, {@code 0} null), RLE/bit-packed with bit
     * width 1 and no length prefix, as format v2 pages carry them. {@code present == null}: every row present.
     */
    static BytesInput definitionLevels(boolean[] present, int[] order, int first, int rows) throws IOException {
        RunLengthBitPackingHybridEncoder rle = new RunLengthBitPackingHybridEncoder(1, SLAB_BYTES, rows / 8 + SLAB_BYTES,
                HEAP);
        try {
            for (int k = first; k < first + rows; k++) {
                rle.writeInt(present == null || present[order[k]] ? 1 : 0);
            }
            return BytesInput.from(rle.toBytes().toByteArray());
        } finally {
            rle.close();
        }
    }

    static HeapByteBufferAllocator heap() {
        return HEAP;
    }

    static int slabBytes() {
        return SLAB_BYTES;
    }
}
