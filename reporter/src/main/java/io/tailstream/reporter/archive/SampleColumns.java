package io.tailstream.reporter.archive;

import io.tailstream.schemas.block.SampleStatus;
import java.util.Arrays;

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

    /**
     * Drops rows from {@code newSize} on (to empty the buffer, or undo a block that failed to decode half-way). The
     * dropped rows' strings stay referenced until overwritten: they are the archive writer's canonical instances, a
     * handful per run, so clearing a million references per row group would free nothing.
     */
    void truncate(int newSize) {
        if (newSize < 0 || newSize > size) {
            throw new IllegalArgumentException("cannot truncate " + size + " rows to " + newSize);
        }
        size = newSize;
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
