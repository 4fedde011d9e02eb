package io.tailstream.reporter.archive;

import io.tailstream.reporter.archive.ArchiveLayout.SourceRange;
import io.tailstream.reporter.archive.ArchiveRows.BlockRow;
import io.tailstream.reporter.archive.ArchiveRows.ClientHealthRow;
import io.tailstream.reporter.archive.ArchiveRows.StallRow;
import io.tailstream.reporter.archive.ArchiveRows.SummaryRow;
import io.tailstream.reporter.archive.ArchiveRows.ControlRow;
import io.tailstream.reporter.archive.ArchiveRows.RunRow;
import io.tailstream.reporter.archive.ArchiveRows.StepRow;
import io.tailstream.reporter.parquet.ParquetTableWriter;
import io.tailstream.reporter.parquet.TableSchema;
import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.BlockHeader;
import io.tailstream.schemas.block.CorruptBlockException;
import io.tailstream.schemas.block.SampleBlockDecoder;
import io.tailstream.schemas.event.ClientHealth;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RunSummary;
import io.tailstream.schemas.event.StallEvent;
import io.tailstream.schemas.event.StepSummary;
import io.tailstream.schemas.event.WindowStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
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
 * <p>Not thread safe: one thread feeds and flushes.
 */
public final class ArchiveWriter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ArchiveWriter.class);
    private static final int MAX_CANONICAL_STRINGS = 4096;

    /**
     * A dataset whose rows a partition buffers until a flush writes them: one file per run, named after the
     * partition's offset range ({@link ArchiveLayout#sourceFileName}), so a replayed range replaces its files.
     *
     * @param name   the dataset, its directory in the archive
     * @param rows   a run's buffered rows of the dataset
     * @param order  the order of rows in the file, or null for offset order
     * @param derive rebuilds the run's derived dataset from all its files of this one (one file per run named
     *               after the derived dataset), or null if nothing derives from it
     */
    private record BufferedDataset<T>(String name, TableSchema<T> schema,
                                      Function<PendingPartition.RunRows, List<T>> rows, Comparator<T> order,
                                      Derivation derive) {}

    /** Rebuilds a run's derived dataset from the run's archived source files. */
    @FunctionalInterface
    private interface Derivation {
        /** @param source the partition whose flush triggered the rebuild: tags the temporary file */
        void rebuild(String run, TopicPartition source) throws IOException, SQLException;
    }

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
    private final int rowGroupRows;
    private final Committer committer;
    /** Sorts, encodes and publishes samples row groups while the calling thread polls and decodes the next. */
    private final ExecutorService encoder;
    private final SampleRowGroupEncoder sampleEncoder;
    private final PendingCommits pendingCommits = new PendingCommits();
    private final Map<TopicPartition, PendingPartition> pending = new HashMap<>();
    /** Offsets at which earlier, uncommitted flushes ended: flush there again so file names repeat exactly. */
    private final Map<TopicPartition, TreeSet<Long>> replayBoundaries = new HashMap<>();
    private final Set<String> touchedRuns = new TreeSet<>();
    private final Map<String, String> canonicalStrings = new HashMap<>();
    private final Map<String, Long> rowsByDataset = new TreeMap<>();
    /** Per run, its control events as the derived steps and runs datasets need them. */
    private final Map<String, ControlHistory> controlHistories = new HashMap<>();
    /** Tags this writer's temporary files: two archivers writing one directory never share one. */
    private final String instance = ArchiveLayout.newInstanceTag();
    /** The datasets flushed from a partition's buffered rows, in the order they are written and derived from. */
    private final List<BufferedDataset<?>> buffered = List.of(
            new BufferedDataset<>(ArchiveLayout.BLOCKS, ArchiveSchemas.BLOCKS, r -> r.blocks, null, null),
            new BufferedDataset<>(ArchiveLayout.WINDOWS, ArchiveSchemas.WINDOWS, r -> r.windows,
                    Comparator.comparingLong(WindowStats::windowStartEpochMs).thenComparingInt(WindowStats::stepId)
                            .thenComparing(WindowStats::op), null),
            new BufferedDataset<>(ArchiveLayout.CONTROL, ArchiveSchemas.CONTROL, r -> r.control, null,
                    this::rebuildDerived),
            new BufferedDataset<>(ArchiveLayout.CLIENT_HEALTH, ArchiveSchemas.CLIENT_HEALTH, r -> r.clientHealth, null,
                    null),
            new BufferedDataset<>(ArchiveLayout.STALL_EVENTS, ArchiveSchemas.STALL_EVENTS, r -> r.stalls, null,
                    (run, tp) -> rebuildLastPerKey(run, tp, ArchiveLayout.STALL_EVENTS, ArchiveLayout.STALLS,
                            "step_id, kind, start_ms", "open, at_ms DESC, kafka_offset DESC")),
            new BufferedDataset<>(ArchiveLayout.SUMMARY_EVENTS, ArchiveSchemas.SUMMARY_EVENTS, r -> r.summaries, null,
                    (run, tp) -> rebuildLastPerKey(run, tp, ArchiveLayout.SUMMARY_EVENTS, ArchiveLayout.SUMMARIES, "step_id, op",
                            "at_ms DESC, kafka_offset DESC")),
            // one record is many rows (all with the record's at_ms and offset): rank keeps every row of the last
            new BufferedDataset<>(ArchiveLayout.RUN_SUMMARY_EVENTS, ArchiveSchemas.RUN_SUMMARY_EVENTS,
                    r -> r.runSummaries, null, (run, tp) -> rebuildQualified(run, tp, ArchiveLayout.RUN_SUMMARY_EVENTS,
                            ArchiveLayout.RUN_SUMMARIES, "rank() OVER (ORDER BY at_ms DESC, kafka_offset DESC) = 1",
                            "kind, target, workload, threads, op, round, basis, single_target, multi_target,"
                                    + " single_threads")));
    private Connection duckdb;
    private long filesWritten;
    private long blocksSeen;
    private long samplesSeen;
    private long corruptRecords;
    private long latestSealedAtUs;

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
        this.rowGroupRows = rowGroupRows;
        this.committer = committer;
        this.encoder = encoder;
        this.sampleEncoder = new SampleRowGroupEncoder(encoder);
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
        awaitEncoderQuietly();
        Set<String> tags = new TreeSet<>();
        startOffsets.keySet().forEach(tp -> tags.add(tp.topic() + "-p" + tp.partition()));
        try {
            int stale = ArchiveLayout.deleteStaleTemporaries(archiveDir, tags);
            if (stale > 0) {
                LOG.info("deleted {} temporary files left by an interrupted archiver", stale);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cleaning temporary files under " + archiveDir, e);
        }
        List<Path> files = ArchiveLayout.runFiles(archiveDir);
        for (Map.Entry<TopicPartition, Long> e : startOffsets.entrySet()) {
            TopicPartition tp = e.getKey();
            long startOffset = e.getValue();
            TopicIncarnation incarnation = incarnations.get(tp.topic());
            removePartitions(List.of(tp));
            pending.put(tp, new PendingPartition(tp, incarnation));
            TreeSet<Long> boundaries = new TreeSet<>();
            Set<TopicIncarnation> others = new TreeSet<>(Comparator.comparing(TopicIncarnation::toString));
            int othersFiles = 0;
            for (Path file : files) {
                Optional<SourceRange> parsed = ArchiveLayout.parseSourceFileName(file.getFileName().toString());
                if (parsed.isEmpty()) {
                    continue;
                }
                SourceRange r = parsed.get();
                if (!r.topic().equals(tp.topic()) || r.partition() != tp.partition() || r.toOffset() < startOffset) {
                    continue;
                }
                Optional<TopicIncarnation> written = incarnation == null ? Optional.empty() : incarnationOf(file);
                if (written.isPresent() && !written.get().equals(incarnation)) {
                    others.add(written.get());
                    othersFiles++;
                    continue;
                }
                if (r.fromOffset() < startOffset) {
                    LOG.warn("archive file range {}-{} of {} straddles the committed offset {}: offsets were reset;"
                            + " re-archived rows may duplicate", r.fromOffset(), r.toOffset(), tp, startOffset);
                } else {
                    boundaries.add(r.toOffset());
                }
            }
            if (othersFiles > 0) {
                LOG.info("{}: {} file(s) beyond the committed offset {} belong to another incarnation of the topic"
                        + " ({}; these records come from {}): left as they are", tp, othersFiles, startOffset, others,
                        incarnation);
            }
            if (!boundaries.isEmpty()) {
                LOG.info("{}: files beyond the committed offset {} (an interrupted flush); re-archiving with the"
                        + " same boundaries {}", tp, startOffset, boundaries);
                replayBoundaries.put(tp, boundaries);
            }
        }
    }

    /**
     * The incarnation a file's footer records; empty if it records none, or if the footer cannot be read (the file
     * then counts as the partition's own, as one written before files recorded it does).
     */
    private Optional<TopicIncarnation> incarnationOf(Path file) {
        try {
            return TopicIncarnation.ofFile(duckdb(), file);
        } catch (SQLException e) {
            LOG.warn("cannot read the footer of {}; taking it for a file of the partition being archived: {}", file,
                    e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * Fails rather than replace a file that holds another incarnation's records: the name repeats because the
     * offsets of a new cluster's (or a recreated topic's) partition started again at 0 and a run id was used on
     * both.
     */
    private void refuseToReplaceOtherIncarnation(Path target, PendingPartition pp) {
        if (pp.incarnation == null || !Files.exists(target)) {
            return;
        }
        Optional<TopicIncarnation> written = incarnationOf(target);
        if (written.isPresent() && !written.get().equals(pp.incarnation)) {
            throw new IllegalStateException("refusing to replace " + target + ": it holds records of another"
                    + " incarnation of " + pp.partition + " (" + written.get() + "), not the ones now archived from "
                    + pp.incarnation + "; the run id was used on both: archive this one into another directory");
        }
    }

    /**
     * The offset after the last file found beyond the committed offset when the partition was added, or -1: until
     * the partition is consumed up to there, its buffer is only written at those files' boundaries.
     */
    public long replayEnd(TopicPartition tp) {
        TreeSet<Long> b = replayBoundaries.get(tp);
        return b == null || b.isEmpty() ? -1 : b.last() + 1;
    }

    /**
     * Stops buffering partitions (revoked or lost in a rebalance, after a {@link #flush} of what may be kept):
     * drops what they still buffer, and the offsets of flushes not yet committed, for their next owner to archive
     * from the committed offset. Returns once no file of theirs is being written.
     */
    public void removePartitions(Collection<TopicPartition> partitions) {
        awaitEncoderQuietly();
        pendingCommits.drop(partitions);
        for (TopicPartition tp : partitions) {
            PendingPartition pp = pending.remove(tp);
            replayBoundaries.remove(tp);
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
        commitPublished();
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
        TreeSet<Long> boundaries = replayBoundaries.get(tp);
        while (boundaries != null && !boundaries.isEmpty() && boundaries.first() < r.offset()) {
            // the record that ended the earlier flush is gone (retention or a transaction marker)
            long b = boundaries.pollFirst();
            LOG.warn("{}: replay boundary {} passed without its record; flushing at {}", tp, b,
                    pp.lastOffset);
            flush(List.of(pp), true);
        }
        switch (tp.topic()) {
            case Topics.SAMPLES -> addBlock(pp, r);
            case Topics.WINDOWS -> addWindow(pp, r);
            case Topics.CONTROL -> addControl(pp, r);
            case Topics.STALLS -> addStall(pp, r);
            case Topics.SUMMARIES -> addSummary(pp, r);
            case Topics.RUN_SUMMARIES -> addRunSummary(pp, r);
            default -> throw new IllegalArgumentException("the archiver does not read topic " + tp.topic());
        }
        pp.consumed(r.offset());
        if (boundaries != null && !boundaries.isEmpty() && boundaries.first() == r.offset()) {
            boundaries.pollFirst();
            flush(List.of(pp), true);
        } else if (pp.rows >= rollRows) {
            flush(List.of(pp), false);
        }
    }

    private void addBlock(PendingPartition pp, ConsumerRecord<byte[], byte[]> r) {
        byte[] value = r.value();
        if (value == null) {
            corrupt(r, "null value");
            return;
        }
        BlockHeader h;
        try {
            h = SampleBlockDecoder.readHeader(value);
        } catch (CorruptBlockException e) {
            corrupt(r, e.getMessage());
            return;
        }
        PendingPartition.RunRows rows = pp.run(h.runId());
        if (rows.samples == null) {
            rows.samples = new SampleFile(ArchiveLayout.runDir(archiveDir, ArchiveLayout.SAMPLES, h.runId())
                    .resolve(ArchiveLayout.openFileName(r.topic(), r.partition(), r.offset(), instance)), pp.footer(),
                    rowGroupRows, sampleEncoder);
        }
        SampleColumns samples = rows.samples.buffer();
        int before = samples.size();
        List<String> ops = canonical(h.ops());
        String producer = canonical(h.producerId());
        int producerCode = samples.code(producer);
        int[] opCodes = new int[ops.size()];
        for (int o = 0; o < opCodes.length; o++) {
            opCodes[o] = samples.code(ops.get(o));
        }
        long seq = h.blockSeq();
        int step = h.stepId();
        boolean openLoop = h.openLoop();
        try {
            SampleBlockDecoder.decode(value, (start, latency, intended, op, status, queries, warmup) ->
                    samples.add(step, producerCode, seq, opCodes[op], start, latency, intended, status, queries, warmup,
                            openLoop));
        } catch (CorruptBlockException e) {
            samples.truncate(before);
            corrupt(r, e.getMessage());
            return;
        }
        String kind = h.heartbeat() ? "heartbeat" : h.endOfStep() ? "end_of_step" : "samples";
        try {
            rows.samples.maybeWriteRowGroup();
        } catch (IOException e) {
            throw new UncheckedIOException("writing a samples row group of " + r.topic() + "-" + r.partition()
                    + " under " + archiveDir, e);
        }
        rows.blocks.add(new BlockRow(step, producer, seq, kind, h.openLoop(), h.sealedAtEpochMicros(),
                h.sampleCount(), r.partition(), r.offset()));
        pp.rows += h.sampleCount() + 1;
        latestSealedAtUs = Math.max(latestSealedAtUs, h.sealedAtEpochMicros());
        blocksSeen++;
        samplesSeen += h.sampleCount();
    }

    /**
     * One instance per distinct producer id and op name: every block decodes its own copies, and the samples buffer
     * finds a string's code by identity first.
     */
    private String canonical(String s) {
        String c = canonicalStrings.get(s);
        if (c == null) {
            if (canonicalStrings.size() >= MAX_CANONICAL_STRINGS) {
                canonicalStrings.clear();
            }
            canonicalStrings.put(s, s);
            c = s;
        }
        return c;
    }

    private List<String> canonical(List<String> strings) {
        String[] out = new String[strings.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = canonical(strings.get(i));
        }
        return Arrays.asList(out);
    }

    private void addWindow(PendingPartition pp, ConsumerRecord<byte[], byte[]> r) {
        WindowStats w = readJson(r, WindowStats.class);
        if (w == null) {
            return;
        }
        if (w.runId() == null || w.op() == null || w.histogram() == null) {
            corrupt(r, "window stats without runId, op or histogram");
            return;
        }
        pp.run(w.runId()).windows.add(w);
        pp.rows++;
    }

    private void addControl(PendingPartition pp, ConsumerRecord<byte[], byte[]> r) {
        ControlEvent e = readJson(r, ControlEvent.class);
        if (e == null) {
            return;
        }
        if (e.runId() == null || e.producerId() == null) {
            corrupt(r, "control event without runId or producerId");
            return;
        }
        PendingPartition.RunRows rows = pp.run(e.runId());
        rows.control.add(new ControlRow(e.type(), e.atEpochMs(), e.producerId(), e.stepIdOrNull(),
                new String(r.value(), StandardCharsets.UTF_8), r.partition(), r.offset()));
        pp.rows++;
        if (e instanceof ClientHealth h) {
            rows.clientHealth.add(new ClientHealthRow(h, r.partition(), r.offset()));
            pp.rows++;
        }
    }

    private void addStall(PendingPartition pp, ConsumerRecord<byte[], byte[]> r) {
        StallEvent e = readJson(r, StallEvent.class);
        if (e == null) {
            return;
        }
        if (e.runId() == null || e.kind() == null) {
            corrupt(r, "stall event without runId or kind");
            return;
        }
        pp.run(e.runId()).stalls.add(new StallRow(e.stepId(), e.kind(), e.startEpochMs(), e.endEpochMs(), e.open(),
                e.baselineQps(), e.minQps(), e.baselineP99Micros(), e.worstP99Micros(),
                Json.writeString(e.affectedOps()), e.atEpochMs(), r.partition(), r.offset()));
        pp.rows++;
    }

    private void addSummary(PendingPartition pp, ConsumerRecord<byte[], byte[]> r) {
        StepSummary s = readJson(r, StepSummary.class);
        if (s == null) {
            return;
        }
        if (s.runId() == null || s.op() == null) {
            corrupt(r, "step summary without runId or op");
            return;
        }
        pp.run(s.runId()).summaries.add(new SummaryRow(s, r.partition(), r.offset()));
        pp.rows++;
    }

    private void addRunSummary(PendingPartition pp, ConsumerRecord<byte[], byte[]> r) {
        RunSummary s = readJson(r, RunSummary.class);
        if (s == null) {
            return;
        }
        if (s.runId() == null) {
            corrupt(r, "run summary without runId");
            return;
        }
        List<ArchiveRows.RunSummaryRow> rows = ArchiveRows.RunSummaryRow.of(s, r.partition(), r.offset());
        pp.run(s.runId()).runSummaries.addAll(rows);
        pp.rows += rows.size();
    }

    /** The record's JSON value as {@code type}, or null (counted and logged as corrupt) if it does not parse. */
    private <E> E readJson(ConsumerRecord<byte[], byte[]> r, Class<E> type) {
        if (r.value() == null) {
            corrupt(r, "null value");
            return null;
        }
        try {
            return Json.read(r.value(), type);
        } catch (IllegalArgumentException e) {
            corrupt(r, e.getMessage());
            return null;
        }
    }

    private void corrupt(ConsumerRecord<byte[], byte[]> r, String reason) {
        corruptRecords++;
        LOG.warn("skipping undecodable record {}-{}@{}: {}", r.topic(), r.partition(), r.offset(), reason);
    }

    // ---- flushing ----

    /**
     * Writes and commits everything buffered, but for a partition being re-archived short of its next replay
     * boundary (see {@link #addPartition}): a file ending elsewhere would overlap the one the boundary belongs to.
     * Returns once every file flushed so far is in place and its offsets committed.
     */
    public void flushAll() {
        flush(pending.values(), false);
        awaitPublished();
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
        flush(pps, false);
        awaitPublished();
    }

    /** Waits until the encoder has published every samples file handed to it, then commits what was flushed. */
    void awaitPublished() {
        try {
            sampleEncoder.awaitWritten();
        } catch (IOException e) {
            throw publishFailed(e);
        }
        commitPublished();
    }

    /** Commits the offsets of the flushes whose files are all in place by now, without waiting. */
    private void commitPublished() {
        Map<TopicPartition, OffsetAndMetadata> offsets;
        try {
            offsets = pendingCommits.takeCommittable(sampleEncoder.tasksDone());
        } catch (IOException e) {
            throw publishFailed(e);
        }
        if (!offsets.isEmpty()) {
            committer.commit(offsets);
            LOG.debug("committed {}", offsets);
        }
    }

    private UncheckedIOException publishFailed(IOException e) {
        return new UncheckedIOException("writing samples files under " + archiveDir + " (nothing is written or"
                + " committed after it)", e);
    }

    /**
     * Waits until the encoder has done what it was handed: the files of flushes are in place (for a listing of the
     * archive, or before partitions are given up). A failure is not thrown here but by the next poll or flush.
     */
    private void awaitEncoderQuietly() {
        try {
            sampleEncoder.awaitWritten();
        } catch (IOException e) {
            LOG.debug("samples files failed; the next flush reports it: {}", e.getMessage());
        }
    }

    /** True while a partition's buffer ends short of its next replay boundary. */
    private boolean shortOfReplayBoundary(PendingPartition pp) {
        TreeSet<Long> boundaries = replayBoundaries.get(pp.partition);
        return boundaries != null && !boundaries.isEmpty() && pp.lastOffset < boundaries.first();
    }

    /** @param atBoundary the buffers end at a replay boundary (or past one whose record is gone): write them */
    private void flush(Collection<PendingPartition> partitions, boolean atBoundary) {
        // fails if a samples file failed: its range is never committed, nor anything after it
        commitPublished();
        Map<TopicPartition, OffsetAndMetadata> commits = new LinkedHashMap<>();
        Map<BufferedDataset<?>, Map<String, TopicPartition>> toDerive = new HashMap<>();
        try {
            for (PendingPartition pp : partitions) {
                if (pp.isEmpty() || !atBoundary && shortOfReplayBoundary(pp)) {
                    continue;
                }
                TopicPartition tp = pp.partition;
                String name = ArchiveLayout.sourceFileName(tp.topic(), tp.partition(), pp.firstOffset, pp.lastOffset);
                for (Map.Entry<String, PendingPartition.RunRows> e : pp.byRun.entrySet()) {
                    String run = e.getKey();
                    PendingPartition.RunRows rows = e.getValue();
                    if (rows.samples != null) {
                        publishSamples(rows.samples, run, name, pp);
                        rows.samples = null;
                    }
                    for (BufferedDataset<?> dataset : buffered) {
                        if (write(dataset, rows, run, name, pp) && dataset.derive() != null) {
                            toDerive.computeIfAbsent(dataset, d -> new TreeMap<>()).putIfAbsent(run, tp);
                        }
                    }
                    touchedRuns.add(run);
                }
                commits.put(tp, new OffsetAndMetadata(pp.lastOffset + 1));
            }
            for (BufferedDataset<?> dataset : buffered) {
                for (Map.Entry<String, TopicPartition> e : toDerive.getOrDefault(dataset, Map.of()).entrySet()) {
                    dataset.derive().rebuild(e.getKey(), e.getValue());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing archive files under " + archiveDir, e);
        } catch (SQLException e) {
            throw new IllegalStateException("reading back the control events under " + archiveDir
                    + ": " + e.getMessage(), e);
        }
        if (commits.isEmpty()) {
            return;
        }
        // committed once every file of these ranges is in place: the samples files once the encoder published them
        pendingCommits.add(sampleEncoder.tasksSubmitted(), commits);
        for (PendingPartition pp : partitions) {
            if (commits.containsKey(pp.partition)) {
                pp.clear();
            }
        }
        commitPublished();
    }

    /** Hands a run's samples file to the encoder thread, which completes it and renames it into place. */
    private void publishSamples(SampleFile file, String run, String fileName, PendingPartition source)
            throws IOException {
        long rows = file.rows();
        if (rows == 0) {
            file.discard();
            return;
        }
        Path target = ArchiveLayout.runDir(archiveDir, ArchiveLayout.SAMPLES, run).resolve(fileName);
        refuseToReplaceOtherIncarnation(target, source);
        file.publish(target);
        filesWritten++;
        rowsByDataset.merge(ArchiveLayout.SAMPLES, rows, Long::sum);
    }

    /** Writes the run's buffered rows of the dataset, if it has any, in the dataset's order; false if none. */
    private <T> boolean write(BufferedDataset<T> dataset, PendingPartition.RunRows rows, String run, String fileName,
                              PendingPartition source) throws IOException {
        List<T> buffer = dataset.rows().apply(rows);
        if (buffer.isEmpty()) {
            return false;
        }
        List<T> ordered = buffer;
        if (dataset.order() != null) {
            ordered = new ArrayList<>(buffer);
            ordered.sort(dataset.order());
        }
        List<T> out = ordered;
        refuseToReplaceOtherIncarnation(ArchiveLayout.runDir(archiveDir, dataset.name(), run).resolve(fileName),
                source);
        write(dataset.name(), run, fileName, source.partition, source.footer(), dataset.schema(),
                w -> out.forEach(w::write));
        return true;
    }

    /** @param footer the file footer's key-value metadata */
    private <T> void write(String dataset, String run, String fileName, TopicPartition source,
                           Map<String, String> footer, TableSchema<T> schema, Consumer<ParquetTableWriter<T>> rows)
            throws IOException {
        Path target = ArchiveLayout.runDir(archiveDir, dataset, run).resolve(fileName);
        long[] count = new long[1];
        ArchiveLayout.writeAtomically(target, temporaryName(fileName, source), tmp -> {
            try (ParquetTableWriter<T> w = ParquetTableWriter.open(tmp, schema, CompressionCodecName.ZSTD, footer)) {
                rows.accept(w);
                count[0] = w.rows();
            }
        });
        filesWritten++;
        rowsByDataset.merge(dataset, count[0], Long::sum);
    }

    /**
     * Recomputes a run's {@code steps} and {@code runs} files from all of its archived control events (those
     * archived since the last rebuild read, the others kept by the run's {@link ControlHistory}).
     */
    private void rebuildDerived(String run, TopicPartition source) throws SQLException, IOException {
        List<ControlEvent> events = controlHistories.computeIfAbsent(run, r -> new ControlHistory())
                .update(duckdb(), ArchiveLayout.runDir(archiveDir, ArchiveLayout.CONTROL, run));
        List<StepRow> steps = ControlProjection.steps(events);
        if (!steps.isEmpty()) {
            write(ArchiveLayout.STEPS, run, "steps.parquet", source, Map.of(), ArchiveSchemas.STEPS,
                    w -> steps.forEach(w::write));
        }
        Optional<RunRow> runRow = ControlProjection.run(events);
        if (runRow.isPresent()) {
            write(ArchiveLayout.RUNS, run, "runs.parquet", source, Map.of(), ArchiveSchemas.RUNS,
                    w -> w.write(runRow.get()));
        }
    }

    /**
     * Rewrites a run's derived {@code dataset}/{@code dataset}.parquet from all its {@code source} files: the last
     * record per key (by {@code order}), without the Kafka coordinates, sorted by key.
     */
    private void rebuildLastPerKey(String run, TopicPartition tp, String source, String dataset, String key,
                                   String order) throws IOException {
        rebuildQualified(run, tp, source, dataset, "row_number() OVER (PARTITION BY " + key + " ORDER BY " + order
                + ") = 1", key);
    }

    /**
     * Rewrites a run's derived {@code dataset}/{@code dataset}.parquet from all its {@code source} files: the rows
     * for which {@code qualify} (a window predicate) holds, without the Kafka coordinates, sorted by {@code sortBy}.
     */
    private void rebuildQualified(String run, TopicPartition tp, String source, String dataset, String qualify,
                                  String sortBy) throws IOException {
        Path sourceDir = ArchiveLayout.runDir(archiveDir, source, run);
        String read = "read_parquet(" + ArchiveDatabase.sqlString(sourceDir.toAbsolutePath() + "/*.parquet")
                + ", hive_partitioning=false, union_by_name=true)";
        Path target = ArchiveLayout.runDir(archiveDir, dataset, run).resolve(dataset + ".parquet");
        long[] count = new long[1];
        ArchiveLayout.writeAtomically(target, temporaryName(dataset + ".parquet", tp), tmp -> {
            try (Statement st = duckdb().createStatement()) {
                count[0] = st.executeUpdate("COPY (SELECT * EXCLUDE (kafka_partition, kafka_offset) FROM " + read
                        + " QUALIFY " + qualify
                        + " ORDER BY " + sortBy + ") TO " + ArchiveDatabase.sqlString(tmp.toAbsolutePath().toString())
                        + " (FORMAT parquet, COMPRESSION zstd)");
            } catch (SQLException e) {
                throw new IOException("deriving " + target + " from " + sourceDir + ": " + e.getMessage(), e);
            }
        });
        filesWritten++;
        rowsByDataset.merge(dataset, count[0], Long::sum);
    }

    private String temporaryName(String fileName, TopicPartition source) {
        return ArchiveLayout.temporaryName(fileName, source.topic(), source.partition(), instance);
    }

    private Connection duckdb() throws SQLException {
        if (duckdb == null) {
            duckdb = DriverManager.getConnection("jdbc:duckdb:");
        }
        return duckdb;
    }


    /**
     * Parquet files moved into place so far (replacements after a crash included), and samples files handed to the
     * encoder thread to be.
     */
    public long filesWritten() {
        return filesWritten;
    }

    /** Records that could not be decoded and were skipped so far. */
    public long corruptRecords() {
        return corruptRecords;
    }

    /** Samples decoded so far. */
    public long samplesSeen() {
        return samplesSeen;
    }

    /** Sample blocks (markers included) decoded so far. */
    public long blocksSeen() {
        return blocksSeen;
    }

    /** Producer clock at sealing of the newest block decoded so far, µs since the epoch; 0 before any. */
    public long latestSealedAtUs() {
        return latestSealedAtUs;
    }

    /** Counters of everything done so far, with a block check of the runs touched. */
    public ArchiveSummary summary(Duration elapsed) {
        List<BlockCheck> checks;
        try {
            checks = touchedRuns.isEmpty() ? List.of() : ArchiveVerifier.checkBlocks(archiveDir, touchedRuns);
        } catch (SQLException e) {
            throw new IllegalStateException("verifying block sequences of runs " + touchedRuns + " in "
                    + archiveDir + ": " + e.getMessage(), e);
        }
        return new ArchiveSummary(filesWritten, rowsByDataset, blocksSeen, samplesSeen, corruptRecords, checks,
                elapsed);
    }

    @Override
    public void close() {
        removePartitions(List.copyOf(pending.keySet()));
        encoder.shutdownNow();
        if (duckdb != null) {
            try {
                duckdb.close();
            } catch (SQLException e) {
                LOG.warn("closing the archive writer's DuckDB connection failed: {}", e.getMessage());
            }
            duckdb = null;
        }
    }
}
