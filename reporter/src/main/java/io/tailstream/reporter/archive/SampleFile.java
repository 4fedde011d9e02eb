package io.tailstream.reporter.archive;

import io.tailstream.reporter.parquet.ColumnFileWriter;
import io.tailstream.schemas.block.SampleStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.io.api.Binary;

/**
 * One samples file being written: decoded samples are buffered in {@link SampleColumns} up to a row group, which
 * is then sorted by start time and written value by value into the Parquet column writers of a temporary file; the
 * buffer is reused for the next row group. {@link #publish} writes the last row group and renames the file into
 * place; {@link #discard} deletes it. Memory: one row group's buffer (about 64 bytes a sample with the sort) plus
 * its encoded pages, whatever the file's size.
 *
 * <p>Rows are sorted by {@code start_us} within each row group; a file of at most one row group is sorted
 * throughout.
 *
 * <p>Not thread safe.
 */
final class SampleFile {

    private static final List<String> COLUMNS = List.of("step_id", "producer_id", "block_seq", "op", "start_us",
            "latency_us", "intended_start_us", "status", "queries", "warmup");
    private static final Binary[] STATUS_LABELS = statusLabels();
    private static final int MAX_CACHED_STRINGS = 16;
    /**
     * First column of the second column group ({@code intended_start_us}): the encoder thread takes the costlier
     * first six columns ({@code latency_us}'s dictionary most), the archiving thread, which also decodes and sorts,
     * the other four.
     */
    private static final int SECOND_GROUP = 6;

    private final Path tmp;
    private final int rowGroupRows;
    private final ExecutorService encoder;
    private final Deque<SampleColumns> spareBuffers;
    final SampleColumns buffer;
    private ColumnFileWriter writer;
    /** Producer ids and op names seen with their Parquet bytes (a handful per run); encoder thread only. */
    private final String[] cachedStrings = new String[MAX_CACHED_STRINGS];
    private final Binary[] cachedBinaries = new Binary[MAX_CACHED_STRINGS];
    private int cachedCount;

    static {
        List<String> declared = ArchiveSchemas.SAMPLES.columnNames();
        if (!declared.equals(COLUMNS)) {
            throw new ExceptionInInitializerError("samples columns " + declared + " differ from the writer's "
                    + COLUMNS);
        }
    }

    /**
     * @param tmp          the temporary file (created at the first row group)
     * @param rowGroupRows rows buffered before a row group is written
     * @param encoder      a thread that encodes the first column group of each row group
     * @param spareBuffers buffers of earlier files, which keep their capacity: the buffer is taken from there and
     *                     given back when the file is published or discarded, so steady archiving allocates none
     */
    SampleFile(Path tmp, int rowGroupRows, ExecutorService encoder, Deque<SampleColumns> spareBuffers) {
        this.tmp = tmp;
        this.rowGroupRows = rowGroupRows;
        this.encoder = encoder;
        this.spareBuffers = spareBuffers;
        SampleColumns spare = spareBuffers.pollFirst();
        this.buffer = spare != null ? spare : new SampleColumns();
    }

    /** Rows buffered or written so far. */
    long rows() {
        return buffer.size() + (writer == null ? 0 : writer.rows());
    }

    /** Writes a row group out if the buffer holds one; called between blocks (a block is never split). */
    void maybeWriteRowGroup() throws IOException {
        if (buffer.size() >= rowGroupRows) {
            writeRowGroup();
        }
    }

    /** Writes what is buffered, completes the file and renames it atomically over {@code target}. */
    void publish(Path target) throws IOException {
        writeRowGroup();
        writer.close();
        writer = null;
        spareBuffers.addFirst(buffer);
        ArchiveLayout.publish(tmp, target);
    }

    /** Deletes the temporary file, if any (after a failure, or when no row was archived). */
    void discard() throws IOException {
        if (writer != null) {
            try {
                writer.close();
            } finally {
                writer = null;
                Files.deleteIfExists(tmp);
            }
        }
        buffer.truncate(0);
        spareBuffers.addFirst(buffer);
    }

    private void writeRowGroup() throws IOException {
        if (writer == null) {
            Files.createDirectories(tmp.getParent());
            writer = ColumnFileWriter.open(tmp, ArchiveSchemas.SAMPLES.messageType(),
                    ArchiveSchemas.SAMPLES.noDictionaryColumns(), 0, SECOND_GROUP);
        }
        int n = buffer.size();
        if (n == 0) {
            return;
        }
        int[] order = buffer.timeOrder();
        // the two column groups have their own column writers: the encoder thread fills one while this one fills
        // the other (on 2 cores, per-value encoding is most of the archiver's CPU)
        Future<?> first = encoder.submit(() -> writeFirstGroup(order, n));
        writeSecondGroup(order, n);
        try {
            first.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while encoding a row group of " + tmp, e);
        } catch (ExecutionException e) {
            throw new IOException("encoding a row group of " + tmp + ": " + e.getCause(), e.getCause());
        }
        writer.endRowGroup();
        buffer.truncate(0);
    }

    /** step_id, producer_id, block_seq, op, start_us, latency_us. */
    private void writeFirstGroup(int[] order, int n) {
        ColumnWriter stepId = writer.column(0);
        ColumnWriter producerId = writer.column(1);
        ColumnWriter blockSeq = writer.column(2);
        ColumnWriter op = writer.column(3);
        ColumnWriter startUs = writer.column(4);
        ColumnWriter latencyUs = writer.column(5);
        SampleColumns b = buffer;
        for (int k = 0; k < n; k++) {
            int i = order[k];
            stepId.write(b.stepId(i), 0, 0);
            producerId.write(binary(b.producerId(i)), 0, 0);
            blockSeq.write(b.blockSeq(i), 0, 0);
            op.write(binary(b.op(i)), 0, 0);
            startUs.write(b.startUs(i), 0, 0);
            latencyUs.write(b.latencyUs(i), 0, 0);
            writer.endRow(0);
        }
    }

    /** intended_start_us, status, queries, warmup. */
    private void writeSecondGroup(int[] order, int n) {
        ColumnWriter intendedStartUs = writer.column(6);
        ColumnWriter status = writer.column(7);
        ColumnWriter queries = writer.column(8);
        ColumnWriter warmup = writer.column(9);
        SampleColumns b = buffer;
        for (int k = 0; k < n; k++) {
            int i = order[k];
            if (b.openLoop(i)) {
                intendedStartUs.write(b.intendedStartUs(i), 0, 1);
            } else {
                intendedStartUs.writeNull(0, 0);
            }
            status.write(STATUS_LABELS[b.statusOrdinal(i)], 0, 0);
            queries.write(b.queries(i), 0, 0);
            warmup.write(b.warmup(i), 0, 0);
            writer.endRow(1);
        }
    }

    /** Parquet bytes of a producer id or op name (canonical instances, see the archive writer). */
    private Binary binary(String s) {
        for (int k = 0; k < cachedCount; k++) {
            if (cachedStrings[k] == s) {
                return cachedBinaries[k];
            }
        }
        if (cachedCount == cachedStrings.length) {
            cachedCount = 0; // a run with unusually many ops: start over rather than grow
        }
        Binary v = Binary.fromConstantByteArray(s.getBytes(StandardCharsets.UTF_8));
        cachedStrings[cachedCount] = s;
        cachedBinaries[cachedCount++] = v;
        return v;
    }

    private static Binary[] statusLabels() {
        SampleStatus[] all = SampleStatus.values();
        Binary[] out = new Binary[all.length];
        for (int i = 0; i < all.length; i++) {
            out[i] = Binary.fromConstantByteArray(all[i].label().getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }
}
