package io.tailstream.producer.server;

import io.tailstream.producer.target.Dialect;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Reads one product's counters. An implementation is made of {@link CounterQueries}: a query the server refuses
 * (a missing privilege, a view an older version lacks) is left out from then on, so one missing view costs its
 * figures, not the others. One instance per target and run, used from one thread at a time.
 */
interface ServerCounterSource {

    /**
     * One reading.
     *
     * @throws SQLException when the connection fails or a query times out: the reading as a whole failed
     */
    CounterReading read(Connection c) throws SQLException;

    /** The source for a target of {@code dialect}'s product. */
    static ServerCounterSource forDialect(Dialect dialect) {
        return switch (dialect.name()) {
            case "mysql" -> new MySqlCounters();
            case "postgresql" -> new PostgreSqlCounters();
            case "h2" -> new H2Counters();
            default -> throw new IllegalArgumentException("no server counters for dialect " + dialect.name());
        };
    }
}
