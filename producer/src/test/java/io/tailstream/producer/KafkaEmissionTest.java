package io.tailstream.producer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tailstream.producer.emit.SpoolSettings;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KafkaEmissionTest {

    @Test
    void build_onlyServers_noSettingsAndNoSpool() {
        KafkaEmission e = KafkaEmission.to("broker:9092").build();
        assertThat(e.bootstrapServers()).isEqualTo("broker:9092");
        assertThat(e.kafkaConfig()).isEmpty();
        assertThat(e.spool()).isNull();
    }

    @Test
    void build_keepsSettingsAndSpool_unaffectedByLaterChangesToTheMap() {
        Map<String, Object> config = new HashMap<>(Map.of("linger.ms", 5));
        SpoolSettings spool = SpoolSettings.in(Path.of("spool"));
        KafkaEmission e = KafkaEmission.to("a:1,b:2").kafkaConfig(config).spool(spool).build();
        config.put("security.protocol", "SSL");
        assertThat(e.kafkaConfig()).containsExactly(Map.entry("linger.ms", 5));
        assertThat(e.spool()).isSameAs(spool);
    }

    @Test
    void build_missingOrBlankServers_namesTheValue() {
        assertThatThrownBy(() -> KafkaEmission.to(null).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bootstrap servers must be host:port[,host:port...], was null");
        assertThatThrownBy(() -> KafkaEmission.to(" ").build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bootstrap servers must be host:port[,host:port...], was ' '");
    }

    @Test
    void build_settingWithoutValue_namesTheSetting() {
        Map<String, Object> config = new HashMap<>();
        config.put("sasl.jaas.config", null);
        assertThatThrownBy(() -> KafkaEmission.to("broker:9092").kafkaConfig(config).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("kafkaConfig setting 'sasl.jaas.config' has no value");
        assertThatThrownBy(() -> KafkaEmission.to("broker:9092").kafkaConfig(null).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was null");
    }

    @Test
    void defaultProducerId_isHostDashPid() {
        assertThat(KafkaEmission.defaultProducerId()).endsWith("-" + ProcessHandle.current().pid());
    }
}
