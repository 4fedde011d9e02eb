package io.tailstream.reporter.archive;

import java.nio.file.Path;

/**
 * Archives until caught up in its own JVM, as {@code tailstream archive --until-caught-up} does, for tests that
 * bound the heap ({@link ArchiverSmallHeapIntegrationTest}): args are bootstrap servers, archive directory and rows
 * per Parquet row group. Prints the progress lines and the summary; exits 0 only if every block was archived
 * exactly once.
 */
public final class ArchiverCatchUpChildMain {

    private ArchiverCatchUpChildMain() {}

    public static void main(String[] args) {
        ArchiverConfig config = ArchiverConfig.of(args[0], Path.of(args[1]))
                .withRowGroupRows(Integer.parseInt(args[2]));
        ArchiveSummary s;
        try (Archiver archiver = new Archiver(config, p -> System.out.println(p.line()))) {
            s = archiver.runUntilCaughtUp();
        }
        System.out.printf("archived %d samples, %d blocks, %d files, %d corrupt; blocks consistent %s%n",
                s.samplesSeen(), s.blocksSeen(), s.filesWritten(), s.corruptRecords(), s.blocksConsistent());
        System.exit(s.blocksConsistent() && s.corruptRecords() == 0 ? 0 : 2);
    }
}
