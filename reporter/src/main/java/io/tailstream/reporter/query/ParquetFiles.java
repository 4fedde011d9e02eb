package io.tailstream.reporter.query;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.Util;

/**
 * Cheap structural check of a Parquet file before DuckDB reads it: the magic bytes at both ends, a footer length
 * that fits the file, and a footer that parses (Thrift) with a row count. Catches truncated files and overwritten
 * footers — what a crash, a full disk or a bad copy leaves — in microseconds per file, without reading data pages.
 * Stateless and thread safe.
 */
final class ParquetFiles {

    private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);
    /** magic + footer length + magic. */
    private static final int MIN_SIZE = 4 + 4 + 4;

    private ParquetFiles() {}

    /** Why the file cannot be read, or empty if its structure is sound. */
    static Optional<String> problem(Path file) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < MIN_SIZE) {
                return Optional.of("too small for a Parquet file (" + size + " bytes)");
            }
            ByteBuffer head = ByteBuffer.allocate(4);
            readFully(ch, head, 0);
            if (!head.equals(ByteBuffer.wrap(MAGIC))) {
                return Optional.of("no Parquet magic bytes at the start (not a Parquet file)");
            }
            ByteBuffer tail = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
            readFully(ch, tail, size - 8);
            if (!ByteBuffer.wrap(tail.array(), 4, 4).equals(ByteBuffer.wrap(MAGIC))) {
                return Optional.of("no Parquet magic bytes at the end (truncated or footer overwritten, " + size
                        + " bytes)");
            }
            long footerLength = Integer.toUnsignedLong(tail.getInt(0));
            if (footerLength > size - MIN_SIZE) {
                return Optional.of("footer length " + footerLength + " exceeds the file size " + size
                        + " (footer overwritten)");
            }
            ByteBuffer footer = ByteBuffer.allocate((int) footerLength);
            readFully(ch, footer, size - 8 - footerLength);
            FileMetaData meta = Util.readFileMetaData(new ByteArrayInputStream(footer.array()));
            if (meta.getNum_rows() < 0) {
                return Optional.of("footer declares " + meta.getNum_rows() + " rows");
            }
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.of("unreadable footer (" + e.getMessage() + ")");
        }
    }

    private static void readFully(FileChannel ch, ByteBuffer buf, long position) throws IOException {
        long pos = position;
        while (buf.hasRemaining()) {
            int n = ch.read(buf, pos);
            if (n < 0) {
                throw new IOException("unexpected end of file at " + pos);
            }
            pos += n;
        }
        buf.flip();
    }
}
