package io.tailstream.reporter.archive;

import io.tailstream.reporter.query.ArchiveDatabase;
import io.tailstream.schemas.event.ClientHealth;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.ServerCounters;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What {@link ControlProjection} needs of one run's archived control events, kept between flushes so that each
 * rebuild of the run's {@code steps} and {@code runs} files reads only the {@code control} files written since the
 * last one, instead of parsing the run's whole history again (a 12-hour soak holds tens of thousands of
 * {@code client_health} and {@code server_counters} events).
 *
 * <p>Kept: every event but the periodic ones ({@code client_health}, {@code server_counters}), and per producer its
 * earliest periodic event. The projection reads periodic events only for their producer and their time (the run's
 * producers, and its start when no {@code run_started} was archived), so the projection of these events equals the
 * projection of all of them. Events are keyed by their Kafka coordinates and listed in that order, the order of the
 * {@code control} dataset; a row archived twice (a replayed range) counts once, as its copies are equal.
 *
 * <p>A file is read once by name: the archiver rewrites a file only with the same offset range, so with the same
 * events. Not thread safe (the archive writer's thread).
 */
final class ControlHistory {

    /** Where an event was in the control topic. */
    private record Position(int partition, long offset) {
        static final Comparator<Position> ORDER = Comparator.comparingInt(Position::partition)
                .thenComparingLong(Position::offset);
    }

    private record Positioned(Position position, ControlEvent event) {}

    private final Set<String> filesRead = new HashSet<>();
    private final TreeMap<Position, ControlEvent> events = new TreeMap<>(Position.ORDER);
    /** Sent once a second per producer: the projection needs their producer and time only. */
    private static final Set<String> PERIODIC = Set.of(ClientHealth.TYPE, ServerCounters.TYPE);

    private final Map<String, Positioned> earliestPeriodic = new HashMap<>();

    /**
     * Reads the run's control files not read before and returns the events the projection needs, in topic order.
     *
     * @param controlDir the run's directory of the {@code control} dataset
     */
    List<ControlEvent> update(Connection duckdb, Path controlDir) throws SQLException, IOException {
        List<String> unread;
        try (Stream<Path> files = Files.list(controlDir)) {
            unread = files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".parquet") && !filesRead.contains(n))
                    .sorted()
                    .collect(Collectors.toList());
        }
        if (!unread.isEmpty()) {
            read(duckdb, unread.stream().map(n -> controlDir.resolve(n).toAbsolutePath().toString()).toList());
            filesRead.addAll(unread);
        }
        TreeMap<Position, ControlEvent> all = new TreeMap<>(events);
        earliestPeriodic.values().forEach(h -> all.put(h.position(), h.event()));
        return List.copyOf(all.values());
    }

    private void read(Connection duckdb, List<String> files) throws SQLException {
        String list = files.stream().map(ArchiveDatabase::sqlString).collect(Collectors.joining(", ", "[", "]"));
        try (Statement st = duckdb.createStatement();
             ResultSet rs = st.executeQuery("SELECT type, at_ms, producer_id, event, kafka_partition, kafka_offset"
                     + " FROM read_parquet(" + list + ")")) {
            while (rs.next()) {
                Position at = new Position(rs.getInt("kafka_partition"), rs.getLong("kafka_offset"));
                if (!PERIODIC.contains(rs.getString("type"))) {
                    events.put(at, Json.read(rs.getString("event"), ControlEvent.class));
                    continue;
                }
                Positioned earliest = earliestPeriodic.get(rs.getString("producer_id"));
                if (earliest == null || rs.getLong("at_ms") < earliest.event().atEpochMs()) {
                    earliestPeriodic.put(rs.getString("producer_id"),
                            new Positioned(at, Json.read(rs.getString("event"), ControlEvent.class)));
                }
            }
        }
    }
}
