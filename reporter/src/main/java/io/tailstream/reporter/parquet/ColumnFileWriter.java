package io.tailstream.reporter.parquet;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;

/**
 * Writes a flat Parquet file column value by column value, straight into parquet-java's column writers
 * ({@link ColumnWriteStore}), with the row groups the caller chooses: no row object, no record assembly, no boxing.
 * The encodings are those of {@link ParquetTableWriter} (format v2 pages, ZSTD level 3, dictionary/RLE except for
 * the schema's sorted columns, which are {@code DELTA_BINARY_PACKED}), so a file reads the same whichever wrote it.
 *
 * <p>Memory: the encoded (and, once a page is full, compressed) pages of the current row group only; {@link
 * #endRowGroup()} writes them out and frees them. Columns may be split into groups that separate threads fill
 * (see {@link #open}).
 *
 * <p>Usage: for each row, one {@code write} (or {@code writeNull}) on every column's {@link #column(int) writer},
 * then {@link #endRow()}; {@link #endRowGroup()} whenever a row group is complete; {@link #close()} writes the last
 * one and the footer. A column of a flat schema takes repetition level 0 and definition level 0 for a required
 * value, 1 for a present optional value, 0 in {@code writeNull}.
 *
 * <p>Not thread safe, except that each column group may be filled by its own thread between row groups.
 */
public final class ColumnFileWriter implements Closeable {

    private static final String CREATED_BY_KEY = "writer.model.name";
    /** Only used to align row groups to HDFS blocks, which a local file has not (padding is off). */
    private static final long ROW_GROUP_BYTES_HINT = 128L * 1024 * 1024;

    private final Path file;
    private final ParquetProperties props;
    private final HadoopFreeCodecFactory codecs = new HadoopFreeCodecFactory();
    private final ParquetFileWriter fileWriter;
    private final Map<String, String> metadata;
    private final Group[] groups;
    private final Group[] groupOfColumn;
    private final ColumnWriter[] writers;
    private long rows;
    private boolean closed;

    private ColumnFileWriter(Path file, MessageType schema, Set<String> noDictionary, int[] groupStarts)
            throws IOException {
        this.file = file;
        ParquetProperties.Builder b = ParquetProperties.builder()
                .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_2_0)
                .withDictionaryEncoding(true);
        for (String column : noDictionary) {
            b.withDictionaryEncoding(column, false);
        }
        this.props = b.build();
        int columns = schema.getFieldCount();
        if (groupStarts.length == 0 || groupStarts[0] != 0) {
            throw new IllegalArgumentException("column groups must start at column 0, were "
                    + Arrays.toString(groupStarts));
        }
        this.groups = new Group[groupStarts.length];
        this.groupOfColumn = new Group[columns];
        for (int g = 0; g < groupStarts.length; g++) {
            int from = groupStarts[g];
            int to = g + 1 < groupStarts.length ? groupStarts[g + 1] : columns;
            if (to <= from || to > columns) {
                throw new IllegalArgumentException("column groups " + Arrays.toString(groupStarts)
                        + " do not split " + columns + " columns into non-empty ranges");
            }
            // a flat schema's fields are its columns; a group is a contiguous run of them, so flushing the groups
            // in order writes the column chunks in schema order, as the format requires
            groups[g] = new Group(new MessageType(schema.getName(), schema.getFields().subList(from, to)), from);
            Arrays.fill(groupOfColumn, from, to, groups[g]);
        }
        this.fileWriter = new ParquetFileWriter(new LocalOutputFile(file), schema, ParquetFileWriter.Mode.OVERWRITE,
                ROW_GROUP_BYTES_HINT, 0, null, props);
        this.metadata = new HashMap<>();
        this.metadata.put(CREATED_BY_KEY, "tailstream");
        this.writers = new ColumnWriter[columns];
        fileWriter.start();
        for (Group g : groups) {
            g.start();
        }
    }

    /**
     * Creates (or overwrites) {@code file}.
     *
     * @param noDictionary columns written without a dictionary (delta encoded), as {@link
     *                     TableSchema#noDictionaryColumns()}
     * @param groupStarts  the first column of each column group, ascending from 0 ({@code 0} alone: one group).
     *                     Each group has its own column writers, so different threads may fill different groups of
     *                     the same row group at once (one thread per group); {@link #endRowGroup()} then needs
     *                     every group to hold the same rows
     */
    public static ColumnFileWriter open(Path file, MessageType schema, Set<String> noDictionary, int... groupStarts)
            throws IOException {
        return new ColumnFileWriter(file, schema, noDictionary, groupStarts.length == 0 ? new int[] {0}
                : groupStarts);
    }

    /** The writer of the column at {@code index} in schema order, valid until the next {@link #endRowGroup()}. */
    public ColumnWriter column(int index) {
        return writers[index];
    }

    /** Ends the row whose values every column of the single group was just given. */
    public void endRow() {
        endRow(0);
    }

    /** Ends the row whose values every column of group {@code group} was just given. */
    public void endRow(int group) {
        groups[group].columnStore.endRecord();
        groups[group].rows++;
    }

    /** Rows written so far, in completed row groups. */
    public long rows() {
        return rows;
    }

    public Path file() {
        return file;
    }

    /** Writes the current row group out (nothing if it is empty) and starts the next. */
    public void endRowGroup() throws IOException {
        long groupRows = groups[0].rows;
        for (Group g : groups) {
            if (g.rows != groupRows) {
                throw new IllegalStateException("column groups of " + file + " end a row group with different row"
                        + " counts: " + Arrays.stream(groups).map(x -> String.valueOf(x.rows)).toList());
            }
        }
        if (groupRows == 0) {
            return;
        }
        fileWriter.startBlock(groupRows);
        for (Group g : groups) {
            g.flushTo(fileWriter);
        }
        fileWriter.endBlock();
        rows += groupRows;
        for (Group g : groups) {
            g.start();
        }
    }

    /** Writes the last row group and the footer. The file is complete only after this returns. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            endRowGroup();
            fileWriter.end(metadata);
        } finally {
            for (Group g : groups) {
                g.release();
            }
            codecs.release();
        }
    }

    /** A contiguous run of columns with their own page and column stores. */
    private final class Group {
        final MessageType schema;
        final int firstColumn;
        final BytesInputCompressor compressor = codecs.getCompressor(CompressionCodecName.ZSTD);
        ColumnChunkPageWriteStore pageStore;
        ColumnWriteStore columnStore;
        long rows;

        Group(MessageType schema, int firstColumn) {
            this.schema = schema;
            this.firstColumn = firstColumn;
        }

        void start() {
            pageStore = new ColumnChunkPageWriteStore(compressor, schema, new HeapByteBufferAllocator(),
                    props.getColumnIndexTruncateLength(), props.getPageWriteChecksumEnabled());
            columnStore = props.newColumnWriteStore(schema, pageStore, pageStore);
            List<ColumnDescriptor> columns = schema.getColumns();
            for (int i = 0; i < columns.size(); i++) {
                writers[firstColumn + i] = columnStore.getColumnWriter(columns.get(i));
            }
            rows = 0;
        }

        void flushTo(ParquetFileWriter w) throws IOException {
            columnStore.flush();
            pageStore.flushToFileWriter(w);
            release();
        }

        void release() {
            if (columnStore != null) {
                columnStore.close();
                pageStore.close();
                columnStore = null;
                pageStore = null;
            }
        }
    }
}
