package io.tailstream.reporter.archive;

import io.tailstream.reporter.parquet.ParquetTableWriter;
import io.tailstream.reporter.parquet.TableSchema;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Puts the archive writer's files in place and counts them: Parquet files written under a temporary name and
 * renamed atomically ({@link ArchiveLayout#writeAtomically}), and samples files handed to the encoder thread, which
 * completes and renames them ({@link SampleFile#publish}). Temporary names carry the topic partition the file is
 * written from and this writer's instance tag.
 *
 * <p>Not thread safe: the archive writer's thread.
 */
final class DatasetFiles {

    /** Writes a file's rows to its temporary file. */
    @FunctionalInterface
    interface RowsWriter {
        /** @return the rows written */
        long writeTo(Path tmp) throws IOException;
    }

    private final Path archiveDir;
    private final int rowGroupRows;
    private final SampleRowGroupEncoder sampleEncoder;
    /** Tags this writer's temporary files: two archivers writing one directory never share one. */
    private final String instance = ArchiveLayout.newInstanceTag();
    private final Map<String, Long> rowsByDataset = new TreeMap<>();
    private long filesWritten;

    /**
     * @param rowGroupRows  samples buffered, sorted and written as one Parquet row group
     * @param sampleEncoder encodes and publishes the samples files on the encoder thread
     */
    DatasetFiles(Path archiveDir, int rowGroupRows, SampleRowGroupEncoder sampleEncoder) {
        this.archiveDir = archiveDir;
        this.rowGroupRows = rowGroupRows;
        this.sampleEncoder = sampleEncoder;
    }

    /** Where a run's file of a dataset goes. */
    Path target(String dataset, String run, String fileName) {
        return ArchiveLayout.runDir(archiveDir, dataset, run).resolve(fileName);
    }

    /** A run's samples file of the records of {@code source} from {@code fromOffset} on, under a temporary name. */
    SampleFile openSamples(String run, PendingPartition source, long fromOffset) {
        TopicPartition tp = source.partition;
        return new SampleFile(ArchiveLayout.runDir(archiveDir, ArchiveLayout.SAMPLES, run)
                .resolve(ArchiveLayout.openFileName(tp.topic(), tp.partition(), fromOffset, instance)), source.footer(),
                rowGroupRows, sampleEncoder);
    }

    /** Hands a run's samples file to the encoder thread, which completes it and renames it over {@code target}. */
    void publishSamples(SampleFile file, Path target) throws IOException {
        long rows = file.rows();
        file.publish(target);
        filesWritten++;
        rowsByDataset.merge(ArchiveLayout.SAMPLES, rows, Long::sum);
    }

    /**
     * Writes a file of {@code dataset} and renames it over {@code target}.
     *
     * @param source the partition the rows come from: tags the temporary file
     * @param footer the file footer's key-value metadata
     */
    <T> void write(String dataset, Path target, TopicPartition source, Map<String, String> footer,
                   TableSchema<T> schema, Consumer<ParquetTableWriter<T>> rows) throws IOException {
        writeAtomically(dataset, target, source, tmp -> {
            try (ParquetTableWriter<T> w = ParquetTableWriter.open(tmp, schema, CompressionCodecName.ZSTD, footer)) {
                rows.accept(w);
                return w.rows();
            }
        });
    }

    /**
     * Writes a file of {@code dataset} by {@code body} and renames it over {@code target}.
     *
     * @param source the partition whose flush writes the file: tags the temporary file
     */
    void writeAtomically(String dataset, Path target, TopicPartition source, RowsWriter body) throws IOException {
        String tmpName = ArchiveLayout.temporaryName(target.getFileName().toString(), source.topic(),
                source.partition(), instance);
        long[] count = new long[1];
        ArchiveLayout.writeAtomically(target, tmpName, tmp -> count[0] = body.writeTo(tmp));
        filesWritten++;
        rowsByDataset.merge(dataset, count[0], Long::sum);
    }

    /**
     * Parquet files moved into place so far (replacements after a crash included), and samples files handed to the
     * encoder thread to be.
     */
    long filesWritten() {
        return filesWritten;
    }

    /** Rows of the files counted by {@link #filesWritten()}, per dataset. */
    Map<String, Long> rowsByDataset() {
        return Collections.unmodifiableMap(rowsByDataset);
    }
}
