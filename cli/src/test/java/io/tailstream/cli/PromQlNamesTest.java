package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PromQlNamesTest {

    @Test
    void bareNames_namesBeforeMatchersAndRanges_notFunctionsLabelsOrKeywords() {
        assertThat(PromQlNames.of("tailstream_producer_spool_bytes > 0"))
                .containsExactly("tailstream_producer_spool_bytes");
        assertThat(PromQlNames.of("max by (run, step) (tailstream_stalls_open{op=\"*\"}) > 0"))
                .containsExactly("tailstream_stalls_open");
        assertThat(PromQlNames.of("sum by (topic, reason) (increase(tailstream_deadletters_total[5m])) > 1e3"))
                .containsExactly("tailstream_deadletters_total");
        assertThat(PromQlNames.of("a_bytes / on (instance) group_left (job) b_limit > 0.8 and deriv(c[10m:1m]) > 0"
                + " unless up{job='x'} == bool 0 offset 5m"))
                .containsExactly("a_bytes", "b_limit", "c", "up");
        assertThat(PromQlNames.of("max without (state) (tailstream_aggregator_state{state=~\"running|caught_up\"})"))
                .containsExactly("tailstream_aggregator_state");
    }
}
