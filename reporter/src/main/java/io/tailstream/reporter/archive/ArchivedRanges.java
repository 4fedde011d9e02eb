package io.tailstream.reporter.archive;

import io.tailstream.reporter.archive.ArchiveLayout.SourceRange;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the archive already holds of the partitions being archived. Files found beyond a partition's committed
 * offset when it is added come from a flush whose commit was lost: their end offsets become replay boundaries, the
 * offsets the partition is flushed at again so that the rewritten files replace them under the same names. Files
 * record the {@link TopicIncarnation} they were read from: those of another incarnation of the topic hold other
 * records under the same offsets, so they are neither taken for a flush to repeat nor replaced.
 *
 * <p>Not thread safe: the archive writer's thread.
 */
final class ArchivedRanges {

    private static final Logger LOG = LoggerFactory.getLogger(ArchivedRanges.class);

    private final Path archiveDir;
    private final ArchiveDuckDb duckdb;
    /** Offsets at which earlier, uncommitted flushes ended: flush there again so file names repeat exactly. */
    private final Map<TopicPartition, TreeSet<Long>> replayBoundaries = new HashMap<>();

    ArchivedRanges(Path archiveDir, ArchiveDuckDb duckdb) {
        this.archiveDir = archiveDir;
        this.duckdb = duckdb;
    }

    /**
     * Deletes the temporary files earlier owners of {@code partitions} left, then lists the archive's files for
     * {@link #arm}.
     */
    List<Path> list(Collection<TopicPartition> partitions) {
        Set<String> tags = new TreeSet<>();
        partitions.forEach(tp -> tags.add(tp.topic() + "-p" + tp.partition()));
        try {
            int stale = ArchiveLayout.deleteStaleTemporaries(archiveDir, tags);
            if (stale > 0) {
                LOG.info("deleted {} temporary files left by an interrupted archiver", stale);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cleaning temporary files under " + archiveDir, e);
        }
        return ArchiveLayout.runFiles(archiveDir);
    }

    /**
     * Arms the replay boundaries of a partition whose consumption starts at {@code startOffset}: the end offsets
     * of its files among {@code files} that start at or after it and hold the records of {@code incarnation}.
     *
     * @param incarnation where the partition's records come from, or null: then every file of the partition counts
     *                    as its own
     */
    void arm(TopicPartition tp, long startOffset, TopicIncarnation incarnation, List<Path> files) {
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

    /** Forgets a partition's replay boundaries (the partition is given up). */
    void forget(TopicPartition tp) {
        replayBoundaries.remove(tp);
    }

    /**
     * True, once per boundary, while the partition's next boundary lies before the record at {@code offset}: the
     * record that ended the earlier flush is gone (retention or a transaction marker), so the buffer is to be
     * written where it ends.
     */
    boolean passedWithoutRecord(PendingPartition pp, long offset) {
        TreeSet<Long> boundaries = replayBoundaries.get(pp.partition);
        if (boundaries == null || boundaries.isEmpty() || boundaries.first() >= offset) {
            return false;
        }
        long b = boundaries.pollFirst();
        LOG.warn("{}: replay boundary {} passed without its record; flushing at {}", pp.partition, b, pp.lastOffset);
        return true;
    }

    /** True, once, if the record at {@code offset} ends an earlier flush: the buffer is to be written now. */
    boolean reached(TopicPartition tp, long offset) {
        TreeSet<Long> boundaries = replayBoundaries.get(tp);
        if (boundaries == null || boundaries.isEmpty() || boundaries.first() != offset) {
            return false;
        }
        boundaries.pollFirst();
        return true;
    }

    /** True while a partition's buffer ends short of its next replay boundary. */
    boolean shortOfBoundary(PendingPartition pp) {
        TreeSet<Long> boundaries = replayBoundaries.get(pp.partition);
        return boundaries != null && !boundaries.isEmpty() && pp.lastOffset < boundaries.first();
    }

    /** The offset after the partition's last replay boundary, or -1 if it has none. */
    long replayEnd(TopicPartition tp) {
        TreeSet<Long> b = replayBoundaries.get(tp);
        return b == null || b.isEmpty() ? -1 : b.last() + 1;
    }

    /**
     * Fails rather than replace a file that holds another incarnation's records: the name repeats because the
     * offsets of a new cluster's (or a recreated topic's) partition started again at 0 and a run id was used on
     * both.
     */
    void refuseToReplaceOtherIncarnation(Path target, PendingPartition pp) {
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
     * The incarnation a file's footer records; empty if it records none, or if the footer cannot be read (the file
     * then counts as the partition's own, as one written before files recorded it does).
     */
    private Optional<TopicIncarnation> incarnationOf(Path file) {
        try {
            return TopicIncarnation.ofFile(duckdb.get(), file);
        } catch (SQLException e) {
            LOG.warn("cannot read the footer of {}; taking it for a file of the partition being archived: {}", file,
                    e.getMessage());
            return Optional.empty();
        }
    }
}
