package io.tailstream.reporter.archive;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka-free half of the {@link Archiver}: turns records of the samples, windows, control, stalls and summaries
 * topics into archive files and says which offsets may be committed. Separate from the consumer so tests (and tools
 * that rebuild an archive from a topic dump) can feed records directly.
 *
 * <p>Exactly-once protocol (see {@link Archiver}): per partition, buffer; on flush write one file per run and
 * dataset named after the offset range, atomically; recompute derived datasets; then, once every file of the range
 * is in place, hand the next offsets to the {@link Committer}. Samples files are completed and renamed into place
 * by the encoder thread while this thread goes on consuming, so a flush's offsets wait in {@link PendingCommits}
 * until the encoder has published its files (and every one before them); they are committed from a later
 * {@link #accept(ConsumerRecords)} or flush, and {@link #flushAll} and {@link #flush(Collection)} return only once
 * all is committed. {@link #addPartition} arms the replay boundaries that make a restart after a crash rewrite
 * the same file names. Files record the {@code TopicIncarnation} they were read from, so files of another
 * incarnation of a topic (another cluster, or the topic created again) are never taken for a flush to repeat, nor
 * replaced.
 *
 * <p>It ties the parts together, per partition: {@link RecordDecoder} decodes records into the partition's
 * {@link PendingPartition} buffer, {@link PartitionFlusher} writes buffers into files ({@link DatasetFiles}),
 * rebuilds the {@link DerivedDatasets} and commits, {@link ArchivedRanges} keeps the replay boundaries and guards
 * the files of other incarnations.
 *
 * <p>Not thread safe: one thread feeds and flushes.
 */
public final class ArchiveWriter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ArchiveWriter.class);

    /**
     * Receives the offsets to commit once every file of their ranges is in place, in flush order, on the thread
     * that feeds the writer.
     */
    @FunctionalInterface
    public interface Committer {
        void commit(Map<TopicPartition, OffsetAndMetadata> offsets);
    }

    private final Path archiveDir;
    private final int rollRows;
    /** Sorts, encodes and publishes samples row groups while the calling thread polls and decodes the next. */
    private final ExecutorService encoder;
    private final ArchiveDuckDb duckdb = new ArchiveDuckDb();
    private final DatasetFiles files;
    private final ArchivedRanges ranges;
    private final RecordDecoder decoder;
    private final PartitionFlusher flusher;
    private final Map<TopicPartition, PendingPartition> pending = new HashMap<>();

    /**
     * A writer with samples row groups of {@link ArchiverConfig#DEFAULT_ROW_GROUP_ROWS}.
     *
     * @param rollRows  a partition's buffer is flushed at this many rows
     * @param committer called with a flush's offsets once every file of its ranges is in place
     */
    public ArchiveWriter(Path archiveDir, int rollRows, Committer committer) {
        this(archiveDir, rollRows, ArchiverConfig.DEFAULT_ROW_GROUP_ROWS, committer);
    }

    /**
     * @param rollRows     a partition's rows are flushed into files (and committed) at this many rows
     * @param rowGroupRows samples buffered, sorted and written as one Parquet row group: what bounds memory
     * @param committer    called with a flush's offsets once every file of its ranges is in place
     */
    public ArchiveWriter(Path archiveDir, int rollRows, int rowGroupRows, Committer committer) {
        this(archiveDir, rollRows, rowGroupRows, committer, Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "tailstream-archive-encoder");
            t.setDaemon(true);
            return t;
        }));
    }

    /**
     * @param encoder a single thread (its tasks run in order) that samples files are encoded and published on; shut
     *                down by {@link #close()}
     */
    ArchiveWriter(Path archiveDir, int rollRows, int rowGroupRows, Committer committer, ExecutorService encoder) {
        if (rollRows < 1 || rollRows > ArchiverConfig.MAX_ROLL_ROWS) {
            throw new IllegalArgumentException("rollRows must be in 1.." + ArchiverConfig.MAX_ROLL_ROWS + ", was "
                    + rollRows);
        }
        if (rowGroupRows < 1 || rowGroupRows > ArchiverConfig.MAX_ROW_GROUP_ROWS) {
            throw new IllegalArgumentException("rowGroupRows must be in 1.." + ArchiverConfig.MAX_ROW_GROUP_ROWS
                    + ", was " + rowGroupRows);
        }
        this.archiveDir = archiveDir;
        this.rollRows = rollRows;
        this.encoder = encoder;
        SampleRowGroupEncoder sampleEncoder = new SampleRowGroupEncoder(encoder);
        this.files = new DatasetFiles(archiveDir, rowGroupRows, sampleEncoder);
        this.ranges = new ArchivedRanges(archiveDir, duckdb);
        this.decoder = new RecordDecoder(archiveDir, files);
        this.flusher = new PartitionFlusher(archiveDir, files, ranges, new DerivedDatasets(archiveDir, files, duckdb),
                sampleEncoder, committer);
        try {
            Files.createDirectories(archiveDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the archive directory " + archiveDir, e);
        }
    }

    /**
     * Starts buffering a partition whose consumption starts at {@code startOffset} (the committed offset). Files
     * already in the archive for offsets at or after it come from a flush whose commit was lost (this archiver's or
     * the partition's previous owner's: the directory is listed now, not at start): their end offsets become flush
     * boundaries, so re-archiving replaces them under the same names. Temporary files an earlier owner of the
     * partition left are deleted. The writer is not told which incarnation of the topic the records come from (for
     * tests and tools that feed records without a cluster): its files record none, and every file of the partition
     * counts as its own.
     */
    public void addPartition(TopicPartition tp, long startOffset) {
        addPartitions(Map.of(tp, startOffset), Map.of());
    }

    /**
     * {@link #addPartition} for several partitions at once (one listing of the archive), told where their records
     * come from. A file whose footer records another incarnation of the topic holds other records under the same
     * offsets: it is left alone. A file that records none (written before files did) counts as the partition's own.
     *
     * @param incarnations per topic, the incarnation its records come from, recorded in every file written from it;
     *                     a topic without one writes files that record none, and takes every file as its own
     */
    void addPartitions(Map<TopicPartition, Long> startOffsets, Map<String, TopicIncarnation> incarnations) {
        // a partition lost and assigned again: the listing must see the files of its last flush
        flusher.awaitEncoderQuietly();
        List<Path> archived = ranges.list(startOffsets.keySet());
        for (Map.Entry<TopicPartition, Long> e : startOffsets.entrySet()) {
            TopicPartition tp = e.getKey();
            TopicIncarnation incarnation = incarnations.get(tp.topic());
            removePartitions(List.of(tp));
            pending.put(tp, new PendingPartition(tp, incarnation));
            ranges.arm(tp, e.getValue(), incarnation, archived);
        }
    }

    /**
     * The offset after the last file found beyond the committed offset when the partition was added, or -1: until
     * the partition is consumed up to there, its buffer is only written at those files' boundaries.
     */
    public long replayEnd(TopicPartition tp) {
        return ranges.replayEnd(tp);
    }

    /**
     * Stops buffering partitions (revoked or lost in a rebalance, after a {@link #flush} of what may be kept):
     * drops what they still buffer, and the offsets of flushes not yet committed, for their next owner to archive
     * from the committed offset. Returns once no file of theirs is being written.
     */
    public void removePartitions(Collection<TopicPartition> partitions) {
        flusher.awaitEncoderQuietly();
        flusher.dropUncommitted(partitions);
        for (TopicPartition tp : partitions) {
            PendingPartition pp = pending.remove(tp);
            ranges.forget(tp);
            if (pp == null) {
                continue;
            }
            for (PendingPartition.RunRows rows : pp.byRun.values()) {
                if (rows.samples != null) {
                    try {
                        rows.samples.discard();
                    } catch (IOException e) {
                        LOG.warn("deleting an unfinished samples file of {} failed (its next owner deletes it): {}",
                                tp, e.getMessage());
                    }
                    rows.samples = null;
                }
            }
        }
    }

    // ---- consuming ----

    /**
     * Commits the flushes whose files are now in place, then buffers polled records, flushing where a replay
     * boundary or the row limit says so.
     *
     * @throws UncheckedIOException a samples file could not be written or published: nothing after it is written
     *                              or committed
     */
    public void accept(ConsumerRecords<byte[], byte[]> records) {
        flusher.commitPublished();
        for (TopicPartition tp : records.partitions()) {
            for (ConsumerRecord<byte[], byte[]> r : records.records(tp)) {
                accept(r);
            }
        }
    }

    /** Buffers one record of a partition added with {@link #addPartition}; records of a partition in offset order. */
    public void accept(ConsumerRecord<byte[], byte[]> r) {
        TopicPartition tp = new TopicPartition(r.topic(), r.partition());
        PendingPartition pp = pending.get(tp);
        if (pp == null) {
            throw new IllegalStateException("record from " + tp + ", which was not added to the archive writer");
        }
        while (ranges.passedWithoutRecord(pp, r.offset())) {
            flusher.flush(List.of(pp), true);
        }
        decoder.decode(pp, r);
        pp.consumed(r.offset());
        if (ranges.reached(tp, r.offset())) {
            flusher.flush(List.of(pp), true);
        } else if (pp.rows >= rollRows) {
            flusher.flush(List.of(pp), false);
        }
    }

    // ---- flushing ----

    /**
     * Writes and commits everything buffered, but for a partition being re-archived short of its next replay
     * boundary (see {@link #addPartition}): a file ending elsewhere would overlap the one the boundary belongs to.
     * Returns once every file flushed so far is in place and its offsets committed.
     */
    public void flushAll() {
        flusher.flush(pending.values(), false);
        flusher.awaitPublished();
    }

    /**
     * {@link #flushAll} for some partitions (those revoked in a rebalance: their offsets are committed when it
     * returns); partitions not added are ignored.
     */
    public void flush(Collection<TopicPartition> partitions) {
        List<PendingPartition> pps = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            PendingPartition pp = pending.get(tp);
            if (pp != null) {
                pps.add(pp);
            }
        }
        flusher.flush(pps, false);
        flusher.awaitPublished();
    }

    /** Waits until the encoder has published every samples file handed to it, then commits what was flushed. */
    void awaitPublished() {
        flusher.awaitPublished();
    }

    /**
     * Parquet files moved into place so far (replacements after a crash included), and samples files handed to the
     * encoder thread to be.
     */
    public long filesWritten() {
        return files.filesWritten();
    }

    /** Records that could not be decoded and were skipped so far. */
    public long corruptRecords() {
        return decoder.corruptRecords();
    }

    /** Samples decoded so far. */
    public long samplesSeen() {
        return decoder.samplesSeen();
    }

    /** Sample blocks (markers included) decoded so far. */
    public long blocksSeen() {
        return decoder.blocksSeen();
    }

    /** Producer clock at sealing of the newest block decoded so far, µs since the epoch; 0 before any. */
    public long latestSealedAtUs() {
        return decoder.latestSealedAtUs();
    }

    /** Counters of everything done so far, with a block check of the runs touched. */
    public ArchiveSummary summary(Duration elapsed) {
        Set<String> touchedRuns = flusher.touchedRuns();
        List<BlockCheck> checks;
        try {
            checks = touchedRuns.isEmpty() ? List.of() : ArchiveVerifier.checkBlocks(archiveDir, touchedRuns);
        } catch (SQLException e) {
            throw new IllegalStateException("verifying block sequences of runs " + touchedRuns + " in "
                    + archiveDir + ": " + e.getMessage(), e);
        }
        return new ArchiveSummary(files.filesWritten(), files.rowsByDataset(), decoder.blocksSeen(),
                decoder.samplesSeen(), decoder.corruptRecords(), checks, elapsed);
    }

    @Override
    public void close() {
        removePartitions(List.copyOf(pending.keySet()));
        encoder.shutdownNow();
        duckdb.close();
    }
}
