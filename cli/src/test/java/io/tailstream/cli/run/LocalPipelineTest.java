package io.tailstream.cli.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

class LocalPipelineTest {

    @Test
    void producerConfig_samplesLingerASecond_aQuarterOfOneWhenLive() {
        assertThat(LocalPipeline.producerConfig(false)).containsEntry(ProducerConfig.LINGER_MS_CONFIG, 1000);
        assertThat(LocalPipeline.producerConfig(true)).containsEntry(ProducerConfig.LINGER_MS_CONFIG, 250);
    }

    @Test
    void liveAddress_portZero_becomesAFreePort_anotherIsKept() {
        assertThat(LiveAggregator.resolve("127.0.0.1:0").getPort()).isPositive();
        assertThat(LiveAggregator.resolve("127.0.0.1:9464").getPort()).isEqualTo(9464);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LiveAggregator.resolve("9464"))
                .hasMessageContaining("HOST:PORT");
    }
}
