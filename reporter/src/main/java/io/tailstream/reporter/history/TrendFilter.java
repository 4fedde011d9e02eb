package io.tailstream.reporter.history;

import java.time.Instant;

/**
 * Which series {@link TrendQuery} returns; a null field does not filter.
 *
 * @param target   target name (exact)
 * @param workload workload name (exact)
 * @param threads  concurrency
 * @param since    runs started at or after this instant
 */
public record TrendFilter(String target, String workload, Integer threads, Instant since) {

    public static final TrendFilter ALL = new TrendFilter(null, null, null, null);
}
