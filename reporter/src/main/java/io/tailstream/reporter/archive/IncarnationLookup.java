package io.tailstream.reporter.archive;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * Asks the cluster which {@link TopicIncarnation} the archived topics are, at each assignment: the consumer does
 * not expose the cluster id and topic ids, so an admin client is created at the first, on the archiving thread.
 *
 * <p>Not thread safe: the archiving thread's; {@link #close()} once that thread is done with it.
 */
final class IncarnationLookup implements AutoCloseable {

    /** How long an assignment waits for the cluster id and topic ids. */
    private static final Duration DESCRIBE_TIMEOUT = Duration.ofSeconds(30);

    private final ArchiverConfig config;
    private Admin admin;

    IncarnationLookup(ArchiverConfig config) {
        this.config = config;
    }

    /**
     * The incarnation of each topic of {@code partitions}, asked of the cluster now: a topic deleted and created again
     * since the last assignment has a new topic id.
     *
     * @throws IllegalStateException if the cluster does not answer within {@link #DESCRIBE_TIMEOUT}
     */
    Map<String, TopicIncarnation> of(Collection<TopicPartition> partitions) {
        Set<String> topics = partitions.stream().map(TopicPartition::topic)
                .collect(Collectors.toCollection(TreeSet::new));
        if (admin == null) {
            admin = Admin.create(ArchiverClientProperties.admin(config));
        }
        try {
            KafkaFuture<String> clusterId = admin.describeCluster().clusterId();
            Map<String, TopicDescription> descriptions = admin.describeTopics(topics).allTopicNames()
                    .get(DESCRIBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            String cluster = clusterId.get(DESCRIBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            Map<String, TopicIncarnation> out = new HashMap<>();
            descriptions.forEach((topic, d) -> out.put(topic, new TopicIncarnation(cluster, d.topicId().toString())));
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while describing topics " + topics + " at "
                    + config.bootstrapServers(), e);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw new IllegalStateException("cannot describe the cluster and topics " + topics + " at "
                    + config.bootstrapServers() + " within " + DESCRIBE_TIMEOUT + ": " + cause, cause);
        }
    }

    /** Closes the admin client, if one was created. */
    @Override
    public void close() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
    }
}
