package io.tailstream.reporter.query;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/**
 * Which runs {@link RunCatalog#list} returns; a null field does not filter.
 *
 * @param target   a step of the run ran against this target (exact name)
 * @param workload a step of the run ran this workload (exact name)
 * @param plan     the run's plan name (exact)
 * @param since    the run started at or after this instant
 */
public record RunFilter(String target, String workload, String plan, Instant since) {

    public static final RunFilter ALL = new RunFilter(null, null, null, null);

    /**
     * Parses {@code --since}: a date ({@code 2026-11-30}, midnight UTC) or an instant
     * ({@code 2026-11-30T08:00:00Z}).
     */
    public static Instant parseSince(String s) {
        try {
            return s.contains("T") ? Instant.parse(s) : LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + s + "' is not a date (2026-11-30) or an instant"
                    + " (2026-11-30T08:00:00Z)", e);
        }
    }
}
