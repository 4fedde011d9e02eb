package io.tailstream.reporter.archive;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Runs an archiver in its own JVM until killed, for {@link ArchiverKillIntegrationTest}: args are bootstrap
 * servers, archive directory, consumer group and rows per file (small, so it flushes, renames and commits often).
 */
public final class ArchiverChildMain {

    private ArchiverChildMain() {}

    public static void main(String[] args) {
        ArchiverConfig config = ArchiverConfig.of(args[0], Path.of(args[1])).withGroupId(args[2])
                .withRollRows(Integer.parseInt(args[3])).withRollInterval(Duration.ofMillis(100));
        try (Archiver archiver = new Archiver(config)) {
            System.out.println("archiver started");
            archiver.runUntilClosed();
        }
    }
}
