package io.tailstream.reporter.archive;

import io.tailstream.reporter.parquet.BooleanColumnEncoder;
import io.tailstream.reporter.parquet.ColumnFileWriter;
import io.tailstream.reporter.parquet.LongColumnEncoder;
import io.tailstream.reporter.parquet.StringColumnEncoder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.apache.parquet.schema.MessageType;

/**
 * Writes buffered samples as row groups of samples files on an encoder thread, while the archiving thread goes on
 * polling and decoding into another buffer: a row group is sorted by start time, then each of the ten columns is
 * encoded page by page by its own encoder. A file's last row group also completes the file and renames it into
 * place there, so the archiving thread does not wait for a file to be published either. One instance serves every
 * samples file of an archive writer; at most one row group is in flight at a time, so memory is the open files'
 * buffers plus one.
 *
 * <p>Tasks (row groups, with or without a file's completion) run in the order they are handed over and are
 * numbered from 1: once {@link #tasksDone()} reaches a task's number, that task and every one before it are done.
 *
 * <p>It also keeps the buffers: a buffer goes back to the pool once its row group is written (or its file
 * discarded) and keeps its capacity, so steady archiving allocates none.
 *
 * <p>Called from the archiving thread only.
 */
final class SampleRowGroupEncoder {

    static final List<String> COLUMNS = List.of("step_id", "producer_id", "block_seq", "op", "start_us",
            "latency_us", "intended_start_us", "status", "queries", "warmup");

    static {
        List<String> declared = ArchiveSchemas.SAMPLES.columnNames();
        if (!declared.equals(COLUMNS)) {
            throw new ExceptionInInitializerError("samples columns " + declared + " differ from the writer's "
                    + COLUMNS);
        }
    }

    private static final String[] STATUS_LABELS = SampleColumns.statusLabels();

    private final ExecutorService encoderThread;
    private final Deque<SampleColumns> spareBuffers = new ArrayDeque<>();
    private Future<?> inFlight;
    private SampleColumns inFlightBuffer;
    /** The first row group that failed: every later wait fails with it, since some file now lacks its rows. */
    private IOException failure;
    /** Tasks handed to the encoder thread so far. */
    private long submitted;
    /** Of those, the ones seen to have succeeded: all tasks up to this number. */
    private long done;
    // the encoder thread's (handed over with each row group through the executor, which orders the tasks)
    private final TimeOrder timeOrder = new TimeOrder();
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

    /** A file for samples row groups, with {@code footer} in its footer's key-value metadata. */
    static ColumnFileWriter open(Path tmp, Map<String, String> footer) throws IOException {
        return ColumnFileWriter.open(tmp, ArchiveSchemas.SAMPLES.messageType(), footer);
    }

    /** An empty buffer, from the pool when it has one. */
    SampleColumns takeBuffer() {
        SampleColumns spare = spareBuffers.pollFirst();
        return spare != null ? spare : new SampleColumns();
    }

    /** Empties {@code b} into the pool (its file was discarded, or had nothing left to write). */
    void giveBack(SampleColumns b) {
        b.truncate(0);
        spareBuffers.addFirst(b);
    }

    /**
     * Starts writing {@code full}'s rows, sorted by start time (ties in arrival order), as the next row group of
     * {@code w}, after waiting for the row group in flight. {@code full} and {@code w} belong to the encoder thread
     * until {@link #awaitWritten()} returns; the buffer then goes back to the pool.
     *
     * @throws IOException the row group in flight before this one failed
     */
    void submit(ColumnFileWriter w, SampleColumns full) throws IOException {
        awaitWritten();
        if (full.size() == 0) {
            giveBack(full);
            return;
        }
        start(full, () -> write(w, full));
    }

    /**
     * Starts writing {@code last}'s rows as the last row group of {@code w} (none if it is empty), then completing
     * the file {@code tmp} and renaming it atomically over {@code target}, after waiting for the row group in flight.
     * Returns without waiting for the file: it is in place once {@link #tasksDone()} reaches
     * {@link #tasksSubmitted()} as it is on return. {@code last} and {@code w} belong to the encoder thread from now
     * on.
     *
     * @throws IOException the row group in flight before this one failed
     */
    void submitLast(ColumnFileWriter w, SampleColumns last, Path tmp, Path target) throws IOException {
        awaitWritten();
        start(last, () -> {
            if (last.size() > 0) {
                write(w, last);
            }
            try {
                w.close();
                ArchiveLayout.publish(tmp, target);
            } catch (IOException | RuntimeException e) {
                throw new IOException("completing the samples file " + tmp + " as " + target + ": " + e, e);
            }
        });
    }

    /** Tasks handed over so far: the number of the last one. */
    long tasksSubmitted() {
        return submitted;
    }

    /**
     * The number of the last task done, without waiting: the one in flight counts once it has finished.
     *
     * @throws IOException it failed, or an earlier one did
     */
    long tasksDone() throws IOException {
        if (inFlight == null || inFlight.isDone()) {
            awaitWritten();
        }
        return done;
    }

    /** Runs {@code task} on the encoder thread; {@code b} goes back to the pool once it is done. */
    private void start(SampleColumns b, EncoderTask task) {
        inFlightBuffer = b;
        submitted++;
        inFlight = encoderThread.submit(() -> {
            task.run();
            return null;
        });
    }

    /** Work for the encoder thread. */
    @FunctionalInterface
    private interface EncoderTask {
        void run() throws IOException;
    }

    /**
     * Waits until the task in flight, if any, is done (its row group written and, for a file's last, the file in
     * place), and pools its buffer.
     *
     * @throws IOException it failed, or an earlier one did (the file and the row group are named)
     */
    void awaitWritten() throws IOException {
        if (inFlight != null) {
            Future<?> f = inFlight;
            SampleColumns b = inFlightBuffer;
            inFlight = null;
            inFlightBuffer = null;
            try {
                f.get();
                done++;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while a samples row group was written", e);
            } catch (ExecutionException e) {
                failure = e.getCause() instanceof IOException io ? io
                        : new IOException("writing a samples row group: " + e.getCause(), e.getCause());
            } finally {
                giveBack(b);
            }
        }
        if (failure != null) {
            throw new IOException(failure.getMessage(), failure);
        }
    }

    /** On the encoder thread. */
    private void write(ColumnFileWriter w, SampleColumns b) throws IOException {
        int n = b.size();
        int[] order = timeOrder.of(b.startUs(), n);
        try {
            stepId.write(w.pages(0), b.stepIds(), null, order, n);
            producerId.write(w.pages(1), b.producerIds(), b.names(), order, n);
            blockSeq.write(w.pages(2), b.blockSeqs(), null, order, n);
            op.write(w.pages(3), b.ops(), b.names(), order, n);
            startUs.write(w.pages(4), b.startUs(), null, order, n);
            latencyUs.write(w.pages(5), b.latencyUs(), null, order, n);
            intendedStartUs.write(w.pages(6), b.intendedStartUs(), b.openLoop(), order, n);
            status.write(w.pages(7), b.statuses(), STATUS_LABELS, order, n);
            queries.write(w.pages(8), b.queries(), null, order, n);
            warmup.write(w.pages(9), b.warmups(), order, n);
            w.endRowGroup(n);
        } catch (IOException | RuntimeException e) {
            throw new IOException("writing a row group of " + n + " samples to " + w.file() + ": " + e, e);
        }
    }

    private static LongColumnEncoder longs(MessageType schema, Set<String> noDictionary, int index) {
        return new LongColumnEncoder(schema.getColumns().get(index),
                !noDictionary.contains(COLUMNS.get(index)));
    }
}
