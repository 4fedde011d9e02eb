package io.tailstream.reporter.parquet;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;

/**
 * Writes a flat Parquet file column chunk by column chunk: the caller's encoders ({@link LongColumnEncoder}, {@link
 * StringColumnEncoder}, {@link BooleanColumnEncoder}) write each column's pages straight into parquet-java's page
 * writers ({@link #pages(int)}), in row groups of the caller's choosing: no row object, no record assembly, no
 * per-value call into parquet-java's column writers. Pages are format v2, compressed with ZSTD level 3; a file
 * reads as one written by {@link ParquetTableWriter} does.
 *
 * <p>Memory: the compressed pages of the current row group only; {@link #endRowGroup(long)} writes them out and
 * frees them.
 *
 * <p>Usage: for each row group, every column's chunk written to its {@link #pages(int) page writer}, then {@link
 * #endRowGroup(long)}; {@link #close()} writes the footer.
 *
 * <p>Not thread safe (the page writers share one compressor).
 */
public final class ColumnFileWriter implements Closeable {

    private static final String CREATED_BY_KEY = "writer.model.name";
    /** Only used to align row groups to HDFS blocks, which a local file has not (padding is off). */
    private static final long ROW_GROUP_BYTES_HINT = 128L * 1024 * 1024;

    private final Path file;
    private final MessageType schema;
    private final ParquetProperties props = ParquetProperties.builder()
            .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_2_0)
            .build();
    private final HadoopFreeCodecFactory codecs = new HadoopFreeCodecFactory();
    private final BytesInputCompressor compressor = codecs.getCompressor(CompressionCodecName.ZSTD);
    private final ParquetFileWriter fileWriter;
    private final Map<String, String> metadata = new HashMap<>();
    private final PageWriter[] pageWriters;
    private ColumnChunkPageWriteStore pageStore;
    private long rows;
    private boolean closed;

    private ColumnFileWriter(Path file, MessageType schema, Map<String, String> footer) throws IOException {
        this.file = file;
        this.schema = schema;
        this.fileWriter = new ParquetFileWriter(new LocalOutputFile(file), schema, ParquetFileWriter.Mode.OVERWRITE,
                ROW_GROUP_BYTES_HINT, 0, null, props);
        this.metadata.putAll(footer);
        this.metadata.put(CREATED_BY_KEY, "tailstream");
        this.pageWriters = new PageWriter[schema.getColumns().size()];
        fileWriter.start();
        startRowGroup();
    }

    /** Creates (or overwrites) {@code file}. */
    public static ColumnFileWriter open(Path file, MessageType schema) throws IOException {
        return open(file, schema, Map.of());
    }

    /**
     * Creates (or overwrites) {@code file}.
     *
     * @param footer key/value pairs stored in the file footer (e.g. where the rows came from)
     */
    public static ColumnFileWriter open(Path file, MessageType schema, Map<String, String> footer)
            throws IOException {
        return new ColumnFileWriter(file, schema, footer);
    }

    /** The column at {@code index} in schema order, for its encoder. */
    public ColumnDescriptor column(int index) {
        return schema.getColumns().get(index);
    }

    /** The page writer of the column at {@code index} in schema order, valid until the next row group. */
    public PageWriter pages(int index) {
        return pageWriters[index];
    }

    /** Rows written so far, in completed row groups. */
    public long rows() {
        return rows;
    }

    public Path file() {
        return file;
    }

    /**
     * Writes the current row group of {@code groupRows} rows out (nothing if it is empty) and starts the next. Every
     * column's chunk must hold {@code groupRows} rows.
     */
    public void endRowGroup(long groupRows) throws IOException {
        if (groupRows == 0) {
            return;
        }
        fileWriter.startBlock(groupRows);
        pageStore.flushToFileWriter(fileWriter);
        fileWriter.endBlock();
        rows += groupRows;
        releasePages();
        startRowGroup();
    }

    /** Writes the footer (the last row group must have been ended). The file is complete only after this returns. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            fileWriter.end(metadata);
        } finally {
            releasePages();
            codecs.release();
        }
    }

    private void startRowGroup() {
        pageStore = new ColumnChunkPageWriteStore(compressor, schema, new HeapByteBufferAllocator(),
                props.getColumnIndexTruncateLength(), props.getPageWriteChecksumEnabled());
        List<ColumnDescriptor> columns = schema.getColumns();
        for (int i = 0; i < columns.size(); i++) {
            pageWriters[i] = pageStore.getPageWriter(columns.get(i));
        }
    }

    private void releasePages() {
        if (pageStore != null) {
            pageStore.close();
            pageStore = null;
        }
    }
}
