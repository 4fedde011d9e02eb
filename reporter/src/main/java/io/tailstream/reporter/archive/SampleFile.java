package io.tailstream.reporter.archive;

import io.tailstream.reporter.parquet.ColumnFileWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Deque;

/**
 * One samples file being written: decoded samples are buffered in {@link SampleColumns} up to a row group, which
 * {@link SampleRowGroupEncoder} sorts by start time and writes, column by column, into a temporary file; the buffer
 * is reused for the next row group. {@link #publish} writes the last row group and renames the file into place;
 * {@link #discard} deletes it. Memory: one row group's buffer (about 65 bytes a sample with the sort) plus its
 * compressed pages, whatever the file's size.
 *
 * <p>Rows are sorted by {@code start_us} within each row group; a file of at most one row group is sorted
 * throughout.
 *
 * <p>Not thread safe.
 */
final class SampleFile {

    private final Path tmp;
    private final int rowGroupRows;
    private final SampleRowGroupEncoder encoder;
    private final Deque<SampleColumns> spareBuffers;
    final SampleColumns buffer;
    private ColumnFileWriter writer;

    /**
     * @param tmp          the temporary file (created at the first row group)
     * @param rowGroupRows rows buffered before a row group is written
     * @param encoder      writes the row groups (shared by the archive writer's samples files)
     * @param spareBuffers buffers of earlier files, which keep their capacity: the buffer is taken from there and
     *                     given back when the file is published or discarded, so steady archiving allocates none
     */
    SampleFile(Path tmp, int rowGroupRows, SampleRowGroupEncoder encoder, Deque<SampleColumns> spareBuffers) {
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
            writer = SampleRowGroupEncoder.open(tmp);
        }
        encoder.write(writer, buffer);
        buffer.truncate(0);
    }
}
