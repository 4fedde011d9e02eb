package io.tailstream.reporter.archive;

/**
 * Whether the archive holds every block of one producer in one run exactly once, from the {@code blocks} dataset.
 * Block sequences run 0..n-1 per producer (markers included).
 *
 * @param runId              run
 * @param producerId         producer
 * @param blocks             block rows in the archive
 * @param distinctSequences  distinct block sequences among them
 * @param maxSequence        highest block sequence seen
 * @param blocksSent         blocks the producer said it sent ({@code run_ended}), or null if not (yet) known
 * @param duplicates         {@code blocks - distinctSequences}
 * @param missing            sequences below {@code max(maxSequence + 1, blocksSent)} not in the archive
 */
public record BlockCheck(
        String runId,
        String producerId,
        long blocks,
        long distinctSequences,
        long maxSequence,
        Long blocksSent,
        long duplicates,
        long missing) {

    /** True if every block is there exactly once. */
    public boolean ok() {
        return duplicates == 0 && missing == 0;
    }
}
