package io.tailstream.reporter.archive;

import io.tailstream.reporter.parquet.BooleanColumnEncoder;
import io.tailstream.reporter.parquet.ColumnFileWriter;
import io.tailstream.reporter.parquet.LongColumnEncoder;
import io.tailstream.reporter.parquet.StringColumnEncoder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.apache.parquet.schema.MessageType;

/**
 * Writes buffered samples as one row group of a samples file: sorted by start time, then each of the ten columns
 * encoded page by page by its own encoder, the columns split over the calling thread and an encoder thread. One
 * instance serves every samples file of an archive writer, since their row groups are written one at a time.
 *
 * <p>Not thread safe: one row group at a time.
 */
final class SampleRowGroupEncoder {

    static final List<String> COLUMNS = List.of("step_id", "producer_id", "block_seq", "op", "start_us",
            "latency_us", "intended_start_us", "status", "queries", "warmup");
    /**
     * First column of the second column group ({@code latency_us}): the encoder thread takes the first five columns
     * ({@code start_us}'s delta encoding the costliest), the calling thread, which also sorts, {@code latency_us}'s
     * dictionary and the four cheap columns after it.
     */
    static final int SECOND_GROUP = 5;

    static {
        List<String> declared = ArchiveSchemas.SAMPLES.columnNames();
        if (!declared.equals(COLUMNS)) {
            throw new ExceptionInInitializerError("samples columns " + declared + " differ from the writer's "
                    + COLUMNS);
        }
    }

    private final ExecutorService encoderThread;
    private final LongColumnEncoder stepId;
    private final StringColumnEncoder producerId;
    private final LongColumnEncoder blockSeq;
    private final StringColumnEncoder op;
    private final LongColumnEncoder startUs;
    private final LongColumnEncoder latencyUs;
    private final LongColumnEncoder intendedStartUs;
    private final StringColumnEncoder status;
    private final LongColumnEncoder queries;
    private final BooleanColumnEncoder warmup;

    SampleRowGroupEncoder(ExecutorService encoderThread) {
        this.encoderThread = encoderThread;
        MessageType schema = ArchiveSchemas.SAMPLES.messageType();
        Set<String> noDictionary = ArchiveSchemas.SAMPLES.noDictionaryColumns();
        this.stepId = longs(schema, noDictionary, 0);
        this.producerId = new StringColumnEncoder(schema.getColumns().get(1));
        this.blockSeq = longs(schema, noDictionary, 2);
        this.op = new StringColumnEncoder(schema.getColumns().get(3));
        this.startUs = longs(schema, noDictionary, 4);
        this.latencyUs = longs(schema, noDictionary, 5);
        this.intendedStartUs = longs(schema, noDictionary, 6);
        this.status = new StringColumnEncoder(schema.getColumns().get(7));
        this.queries = longs(schema, noDictionary, 8);
        this.warmup = new BooleanColumnEncoder(schema.getColumns().get(9));
    }

    /** A file for samples row groups, its columns in the two groups this encoder fills. */
    static ColumnFileWriter open(Path tmp) throws IOException {
        return ColumnFileWriter.open(tmp, ArchiveSchemas.SAMPLES.messageType(), 0, SECOND_GROUP);
    }

    /** Writes the buffer's rows, sorted by start time (ties in arrival order), as the next row group of {@code w}. */
    void write(ColumnFileWriter w, SampleColumns b) throws IOException {
        int n = b.size();
        if (n == 0) {
            return;
        }
        int[] order = b.timeOrder();
        Future<?> first = encoderThread.submit(() -> {
            writeFirstGroup(w, b, order, n);
            return null;
        });
        writeSecondGroup(w, b, order, n);
        try {
            first.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while encoding a row group of " + w.file(), e);
        } catch (ExecutionException e) {
            throw new IOException("encoding a row group of " + w.file() + ": " + e.getCause(), e.getCause());
        }
        w.endRowGroup(n);
    }

    private void writeFirstGroup(ColumnFileWriter w, SampleColumns b, int[] order, int n) throws IOException {
        stepId.write(w.pages(0), b.stepIds(), null, order, n);
        producerId.write(w.pages(1), b.producerIds(), order, n);
        blockSeq.write(w.pages(2), b.blockSeqs(), null, order, n);
        op.write(w.pages(3), b.ops(), order, n);
        startUs.write(w.pages(4), b.startUs(), null, order, n);
    }

    private void writeSecondGroup(ColumnFileWriter w, SampleColumns b, int[] order, int n) throws IOException {
        latencyUs.write(w.pages(5), b.latencyUs(), null, order, n);
        intendedStartUs.write(w.pages(6), b.intendedStartUs(), b.openLoop(), order, n);
        status.write(w.pages(7), b.statuses(), order, n);
        queries.write(w.pages(8), b.queries(), null, order, n);
        warmup.write(w.pages(9), b.warmups(), order, n);
    }

    private static LongColumnEncoder longs(MessageType schema, Set<String> noDictionary, int index) {
        return new LongColumnEncoder(schema.getColumns().get(index),
                !noDictionary.contains(COLUMNS.get(index)));
    }
}
