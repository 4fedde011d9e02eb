package io.tailstream.reporter.archive;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How the archiver connects and when it rolls files.
 *
 * @param bootstrapServers Kafka bootstrap servers
 * @param archiveDir       root of the archive (created if missing)
 * @param groupId          consumer group whose committed offsets mark what is archived; archivers of one group
 *                         and archive directory share the partitions
 * @param rollInterval     continuous mode: buffered rows are written at least this often
 * @param rollRows         a topic partition's rows are written into files and committed when it holds this many
 *                         rows (the files' size); at most 1,000,000
 * @param rowGroupRows     samples sorted and written per Parquet row group: what bounds the archiver's memory
 *                         (about 54 bytes per row for each samples file being written, one per samples partition,
 *                         two for a moment when a run ends in mid-file, and for the row group being encoded; 20
 *                         more for sorting it), whatever the rate, roll interval or file size; at most 16 Mi
 * @param kafkaProperties  extra consumer properties (security settings, ...); may not override the ones the
 *                         archiver's guarantees rest on (auto commit, isolation level, deserializers). Those an
 *                         admin client knows also configure the one that asks for the cluster and topic ids
 */
public record ArchiverConfig(
        String bootstrapServers,
        Path archiveDir,
        String groupId,
        Duration rollInterval,
        int rollRows,
        int rowGroupRows,
        Map<String, String> kafkaProperties) {

    public static final String DEFAULT_GROUP_ID = "tailstream-archiver";
    public static final Duration DEFAULT_ROLL_INTERVAL = Duration.ofSeconds(60);
    public static final int DEFAULT_ROLL_ROWS = 1_000_000;
    static final int MAX_ROLL_ROWS = 1_000_000;
    /**
     * Samples sorted and written per Parquet row group: a row group of 1 Mi rows holds a default-sized file whole
     * (sorted throughout, as dense as before row groups were bounded) and costs ~64 MB of heap per samples file
     * being written.
     */
    public static final int DEFAULT_ROW_GROUP_ROWS = 1 << 20;
    /** The largest {@link #rowGroupRows()}: 16 Mi rows, about 1 GB of buffer per samples file. */
    public static final int MAX_ROW_GROUP_ROWS = 1 << 24;

    public ArchiverConfig {
        Objects.requireNonNull(archiveDir, "archiveDir");
        if (bootstrapServers == null || bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("bootstrapServers must not be blank, was '" + bootstrapServers + "'");
        }
        if (groupId == null || groupId.isBlank()) {
            throw new IllegalArgumentException("groupId must not be blank, was '" + groupId + "'");
        }
        if (rollInterval == null || rollInterval.isNegative() || rollInterval.isZero()) {
            throw new IllegalArgumentException("rollInterval must be positive, was " + rollInterval);
        }
        if (rollRows < 1 || rollRows > MAX_ROLL_ROWS) {
            throw new IllegalArgumentException("rollRows must be in 1.." + MAX_ROLL_ROWS + ", was " + rollRows);
        }
        if (rowGroupRows < 1 || rowGroupRows > MAX_ROW_GROUP_ROWS) {
            throw new IllegalArgumentException("rowGroupRows must be in 1.." + MAX_ROW_GROUP_ROWS + ", was "
                    + rowGroupRows);
        }
        kafkaProperties = kafkaProperties == null ? Map.of() : Map.copyOf(kafkaProperties);
    }

    /** Defaults for everything but the broker and the directory. */
    public static ArchiverConfig of(String bootstrapServers, Path archiveDir) {
        return new ArchiverConfig(bootstrapServers, archiveDir, DEFAULT_GROUP_ID, DEFAULT_ROLL_INTERVAL,
                DEFAULT_ROLL_ROWS, DEFAULT_ROW_GROUP_ROWS, Map.of());
    }

    public ArchiverConfig withRollInterval(Duration interval) {
        return new ArchiverConfig(bootstrapServers, archiveDir, groupId, interval, rollRows, rowGroupRows, kafkaProperties);
    }

    public ArchiverConfig withRollRows(int rows) {
        return new ArchiverConfig(bootstrapServers, archiveDir, groupId, rollInterval, rows, rowGroupRows, kafkaProperties);
    }

    public ArchiverConfig withRowGroupRows(int rows) {
        return new ArchiverConfig(bootstrapServers, archiveDir, groupId, rollInterval, rollRows, rows, kafkaProperties);
    }

    public ArchiverConfig withGroupId(String group) {
        return new ArchiverConfig(bootstrapServers, archiveDir, group, rollInterval, rollRows, rowGroupRows, kafkaProperties);
    }

    /** Kafka client properties (a secured cluster's SASL/TLS settings) for every client of the archiver. */
    public ArchiverConfig withKafkaProperties(Map<String, String> properties) {
        return new ArchiverConfig(bootstrapServers, archiveDir, groupId, rollInterval, rollRows, rowGroupRows, properties);
    }

    /** The Kafka properties by key only: their values may be credentials. */
    @Override
    public String toString() {
        return "ArchiverConfig[bootstrapServers=" + bootstrapServers + ", archiveDir=" + archiveDir + ", groupId="
                + groupId + ", rollInterval=" + rollInterval + ", rollRows=" + rollRows + ", rowGroupRows="
                + rowGroupRows + ", kafkaProperties=" + new java.util.TreeSet<>(kafkaProperties.keySet()) + "]";
    }
}
