package io.tailstream.reporter.archive;

import io.tailstream.reporter.parquet.TableSchema;
import io.tailstream.schemas.event.WindowStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes partitions' buffered rows into files and commits their offsets once the files are in place. A flush
 * writes, per partition and run, one file per dataset named after the partition's offset range, rebuilds the
 * derived datasets of the runs it wrote, and queues the offsets after the ranges in {@link PendingCommits}: the
 * samples files are completed and renamed into place by the encoder thread meanwhile, and the offsets are handed to
 * the {@link ArchiveWriter.Committer} once every file of their flush (and of every flush before it) is in place.
 * A samples file that cannot be written fails every later flush and commit.
 *
 * <p>Not thread safe: the archive writer's thread.
 */
final class PartitionFlusher {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionFlusher.class);

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

    private final Path archiveDir;
    private final DatasetFiles files;
    private final ArchivedRanges ranges;
    private final SampleRowGroupEncoder sampleEncoder;
    private final ArchiveWriter.Committer committer;
    private final PendingCommits pendingCommits = new PendingCommits();
    private final Set<String> touchedRuns = new TreeSet<>();
    /** The datasets flushed from a partition's buffered rows, in the order they are written and derived from. */
    private final List<BufferedDataset<?>> buffered;

    /**
     * @param sampleEncoder publishes the samples files, on a single thread whose tasks run in order
     * @param committer     called with a flush's offsets once every file of its ranges is in place
     */
    PartitionFlusher(Path archiveDir, DatasetFiles files, ArchivedRanges ranges, DerivedDatasets derived,
                     SampleRowGroupEncoder sampleEncoder, ArchiveWriter.Committer committer) {
        this.archiveDir = archiveDir;
        this.files = files;
        this.ranges = ranges;
        this.sampleEncoder = sampleEncoder;
        this.committer = committer;
        this.buffered = List.of(
                new BufferedDataset<>(ArchiveLayout.BLOCKS, ArchiveSchemas.BLOCKS, r -> r.blocks, null, null),
                new BufferedDataset<>(ArchiveLayout.WINDOWS, ArchiveSchemas.WINDOWS, r -> r.windows,
                        Comparator.comparingLong(WindowStats::windowStartEpochMs).thenComparingInt(WindowStats::stepId)
                                .thenComparing(WindowStats::op), null),
                new BufferedDataset<>(ArchiveLayout.CONTROL, ArchiveSchemas.CONTROL, r -> r.control, null,
                        derived::rebuildStepsAndRuns),
                new BufferedDataset<>(ArchiveLayout.CLIENT_HEALTH, ArchiveSchemas.CLIENT_HEALTH, r -> r.clientHealth,
                        null, null),
                new BufferedDataset<>(ArchiveLayout.SERVER_COUNTERS, ArchiveSchemas.SERVER_COUNTERS,
                        r -> r.serverCounters, null, null),
                new BufferedDataset<>(ArchiveLayout.STALL_EVENTS, ArchiveSchemas.STALL_EVENTS, r -> r.stalls, null,
                        derived::rebuildStalls),
                new BufferedDataset<>(ArchiveLayout.SUMMARY_EVENTS, ArchiveSchemas.SUMMARY_EVENTS, r -> r.summaries,
                        null, derived::rebuildSummaries),
                new BufferedDataset<>(ArchiveLayout.RUN_SUMMARY_EVENTS, ArchiveSchemas.RUN_SUMMARY_EVENTS,
                        r -> r.runSummaries, null, derived::rebuildRunSummaries));
    }

    /**
     * Writes the buffers of {@code partitions} and queues their offsets, first committing those of earlier flushes
     * whose files are in place. A partition being re-archived is skipped while its buffer ends short of its next
     * replay boundary, unless {@code atBoundary}.
     *
     * @param atBoundary the buffers end at a replay boundary (or past one whose record is gone): write them
     */
    void flush(Collection<PendingPartition> partitions, boolean atBoundary) {
        // fails if a samples file failed: its range is never committed, nor anything after it
        commitPublished();
        Map<TopicPartition, OffsetAndMetadata> commits = new LinkedHashMap<>();
        Map<BufferedDataset<?>, Map<String, TopicPartition>> toDerive = new HashMap<>();
        try {
            for (PendingPartition pp : partitions) {
                if (pp.isEmpty() || !atBoundary && ranges.shortOfBoundary(pp)) {
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
        if (file.rows() == 0) {
            file.discard();
            return;
        }
        Path target = files.target(ArchiveLayout.SAMPLES, run, fileName);
        ranges.refuseToReplaceOtherIncarnation(target, source);
        files.publishSamples(file, target);
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
        Path target = files.target(dataset.name(), run, fileName);
        ranges.refuseToReplaceOtherIncarnation(target, source);
        files.write(dataset.name(), target, source.partition, source.footer(), dataset.schema(),
                w -> out.forEach(w::write));
        return true;
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
    void commitPublished() {
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
    void awaitEncoderQuietly() {
        try {
            sampleEncoder.awaitWritten();
        } catch (IOException e) {
            LOG.debug("samples files failed; the next flush reports it: {}", e.getMessage());
        }
    }

    /** Forgets the offsets not yet committed of partitions this writer may no longer commit. */
    void dropUncommitted(Collection<TopicPartition> partitions) {
        pendingCommits.drop(partitions);
    }

    /** The runs of which files were written so far. */
    Set<String> touchedRuns() {
        return Collections.unmodifiableSet(touchedRuns);
    }
}
