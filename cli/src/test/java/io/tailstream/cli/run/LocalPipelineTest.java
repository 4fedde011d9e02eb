package io.tailstream.cli.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

class LocalPipelineTest {

    @Test
    void producerConfig_samplesLingerASecond() {
        assertThat(LocalPipeline.producerConfig()).containsEntry(ProducerConfig.LINGER_MS_CONFIG, 1000);
    }
}
