package io.tailstream.reporter.archive;

import io.tailstream.reporter.archive.ArchiveRows.BlockRow;
import io.tailstream.reporter.archive.ArchiveRows.ControlRow;
import io.tailstream.schemas.event.WindowStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;

/**
 * Rows read from one topic partition since its last flush, grouped by run, and the offset range they came from.
 * A flush writes one file per run and dataset, all named after the same range, then the offset after the range
 * is committed. Samples are not held here but streamed into their run's open {@link SampleFile}, row group by row
 * group. Not thread safe.
 */
final class PendingPartition {

    final TopicPartition partition;
    /** Where the partition's records come from, or null if the writer was not told (its files record none). */
    final TopicIncarnation incarnation;
    long firstOffset = -1;
    long lastOffset = -1;
    long rows;
    final Map<String, RunRows> byRun = new TreeMap<>();

    PendingPartition(TopicPartition partition, TopicIncarnation incarnation) {
        this.partition = partition;
        this.incarnation = incarnation;
    }

    /** The key-value metadata of the footer of every file written from this partition. */
    Map<String, String> footer() {
        return incarnation == null ? Map.of() : incarnation.footer();
    }

    /** Notes that the record at {@code offset} was consumed (whether or not it produced rows). */
    void consumed(long offset) {
        if (firstOffset < 0) {
            firstOffset = offset;
        }
        lastOffset = offset;
    }

    boolean isEmpty() {
        return firstOffset < 0;
    }

    RunRows run(String runId) {
        return byRun.computeIfAbsent(runId, k -> new RunRows());
    }

    void clear() {
        firstOffset = -1;
        lastOffset = -1;
        rows = 0;
        byRun.clear();
    }

    /** One run's rows from this partition. */
    static final class RunRows {
        /** The run's samples file of this range, open from its first sample block on; null before. */
        SampleFile samples;
        final List<BlockRow> blocks = new ArrayList<>();
        final List<WindowStats> windows = new ArrayList<>();
        final List<ControlRow> control = new ArrayList<>();
        final List<ArchiveRows.ClientHealthRow> clientHealth = new ArrayList<>();
        final List<ArchiveRows.ServerCounterRow> serverCounters = new ArrayList<>();
        final List<ArchiveRows.StallRow> stalls = new ArrayList<>();
        final List<ArchiveRows.SummaryRow> summaries = new ArrayList<>();
        final List<ArchiveRows.RunSummaryRow> runSummaries = new ArrayList<>();
    }
}
