package io.tailstream.aggregator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class AggregatorConfigTest {

    @Test
    void defaults_areOneSecondWindowsTwoSecondsGraceExactlyOnce() {
        AggregatorConfig c = AggregatorConfig.defaults();
        assertThat(c.windowSizeMs()).isEqualTo(1000);
        assertThat(c.graceMs()).isEqualTo(2000);
        assertThat(c.processingGuarantee()).isEqualTo("exactly_once_v2");
        assertThat(c.stepEndWait()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void invalidValues_areRefusedWithKeyAndValue() {
        AggregatorConfig c = AggregatorConfig.defaults();
        assertThatThrownBy(() -> c.withWindow(Duration.ZERO, Duration.ofSeconds(2)))
                .hasMessageContaining("windowSize").hasMessageContaining("PT0S");
        assertThatThrownBy(() -> c.withWindow(Duration.ofNanos(1_500_000), Duration.ofSeconds(2)))
                .hasMessageContaining("windowSize").hasMessageContaining("whole number of milliseconds");
        assertThatThrownBy(() -> c.withWindow(Duration.ofSeconds(1), Duration.ofSeconds(-1)))
                .hasMessageContaining("grace");
        assertThatThrownBy(() -> c.withProcessingGuarantee("exactly_once"))
                .hasMessageContaining("processingGuarantee").hasMessageContaining("'exactly_once'");
        assertThatThrownBy(() -> c.withApplicationId("has space")).hasMessageContaining("'has space'");
        assertThatThrownBy(() -> c.withStreamThreads(0)).hasMessageContaining("streamThreads").hasMessageContaining("0");
        assertThatThrownBy(() -> c.withStepEndWait(Duration.ofSeconds(-1))).hasMessageContaining("stepEndWait")
                .hasMessageContaining("PT-1S");
    }

    @Test
    void streamsProperties_inMemoryStoresAndOverridesWin_andToStringHidesOverrideValues() {
        AggregatorConfig c = AggregatorConfig.defaults()
                .withClientOverrides(Map.of("sasl.jaas.config", "secret-value", "commit.interval.ms", "250"));
        Properties p = Aggregator.streamsProperties("h:1", c, Path.of("state"));
        assertThat(p.get(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG).toString()).contains("InMemory");
        assertThat(p.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG)).isEqualTo("exactly_once_v2");
        assertThat(p.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo("250");
        assertThat(c.toString()).contains("sasl.jaas.config").doesNotContain("secret-value");
    }
}
