package io.tailstream.cli.command;

import io.tailstream.infra.kafka.EmbeddedKafka;
import io.tailstream.infra.kafka.TopicProvisioner;
import io.tailstream.schemas.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A real single-node Kafka broker (KRaft) in its own process, for running producer, aggregator and archiver as
 * separate processes on one machine without installing Kafka.
 */
@Command(name = "broker", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run a single-node Kafka broker (KRaft, Kafka's own server code) on 127.0.0.1 with the"
                + " tailstream topics, until interrupted.",
                "For trying 'run --bootstrap-servers', 'aggregate' and 'archive' as separate processes; use a real"
                        + " cluster for anything that must survive this machine."})
public final class BrokerCommand implements Callable<Integer> {

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "9092",
            description = "Client port on 127.0.0.1 (default: ${DEFAULT-VALUE}; 0 picks a free one).")
    int port;

    @Option(names = "--log-dir", paramLabel = "DIR",
            description = "Where the broker keeps its log; kept after exit (default: a temporary folder, deleted"
                    + " on exit).")
    Path logDir;

    @Option(names = "--partitions", paramLabel = "N", defaultValue = "2",
            description = "Partitions of the samples and windows topics (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Override
    public Integer call() throws Exception {
        boolean temporary = logDir == null;
        Path dir = temporary ? Files.createTempDirectory("tailstream-broker-") : logDir;
        CountDownLatch stopped = new CountDownLatch(1);
        try (EmbeddedKafka kafka = EmbeddedKafka.start(dir, temporary, port)) {
            TopicProvisioner.ensure(kafka.bootstrapServers(), Topics.all(partitions));
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                kafka.close();
                stopped.countDown();
            }, "tailstream-broker-shutdown"));
            System.out.println("broker ready: --bootstrap-servers " + kafka.bootstrapServers() + " (log dir " + dir
                    + "); Ctrl-C to stop");
            stopped.await();
        }
        return 0;
    }
}
