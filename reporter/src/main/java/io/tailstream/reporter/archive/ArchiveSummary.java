package io.tailstream.reporter.archive;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What one archiver invocation did.
 *
 * @param filesWritten    Parquet files moved into place (replacements after a crash included)
 * @param rowsByDataset   rows written per dataset (steps and runs: rows of the rewritten derived files)
 * @param blocksSeen      sample blocks consumed, markers included
 * @param samplesSeen     samples decoded from them
 * @param corruptRecords  records that could not be decoded (corrupt blocks, invalid JSON) and were skipped
 * @param blockChecks     per run and producer of the runs touched: every block sequence archived exactly once?
 * @param elapsed         wall time of the invocation
 */
public record ArchiveSummary(
        long filesWritten,
        Map<String, Long> rowsByDataset,
        long blocksSeen,
        long samplesSeen,
        long corruptRecords,
        List<BlockCheck> blockChecks,
        Duration elapsed) {

    public ArchiveSummary {
        rowsByDataset = Map.copyOf(rowsByDataset);
        blockChecks = List.copyOf(blockChecks);
    }

    /** Rows written to a dataset (0 if none). */
    public long rows(String dataset) {
        return rowsByDataset.getOrDefault(dataset, 0L);
    }

    /** True if every checked producer's blocks are in the archive exactly once. */
    public boolean blocksConsistent() {
        return blockChecks.stream().allMatch(BlockCheck::ok);
    }
}
