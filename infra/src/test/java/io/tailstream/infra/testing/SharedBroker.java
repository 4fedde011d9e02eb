package io.tailstream.infra.testing;

import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.schemas.Topics;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One in-process broker with the contract's topics for all the tests of a class: a JUnit extension, registered as a
 * static {@code @RegisterExtension} field, that starts the broker before the class's first test and closes it after
 * its last. The tests of the class share the broker's records, so each uses run ids of its own.
 */
public final class SharedBroker implements BeforeAllCallback, AfterAllCallback {

    private final int samplePartitions;
    private EmbeddedKafka kafka;

    private SharedBroker(int samplePartitions) {
        this.samplePartitions = samplePartitions;
    }

    /** A broker whose samples and windows topics have {@code samplePartitions} partitions. */
    public static SharedBroker withTopics(int samplePartitions) {
        return new SharedBroker(samplePartitions);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        kafka = EmbeddedKafka.start();
        TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(samplePartitions));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (kafka != null) {
            kafka.close();
            kafka = null;
        }
    }

    public String bootstrapServers() {
        if (kafka == null) {
            throw new IllegalStateException("the shared broker runs from the class's first test to its last");
        }
        return kafka.bootstrapServers();
    }
}
