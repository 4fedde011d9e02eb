package io.tailstream.reporter.archive;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * Runs an archiver in its own JVM until killed, for {@link ArchiverKillIntegrationTest} and
 * {@link ArchiverGroupIntegrationTest}: args are bootstrap servers, archive directory, consumer group and rows per
 * file (small, so it flushes, renames and commits often). Its group session times out after 6 s (the broker's
 * minimum), so a killed child's partitions go to the next member quickly.
 */
public final class ArchiverChildMain {

    private ArchiverChildMain() {}

    public static void main(String[] args) {
        ArchiverConfig config = ArchiverConfig.of(args[0], Path.of(args[1])).withGroupId(args[2])
                .withRollRows(Integer.parseInt(args[3])).withRollInterval(Duration.ofMillis(100))
                .withKafkaProperties(Map.of(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "6000",
                        ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "1000",
                        ConsumerConfig.CLIENT_ID_CONFIG, "archiver-child"));
        try (Archiver archiver = new Archiver(config)) {
            System.out.println("archiver started");
            archiver.runUntilClosed();
        }
    }
}
