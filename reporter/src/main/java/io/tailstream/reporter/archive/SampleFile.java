package io.tailstream.reporter.archive;

import io.tailstream.reporter.parquet.ColumnFileWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * One samples file being written: decoded samples are buffered in {@link SampleColumns} up to a row group, which
 * {@link SampleRowGroupEncoder} then sorts by start time and writes, column by column, into a temporary file on its
 * own thread while the next row group fills another buffer. {@link #publish} hands the last row group over with the
 * file's completion and its renaming into place, which the encoder thread does while the archiving thread goes on;
 * {@link #discard} deletes the file. Memory: one row group's buffer (about 54 bytes a sample) plus the one in flight
 * and its compressed pages, whatever the file's size.
 *
 * <p>Rows are sorted by {@code start_us} within each row group; a file of at most one row group is sorted
 * throughout.
 *
 * <p>Not thread safe.
 */
final class SampleFile {

    private final Path tmp;
    private final Map<String, String> footer;
    private final int rowGroupRows;
    private final SampleRowGroupEncoder encoder;
    private SampleColumns buffer;
    private ColumnFileWriter writer;
    /** Rows handed to the encoder: written, or in flight. */
    private long submittedRows;

    /**
     * @param tmp          the temporary file (created at the first row group)
     * @param footer       key-value metadata of the file's footer
     * @param rowGroupRows rows buffered before a row group is written
     * @param encoder      writes the row groups and keeps the buffers (shared by the archive writer's samples files)
     */
    SampleFile(Path tmp, Map<String, String> footer, int rowGroupRows, SampleRowGroupEncoder encoder) {
        this.tmp = tmp;
        this.footer = footer;
        this.rowGroupRows = rowGroupRows;
        this.encoder = encoder;
        this.buffer = encoder.takeBuffer();
    }

    /** The buffer the next decoded samples go to; it changes when a row group is handed over. */
    SampleColumns buffer() {
        return buffer;
    }

    /** Rows buffered or written so far. */
    long rows() {
        return submittedRows + buffer.size();
    }

    /** Hands the buffer over as a row group if it holds one; called between blocks (a block is never split). */
    void maybeWriteRowGroup() throws IOException {
        if (buffer.size() >= rowGroupRows) {
            submitRowGroup();
        }
    }

    /**
     * Hands what is buffered to the encoder, which writes it, completes the file and renames it atomically over
     * {@code target}; returns without waiting for that ({@link SampleRowGroupEncoder#submitLast}). The file is
     * then the encoder's: neither published nor discarded again.
     */
    void publish(Path target) throws IOException {
        SampleColumns last = buffer;
        buffer = null;
        encoder.submitLast(writer(), last, tmp, target);
        writer = null;
    }

    /** Deletes the temporary file, if any (after a failure, or when no row was archived). */
    void discard() throws IOException {
        try {
            encoder.awaitWritten();
        } catch (IOException e) {
            // this file is deleted anyway; a failed row group fails every later write and publish
        }
        if (buffer != null) {
            encoder.giveBack(buffer);
            buffer = null;
        }
        if (writer != null) {
            try {
                writer.close();
            } finally {
                writer = null;
                Files.deleteIfExists(tmp);
            }
        }
    }

    private void submitRowGroup() throws IOException {
        SampleColumns full = buffer;
        // the row group in flight is waited for anyway: first, so that its buffer is the one taken
        encoder.awaitWritten();
        buffer = encoder.takeBuffer();
        submit(full);
    }

    /** Hands {@code rows} to the encoder as the next row group. */
    private void submit(SampleColumns rows) throws IOException {
        submittedRows += rows.size();
        encoder.submit(writer(), rows);
    }

    /** The file, created at the first row group (an empty file is a valid one too). */
    private ColumnFileWriter writer() throws IOException {
        if (writer == null) {
            Files.createDirectories(tmp.getParent());
            writer = SampleRowGroupEncoder.open(tmp, footer);
        }
        return writer;
    }
}
