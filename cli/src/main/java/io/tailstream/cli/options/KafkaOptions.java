package io.tailstream.cli.options;

import picocli.CommandLine.Option;

/** The Kafka cluster to talk to. */
public final class KafkaOptions {

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT",
            description = "Kafka bootstrap servers.")
    public String bootstrapServers;
}
