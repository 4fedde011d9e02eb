package io.tailstream.producer.server;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;

/**
 * H2: what its MVStore reports in {@code INFORMATION_SCHEMA.SETTINGS} (file reads and writes, counted and in bytes,
 * the file's size and fill rate; an in-memory database has none of them) and its sessions from
 * {@code INFORMATION_SCHEMA.SESSIONS}: all, executing a statement, blocked by another session, holding uncommitted
 * changes (the sampler's own session left out).
 */
final class H2Counters implements ServerCounterSource {

    static final Set<String> SETTING_COUNTERS = Set.of("info.FILE_WRITE", "info.FILE_WRITE_BYTES", "info.FILE_READ",
            "info.FILE_READ_BYTES");
    static final Set<String> SETTING_GAUGES = Set.of("info.FILE_SIZE", "info.CHUNK_COUNT", "info.FILL_RATE",
            "info.CHUNKS_FILL_RATE");

    private static final String SETTINGS = "SELECT SETTING_NAME, SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS"
            + " WHERE SETTING_NAME LIKE 'info.%'";

    private static final String SESSIONS = "SELECT COUNT(*) AS \"all\", COUNT(EXECUTING_STATEMENT) AS \"executing\","
            + " COUNT(BLOCKER_ID) AS \"blocked\", COUNT(CASE WHEN CONTAINS_UNCOMMITTED THEN 1 END) AS \"uncommitted\""
            + " FROM INFORMATION_SCHEMA.SESSIONS WHERE SESSION_ID <> SESSION_ID()";

    private final CounterQueries queries = new CounterQueries("H2")
            .add("INFORMATION_SCHEMA.SETTINGS", (c, r) -> CounterQueries.namedValues(c, SETTINGS, SETTING_GAUGES,
                    SETTING_COUNTERS, r))
            .add("INFORMATION_SCHEMA.SESSIONS", (c, r) -> CounterQueries.numericColumns(c, SESSIONS, "sessions.",
                    Set.of("all", "executing", "blocked", "uncommitted"), r));

    @Override
    public CounterReading read(Connection c) throws SQLException {
        return queries.read(c);
    }
}
