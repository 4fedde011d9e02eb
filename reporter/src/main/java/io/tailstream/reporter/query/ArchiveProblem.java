package io.tailstream.reporter.query;

import java.nio.file.Path;

/**
 * A file of the archive that cannot be read (or is missing), and the run it belongs to; the run is left out of
 * every view of the {@link ArchiveDatabase} so the other runs still report and query.
 *
 * @param runId   the run whose data is incomplete
 * @param file    the unreadable or missing file
 * @param reason  what is wrong with it
 */
public record ArchiveProblem(String runId, Path file, String reason) {

    /** One line for a warning: {@code run R skipped: FILE: REASON}. */
    public String describe() {
        return "run " + runId + " skipped: " + file + ": " + reason;
    }
}
