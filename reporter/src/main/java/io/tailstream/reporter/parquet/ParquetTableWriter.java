package io.tailstream.reporter.parquet;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.RecordConsumer;

/**
 * Writes rows of a {@link TableSchema} to one local Parquet file, without Hadoop at run time: {@link
 * LocalOutputFile}, {@link PlainParquetConfiguration} and {@link HadoopFreeCodecFactory}. Format v2 pages, ZSTD,
 * dictionary/RLE except for the schema's sorted columns (DELTA_BINARY_PACKED).
 *
 * <p>The file is complete only after {@link #close()}. Callers that need atomicity write to a temporary name and
 * move the closed file into place (see {@code io.tailstream.reporter.archive.ArchiveLayout}).
 *
 * <p>Not thread safe: one writer belongs to one thread.
 *
 * @param <T> the row type
 */
public final class ParquetTableWriter<T> implements Closeable {

    private final ParquetWriter<T> writer;
    private final Path file;
    private long rows;

    private ParquetTableWriter(ParquetWriter<T> writer, Path file) {
        this.writer = writer;
        this.file = file;
    }

    /** Opens (creating or overwriting) {@code file} with ZSTD level 3. */
    public static <T> ParquetTableWriter<T> open(Path file, TableSchema<T> schema) throws IOException {
        return open(file, schema, CompressionCodecName.ZSTD, Map.of());
    }

    /**
     * @param codec         ZSTD, GZIP or UNCOMPRESSED
     * @param extraMetadata key/value pairs stored in the file footer (e.g. the writer's version, source offsets)
     */
    public static <T> ParquetTableWriter<T> open(Path file, TableSchema<T> schema, CompressionCodecName codec,
                                                 Map<String, String> extraMetadata) throws IOException {
        Builder<T> b = new Builder<>(new LocalOutputFile(file), schema)
                .withConf(new PlainParquetConfiguration())
                .withCodecFactory(new HadoopFreeCodecFactory())
                .withCompressionCodec(codec)
                .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
                .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_2_0)
                .withDictionaryEncoding(true)
                .withExtraMetaData(new HashMap<>(extraMetadata));
        for (String column : schema.noDictionaryColumns()) {
            b = b.withDictionaryEncoding(column, false);
        }
        return new ParquetTableWriter<>(b.build(), file);
    }

    public void write(T row) {
        try {
            writer.write(row);
        } catch (IOException e) {
            throw new UncheckedIOException("writing row " + rows + " to " + file, e);
        }
        rows++;
    }

    /** Rows written so far. */
    public long rows() {
        return rows;
    }

    public Path file() {
        return file;
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }

    private static final class Builder<T> extends ParquetWriter.Builder<T, Builder<T>> {
        private final TableSchema<T> schema;

        Builder(OutputFile file, TableSchema<T> schema) {
            super(file);
            this.schema = schema;
        }

        @Override
        protected Builder<T> self() {
            return this;
        }

        @Override
        protected WriteSupport<T> getWriteSupport(org.apache.hadoop.conf.Configuration conf) {
            return new SchemaWriteSupport<>(schema);
        }

        @Override
        protected WriteSupport<T> getWriteSupport(ParquetConfiguration conf) {
            return new SchemaWriteSupport<>(schema);
        }
    }

    private static final class SchemaWriteSupport<T> extends WriteSupport<T> {
        private final TableSchema<T> schema;
        private RecordConsumer consumer;

        SchemaWriteSupport(TableSchema<T> schema) {
            this.schema = schema;
        }

        @Override
        public WriteContext init(org.apache.hadoop.conf.Configuration configuration) {
            return new WriteContext(schema.messageType(), Map.of());
        }

        @Override
        public WriteContext init(ParquetConfiguration configuration) {
            return new WriteContext(schema.messageType(), Map.of());
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            this.consumer = recordConsumer;
        }

        @Override
        public void write(T record) {
            schema.write(record, consumer);
        }

        @Override
        public String getName() {
            return "tailstream";
        }
    }
}
