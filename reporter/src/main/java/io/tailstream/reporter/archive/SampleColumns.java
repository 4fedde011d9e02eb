package io.tailstream.reporter.archive;

import io.tailstream.schemas.block.SampleStatus;
import java.util.Arrays;
import java.util.Comparator;

/**
 * Decoded samples of one run buffered column by column in primitive arrays, so buffering a million samples
 * costs about 53 bytes each (65 with the sort's scratch arrays) and no object per sample; the arrays keep their
 * capacity when the buffer is emptied, so a reused buffer allocates nothing. {@link #timeOrder()} gives the row order of the file
 * (by start time, ties in arrival order).
 *
 * <p>Not thread safe.
 */
final class SampleColumns {

    private int size;
    private int[] stepId = new int[1024];
    private String[] producerId = new String[1024];
    private long[] blockSeq = new long[1024];
    private String[] op = new String[1024];
    private long[] startUs = new long[1024];
    private long[] latencyUs = new long[1024];
    private long[] intendedStartUs = new long[1024];
    /** {@link SampleStatus#label()}: one instance per status, so runs of a status are runs of one reference. */
    private String[] status = new String[1024];
    private int[] queries = new int[1024];
    private boolean[] warmup = new boolean[1024];
    private boolean[] openLoop = new boolean[1024];
    /** Scratch space of {@link #timeOrder()}, kept with the buffer's capacity. */
    private int[] order = new int[0];
    private long[] sortKeys = new long[0];

    private static final String[] LABELS = labels();

    void add(int step, String producer, long seq, String opName, long start, long latency, long intended,
             SampleStatus st, int q, boolean warm, boolean open) {
        if (size == stepId.length) {
            grow();
        }
        stepId[size] = step;
        producerId[size] = producer;
        blockSeq[size] = seq;
        op[size] = opName;
        startUs[size] = start;
        latencyUs[size] = latency;
        intendedStartUs[size] = intended;
        status[size] = LABELS[st.ordinal()];
        queries[size] = q;
        warmup[size] = warm;
        openLoop[size] = open;
        size++;
    }

    int size() {
        return size;
    }

    /** Drops rows from {@code newSize} on (used to undo a block that failed to decode half-way). */
    void truncate(int newSize) {
        if (newSize < 0 || newSize > size) {
            throw new IllegalArgumentException("cannot truncate " + size + " rows to " + newSize);
        }
        Arrays.fill(producerId, newSize, size, null);
        Arrays.fill(op, newSize, size, null);
        Arrays.fill(status, newSize, size, null);
        size = newSize;
    }

    /**
     * Row indices ordered by start time, ties kept in arrival order. The array is the buffer's own, reused (and
     * overwritten) by the next call; only its first {@link #size()} entries are meaningful.
     */
    int[] timeOrder() {
        if (order.length < size) {
            order = new int[stepId.length];
            sortKeys = new long[stepId.length];
        }
        if (size == 0) {
            return order;
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = 0; i < size; i++) {
            min = Math.min(min, startUs[i]);
            max = Math.max(max, startUs[i]);
        }
        int indexBits = 64 - Long.numberOfLeadingZeros(Math.max(1, size - 1));
        if (max - min < (1L << (63 - indexBits))) {
            // pack (start - min, index) into one long and sort primitives: ~10x faster than a boxed comparator
            long[] keys = sortKeys;
            for (int i = 0; i < size; i++) {
                keys[i] = ((startUs[i] - min) << indexBits) | i;
            }
            Arrays.sort(keys, 0, size);
            long mask = (1L << indexBits) - 1;
            for (int i = 0; i < size; i++) {
                order[i] = (int) (keys[i] & mask);
            }
            return order;
        }
        Integer[] boxed = new Integer[size];
        for (int i = 0; i < size; i++) {
            boxed[i] = i;
        }
        Arrays.sort(boxed, Comparator.comparingLong((Integer i) -> startUs[i]).thenComparingInt(i -> i));
        for (int i = 0; i < size; i++) {
            order[i] = boxed[i];
        }
        return order;
    }

    // The columns, for the column encoders: arrays of the buffer's capacity, of which the first size() entries are
    // rows; valid until the next add (which may grow them).

    int[] stepIds() {
        return stepId;
    }

    String[] producerIds() {
        return producerId;
    }

    long[] blockSeqs() {
        return blockSeq;
    }

    String[] ops() {
        return op;
    }

    long[] startUs() {
        return startUs;
    }

    long[] latencyUs() {
        return latencyUs;
    }

    long[] intendedStartUs() {
        return intendedStartUs;
    }

    /** Whether each sample came from an open-loop block and carries its own intended start. */
    boolean[] openLoop() {
        return openLoop;
    }

    String[] statuses() {
        return status;
    }

    int[] queries() {
        return queries;
    }

    boolean[] warmups() {
        return warmup;
    }

    private static String[] labels() {
        SampleStatus[] all = SampleStatus.values();
        String[] out = new String[all.length];
        for (int i = 0; i < all.length; i++) {
            out[i] = all[i].label();
        }
        return out;
    }

    private void grow() {
        int n = stepId.length * 2;
        stepId = Arrays.copyOf(stepId, n);
        producerId = Arrays.copyOf(producerId, n);
        blockSeq = Arrays.copyOf(blockSeq, n);
        op = Arrays.copyOf(op, n);
        startUs = Arrays.copyOf(startUs, n);
        latencyUs = Arrays.copyOf(latencyUs, n);
        intendedStartUs = Arrays.copyOf(intendedStartUs, n);
        status = Arrays.copyOf(status, n);
        queries = Arrays.copyOf(queries, n);
        warmup = Arrays.copyOf(warmup, n);
        openLoop = Arrays.copyOf(openLoop, n);
    }

    /** Flyweight over one row of the enclosing buffer: the row type the samples schema is declared with. */
    final class Row {
        private int i;

        Row at(int index) {
            this.i = index;
            return this;
        }

        int stepId() {
            return stepId[i];
        }

        String producerId() {
            return producerId[i];
        }

        long blockSeq() {
            return blockSeq[i];
        }

        String op() {
            return op[i];
        }

        long startUs() {
            return startUs[i];
        }

        long latencyUs() {
            return latencyUs[i];
        }

        long intendedStartUs() {
            return intendedStartUs[i];
        }

        String status() {
            return status[i];
        }

        int queries() {
            return queries[i];
        }

        boolean warmup() {
            return warmup[i];
        }

        /** The sample came from an open-loop block and carries its own intended start. */
        boolean openLoop() {
            return openLoop[i];
        }
    }
}
