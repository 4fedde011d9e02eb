package io.tailstream.reporter.archive;

import io.tailstream.schemas.block.SampleStatus;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Decoded samples of one run buffered column by column in primitive arrays, so buffering a million samples
 * costs about 54 bytes each and no object per sample; the arrays keep their capacity when the buffer is emptied, so
 * a reused buffer allocates nothing.
 *
 * <p>Not thread safe.
 */
final class SampleColumns {

    private int size;
    private int[] stepId = new int[1024];
    /** Producer ids and op names as codes into {@link #names}: no reference stored per sample. */
    private int[] producerId = new int[1024];
    private long[] blockSeq = new long[1024];
    private int[] op = new int[1024];
    private long[] startUs = new long[1024];
    private long[] latencyUs = new long[1024];
    private long[] intendedStartUs = new long[1024];
    /** {@link SampleStatus#ordinal()}, a code into {@link #statusLabels()}. */
    private int[] status = new int[1024];
    private int[] queries = new int[1024];
    private boolean[] warmup = new boolean[1024];
    private boolean[] openLoop = new boolean[1024];

    private static final String[] LABELS = labels();
    /** Up to this many names a look-up scans them by identity, then by equality; beyond, a hash map. */
    private static final int SCANNED_NAMES = 16;

    /** The strings the codes of the rows stand for, in order of first use since the buffer was emptied. */
    private String[] names = new String[16];
    private int nameCount;
    private final Map<String, Integer> nameCodes = new HashMap<>();

    /**
     * The code of a producer id or op name in this buffer, for {@link #add}: a block's strings are looked up once
     * per block, so decoding stores no reference per sample (each one a garbage-collector write barrier).
     */
    int code(String name) {
        if (nameCount <= SCANNED_NAMES) {
            for (int c = 0; c < nameCount; c++) {
                if (names[c] == name) {
                    return c;
                }
            }
            for (int c = 0; c < nameCount; c++) {
                if (names[c].equals(name)) {
                    return c;
                }
            }
        } else {
            Integer c = nameCodes.get(name);
            if (c != null) {
                return c;
            }
        }
        if (nameCount == names.length) {
            names = Arrays.copyOf(names, nameCount * 2);
        }
        names[nameCount] = name;
        nameCodes.put(name, nameCount);
        return nameCount++;
    }

    /**
     * @param producer a {@link #code} of the producer id
     * @param opName   a {@link #code} of the op name
     */
    void add(int step, int producer, long seq, int opName, long start, long latency, long intended,
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
        status[size] = st.ordinal();
        queries[size] = q;
        warmup[size] = warm;
        openLoop[size] = open;
        size++;
    }

    int size() {
        return size;
    }

    /**
     * Drops rows from {@code newSize} on (to empty the buffer, or undo a block that failed to decode half-way).
     * Emptied, the buffer forgets its names too: codes taken before are no longer valid.
     */
    void truncate(int newSize) {
        if (newSize < 0 || newSize > size) {
            throw new IllegalArgumentException("cannot truncate " + size + " rows to " + newSize);
        }
        size = newSize;
        if (newSize == 0) {
            Arrays.fill(names, 0, nameCount, null);
            nameCount = 0;
            nameCodes.clear();
        }
    }

    // The columns, for the column encoders: arrays of the buffer's capacity, of which the first size() entries are
    // rows; valid until the next add (which may grow them).

    int[] stepIds() {
        return stepId;
    }

    /** Codes into {@link #names()}. */
    int[] producerIds() {
        return producerId;
    }

    long[] blockSeqs() {
        return blockSeq;
    }

    /** Codes into {@link #names()}. */
    int[] ops() {
        return op;
    }

    /** The strings of the producer and op codes (the array may be longer than the codes in use). */
    String[] names() {
        return names;
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

    /** Codes into {@link #statusLabels()}. */
    int[] statuses() {
        return status;
    }

    /** {@link SampleStatus#label()} by ordinal. */
    static String[] statusLabels() {
        return LABELS.clone();
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
            return names[producerId[i]];
        }

        long blockSeq() {
            return blockSeq[i];
        }

        String op() {
            return names[op[i]];
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
            return LABELS[status[i]];
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
