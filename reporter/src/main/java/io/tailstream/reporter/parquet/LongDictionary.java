package io.tailstream.reporter.parquet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The distinct values of one column chunk in order of first appearance, each with its dictionary id: an
 * open-addressing hash table over primitive arrays (linear probing, load factor at most 1/2), so a look-up costs
 * no allocation and no boxing. Cleared, not shrunk, between chunks.
 *
 * <p>Not thread safe.
 */
final class LongDictionary {

    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    /** Hash slots: the value, and its id + 1 (0 marks a free slot). */
    private long[] slotValues;
    private int[] slotIds;
    private int shift;
    /** Values by id. */
    private long[] values;
    private int size;

    LongDictionary() {
        allocate(1 << 10);
        values = new long[512];
    }

    /** The id of {@code value}, added with the next id if it is new. */
    int idOf(long value) {
        int mask = slotIds.length - 1;
        int slot = (int) ((value * GOLDEN) >>> shift);
        while (true) {
            int id = slotIds[slot];
            if (id == 0) {
                return add(value, slot);
            }
            if (slotValues[slot] == value) {
                return id - 1;
            }
            slot = (slot + 1) & mask;
        }
    }

    int size() {
        return size;
    }

    void clear() {
        Arrays.fill(slotIds, 0);
        size = 0;
    }

    /**
     * The first {@code count} values in PLAIN encoding: little-endian, 4 bytes each for INT32 ({@code int32}), 8 for
     * INT64.
     */
    byte[] plain(int count, boolean int32) {
        ByteBuffer out = ByteBuffer.allocate(count * (int32 ? Integer.BYTES : Long.BYTES))
                .order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < count; i++) {
            if (int32) {
                out.putInt((int) values[i]);
            } else {
                out.putLong(values[i]);
            }
        }
        return out.array();
    }

    private int add(long value, int slot) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        int id = size++;
        values[id] = value;
        slotValues[slot] = value;
        slotIds[slot] = id + 1;
        if (size * 2 > slotIds.length) {
            rehash(slotIds.length * 2);
        }
        return id;
    }

    private void rehash(int capacity) {
        allocate(capacity);
        int mask = capacity - 1;
        for (int id = 0; id < size; id++) {
            long v = values[id];
            int slot = (int) ((v * GOLDEN) >>> shift);
            while (slotIds[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            slotValues[slot] = v;
            slotIds[slot] = id + 1;
        }
    }

    private void allocate(int capacity) {
        slotValues = new long[capacity];
        slotIds = new int[capacity];
        shift = 64 - Integer.numberOfTrailingZeros(capacity);
    }
}
