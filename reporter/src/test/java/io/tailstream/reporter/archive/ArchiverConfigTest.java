package io.tailstream.reporter.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A secured cluster's client settings reach the archiver's config, and never its text form. */
class ArchiverConfigTest {

    @Test
    void kafkaProperties_keptForTheClients_valuesNeverInToString() {
        String jaas = "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"bench\""
                + " password=\"s3cr3t-Zq9\";";
        ArchiverConfig config = ArchiverConfig.of("127.0.0.1:9092", Path.of("archive"))
                .withKafkaProperties(Map.of("sasl.jaas.config", jaas, "security.protocol", "SASL_PLAINTEXT"))
                .withGroupId("g");
        assertThat(config.kafkaProperties()).containsEntry("sasl.jaas.config", jaas);
        assertThat(config.groupId()).isEqualTo("g");
        assertThat(config.toString()).contains("sasl.jaas.config").contains("security.protocol")
                .doesNotContain("s3cr3t-Zq9").doesNotContain("SASL_PLAINTEXT");
    }
}
