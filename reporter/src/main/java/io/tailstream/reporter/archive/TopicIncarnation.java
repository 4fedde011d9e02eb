package io.tailstream.reporter.archive;

import io.tailstream.reporter.query.ArchiveDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Which incarnation of a Kafka topic records were read from: the id of the cluster and the id Kafka gave the topic
 * when it was created. A topic deleted and created again, or created on another cluster (a new in-process broker, a
 * rebuilt cluster), has another topic id, and its offsets start again at 0, so an archive file's name (topic,
 * partition, offset range) alone does not say which records it holds. Every file read from a topic carries its
 * incarnation in the Parquet footer's key-value metadata ({@link #CLUSTER_ID_KEY}, {@link #TOPIC_ID_KEY}); files
 * written before they did carry neither.
 *
 * <p>Immutable and thread safe.
 *
 * @param clusterId the Kafka cluster's id
 * @param topicId   the topic's id (a UUID in Kafka's base64 form)
 */
record TopicIncarnation(String clusterId, String topicId) {

    /** Footer key of the cluster id. */
    static final String CLUSTER_ID_KEY = "tailstream.kafka.cluster_id";
    /** Footer key of the topic id. */
    static final String TOPIC_ID_KEY = "tailstream.kafka.topic_id";

    TopicIncarnation {
        if (clusterId == null || clusterId.isBlank()) {
            throw new IllegalArgumentException("clusterId must not be blank, was '" + clusterId + "'");
        }
        if (topicId == null || topicId.isBlank()) {
            throw new IllegalArgumentException("topicId must not be blank, was '" + topicId + "'");
        }
    }

    /** The footer key-value metadata that records this incarnation in a file. */
    Map<String, String> footer() {
        return Map.of(CLUSTER_ID_KEY, clusterId, TOPIC_ID_KEY, topicId);
    }

    /**
     * The incarnation recorded in a Parquet file's footer, or empty if the file records none (written before files
     * carried it, or by a writer that was not told where its records came from).
     *
     * @param duckdb reads the footer
     */
    static Optional<TopicIncarnation> ofFile(Connection duckdb, Path file) throws SQLException {
        Map<String, String> footer = new HashMap<>();
        try (Statement st = duckdb.createStatement();
             ResultSet rs = st.executeQuery("SELECT decode(key), decode(value) FROM parquet_kv_metadata("
                     + ArchiveDatabase.sqlString(file.toAbsolutePath().toString()) + ")")) {
            while (rs.next()) {
                footer.put(rs.getString(1), rs.getString(2));
            }
        }
        String cluster = footer.get(CLUSTER_ID_KEY);
        String topic = footer.get(TOPIC_ID_KEY);
        return cluster == null || topic == null ? Optional.empty() : Optional.of(new TopicIncarnation(cluster, topic));
    }

    @Override
    public String toString() {
        return "cluster " + clusterId + ", topic id " + topicId;
    }
}
