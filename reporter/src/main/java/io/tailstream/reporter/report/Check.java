package io.tailstream.reporter.report;

import java.util.List;

/**
 * A methodology check.
 *
 * @param id       message key suffix ({@code check.<id>})
 * @param status   {@code pass}, {@code flag} or {@code na} (no data to decide)
 * @param findings what the data showed (the offending rows when flagged)
 */
public record Check(String id, String status, List<Text> findings) {
    public Check {
        findings = List.copyOf(findings);
    }
}
