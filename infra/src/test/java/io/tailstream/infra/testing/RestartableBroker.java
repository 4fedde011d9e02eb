package io.tailstream.infra.testing;

import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.schemas.Topics;
import java.nio.file.Path;

/**
 * An in-process broker with the contract's topics that a test stops and starts again on the same log directory and
 * ports, so the clients that knew it find the same cluster at the same address: a broker outage. The log directory
 * is kept (the test's temporary folder holds it). {@link #stop()} may be called from another thread than the test's,
 * one at a time.
 */
public final class RestartableBroker implements AutoCloseable {

    private final Path logDir;
    /** The broker last started; its address and ports stay readable once it is closed. */
    private volatile EmbeddedKafka broker;
    private volatile boolean running = true;

    private RestartableBroker(Path logDir, EmbeddedKafka first) {
        this.logDir = logDir;
        this.broker = first;
    }

    /** Starts a broker logging to {@code logDir}, with samples and windows topics of {@code samplePartitions}. */
    public static RestartableBroker start(Path logDir, int samplePartitions) {
        RestartableBroker restartable = new RestartableBroker(logDir, EmbeddedKafka.start(logDir, false));
        TopicProvisioner.ensure(restartable.bootstrapServers(), Topics.all(samplePartitions));
        return restartable;
    }

    /** The same address before and after a restart. */
    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    /** Stops the broker; its log stays for {@link #startAgain()}. */
    public void stop() {
        running = false;
        broker.close();
    }

    /** Starts the stopped broker again on its log directory and ports. */
    public void startAgain() {
        broker = EmbeddedKafka.start(logDir, false, broker.brokerPort(), broker.controllerPort());
        running = true;
    }

    @Override
    public void close() {
        if (running) {
            stop();
        }
    }
}
