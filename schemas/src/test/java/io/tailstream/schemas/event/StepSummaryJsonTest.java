package io.tailstream.schemas.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StepSummaryJsonTest {

    /**
     * A version-2 summary of an 8.25 s measured span (start and end mid-second): 82,500 successful transactions of
     * 20 statements, 25 failed; no trend on so short a step.
     */
    static final StepSummary V2 = new StepSummary("run-1", 3, WindowStats.ALL_OPS, 1_700_000_002_400L,
            1_700_000_010_650L, 82_525, 25, Map.of("deadlock", 25L), 1_650_400, 200_000.0, 10_000.0, 812.5, 700, 1_100,
            1_300, 2_000, 4_100, 9_503, 0, 0, null, null, false, 2, 0, "HISTFAAAAB...", 1_700_000_014_000L,
            2, 1_650_000, 25 / 8.25, 7_100, 8.25, 1_700_000_002_400_250L, 1_700_000_010_650_250L,
            StepSummary.SPAN_PRODUCER, true, 6, 31.5, 60, 4_000, "HISTFAAAAC...");

    /**
     * A version-3 summary: two producers (2 and 3 threads); the second never reported its end, so the summary is
     * incomplete and names it.
     */
    static final StepSummary V3 = new StepSummary("run-1", 3, WindowStats.ALL_OPS, 1_700_000_002_400L,
            1_700_000_010_650L, 82_525, 25, Map.of("deadlock", 25L), 1_650_400, 200_000.0, 10_000.0, 812.5, 700, 1_100,
            1_300, 2_000, 4_100, 9_503, 0, 0, null, null, false, 2, -1, "HISTFAAAAB...", 1_700_000_074_000L,
            StepSummary.VERSION, 1_650_000, 25 / 8.25, 7_100, 8.25, 1_700_000_002_400_250L, 1_700_000_010_650_250L,
            StepSummary.SPAN_WINDOWS, false, 6, 31.5, 60, 4_000, "HISTFAAAAC...", 5,
            List.of(new StepSummary.ProducerPart("gen-a", 2, true, StepEnded.COMPLETED, 82_525L, 90L, 25L, false,
                            31.5, 48.25, 412.0),
                    new StepSummary.ProducerPart("gen-b", 3, false, null, null, null, null, true, null, null, 398.5)),
            List.of("gen-b"));

    @Test
    void goldenJson_v3_isWhatWeWrite_andReadsBack() throws IOException {
        StepSummary back = Golden.assertWrittenAndRead("/golden/step-summary-v3.json", V3);
        assertThat(back.threads()).isEqualTo(5);
        assertThat(back.producers()).extracting(StepSummary.ProducerPart::producerId).containsExactly("gen-a", "gen-b");
        assertThat(back.missingProducers()).containsExactly("gen-b");
    }

    @Test
    void v3_fieldsAreAbsentFromAVersion2Event_andAVersion2ReaderIgnoresThem() throws IOException {
        StepSummary v2 = Json.read(Golden.resource("/golden/step-summary-v2.json"), StepSummary.class);
        assertThat(v2.version()).isEqualTo(2);
        assertThat(v2.threads()).isNull();
        assertThat(v2.producers()).isNull();
        assertThat(v2.missingProducers()).isNull();
        // a version-2 reader: the same record without the version-3 fields
        V2Reader old = new com.fasterxml.jackson.databind.ObjectMapper()
                .configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
                .readValue(Golden.resource("/golden/step-summary-v3.json"), V2Reader.class);
        assertThat(old.count()).isEqualTo(82_525);
        assertThat(old.version()).isEqualTo(3);
    }

    /** The fields a version-2 consumer reads (a subset is enough to show unknown fields are skipped). */
    record V2Reader(String runId, int stepId, String op, long count, int version, boolean complete) {}

    @Test
    void goldenJson_v2_isWhatWeWrite_andReadsBack() throws IOException {
        StepSummary back = Golden.assertWrittenAndRead("/golden/step-summary-v2.json", V2);
        assertThat(back.qpsSlopePctPerHour()).isNull();
        assertThat(back.successful()).isEqualTo(82_500);
        assertThat(Golden.resource("/golden/step-summary-v2.json")).doesNotContain("qpsSlopePctPerHour")
                .doesNotContain("qpsCv");
    }

    @Test
    void goldenJson_v1_staysReadable_withItsWholeWindowSpan() throws IOException {
        StepSummary v1 = Json.read(Golden.resource("/golden/step-summary-v1.json"), StepSummary.class);
        assertThat(v1.version()).isEqualTo(1);
        assertThat(v1.qps()).isEqualTo(20.0);
        assertThat(v1.qpsSlopePctPerHour()).isEqualTo(-12.5);
        assertThat(v1.qpsCv()).isEqualTo(0.25);
        assertThat(v1.spanSource()).isEqualTo(StepSummary.SPAN_WINDOWS);
        assertThat(v1.measuredSeconds()).isEqualTo(10.0);
        assertThat(v1.measureStartEpochMicros()).isEqualTo(1_700_000_002_000_000L);
        assertThat(v1.complete()).isFalse();
        assertThat(v1.errorHistogram()).isNull();
        assertThat(v1).isEqualTo(new StepSummary("run-1", 3, WindowStats.ALL_OPS, 1_700_000_002_000L,
                1_700_000_012_000L, 10, 1, Map.of("deadlock", 1L), 200, 20.0, 0.9, 2462.3, 1250, 4001, 9503, 9503, 9503,
                9503, 0, 0, -12.5, 0.25, false, 0, 0, v1.histogram(), 1_700_000_015_000L));
    }
}
