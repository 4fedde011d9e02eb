package io.tailstream.schemas.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunSummaryJsonTest {

    static final RunSummary SUMMARY = new RunSummary("run-1",
            List.of(new RunSummary.RoundStats("mariadb-1", "oltp_read_write", 8, WindowStats.ALL_OPS, 3,
                            List.of(1, 2, 3), new RunSummary.Figure(2_000, 100.0, 1_900, 2_100),
                            new RunSummary.Figure(100, 5.0, 95, 105), new RunSummary.Figure(4_000.5, 120.25, 3_900, 4_150),
                            new RunSummary.Figure(9_000, 300.0, 8_700, 9_300), new RunSummary.Figure(12_000, 0.0, 12_000,
                            12_000), 2_000, 100),
                    new RunSummary.RoundStats("mariadb-1", "oltp_read_write", 16, "read_write", 1, List.of(4),
                            new RunSummary.Figure(3_000, null, 3_000, 3_000), new RunSummary.Figure(150, null, 150, 150),
                            new RunSummary.Figure(5_000, null, 5_000, 5_000), new RunSummary.Figure(11_000, null, 11_000,
                            11_000), new RunSummary.Figure(15_000, null, 15_000, 15_000), 3_000, 150)),
            List.of(new RunSummary.Sweep("mariadb-1", "oltp_read_write", RunSummary.ALL_ROUNDS,
                    List.of(new RunSummary.Level(8, 2_000, 2_000, 3), new RunSummary.Level(16, 3_000, 3_000, 1)),
                    3_000, 16, null, null),
                    new RunSummary.Sweep("mariadb-1", "oltp_read_write", 1,
                            List.of(new RunSummary.Level(8, 1_900, 1_900, 1), new RunSummary.Level(16, 1_950, 1_950, 1)),
                            1_950, 16, 8, 1_900.0)),
            List.of(new RunSummary.ScaleOut("oltp_read_write", RunSummary.ScaleOut.PEAK, "MariaDB", "mariadb-1",
                    "mariadb-3", 3, 16, 3_000, 32, 7_500, 2.5)),
            5.0, 1, "plan", 4, List.of(5), false, 90_000, RunSummary.VERSION);

    /** The same figures in a version-1 event (no {@code version} field). */
    static final RunSummary SUMMARY_V1 = new RunSummary(SUMMARY.runId(), SUMMARY.rounds(), SUMMARY.sweeps(),
            SUMMARY.scaleOut(), SUMMARY.plateauMinGainPct(), SUMMARY.plateauPatience(), SUMMARY.plateauSource(),
            SUMMARY.stepsSummarized(), SUMMARY.stepsPending(), SUMMARY.complete(), SUMMARY.atEpochMs());

    @Test
    void runSummary_roundTripsThroughJson() {
        assertThat(Json.read(Json.write(SUMMARY), RunSummary.class)).isEqualTo(SUMMARY);
        assertThat(SUMMARY.key()).isEqualTo("run-1");
    }

    @Test
    void goldenJson_v1_staysReadable() throws IOException {
        String golden = Golden.resource("/golden/run-summary-v1.json").strip();
        RunSummary v1 = Json.read(golden, RunSummary.class);
        assertThat(v1).isEqualTo(SUMMARY_V1);
        assertThat(v1.version()).isEqualTo(1);
    }

    @Test
    void goldenJson_v2_isWhatWeWrite() throws IOException {
        Golden.assertWrittenAndRead("/golden/run-summary-v2.json", SUMMARY);
    }

    @Test
    void deadLetters_roundTrip_andAreLeftOutWhenThereAreNone() {
        RunSummary withDead = new RunSummary(SUMMARY.runId(), SUMMARY.rounds(), SUMMARY.sweeps(), SUMMARY.scaleOut(),
                SUMMARY.plateauMinGainPct(), SUMMARY.plateauPatience(), SUMMARY.plateauSource(),
                SUMMARY.stepsSummarized(), SUMMARY.stepsPending(), SUMMARY.complete(), SUMMARY.atEpochMs(),
                SUMMARY.version(), java.util.Map.of("invalid_json", 2L, "bad_magic", 1L));
        String json = Json.writeString(withDead);
        assertThat(json).endsWith(",\"deadLetters\":{\"bad_magic\":1,\"invalid_json\":2}}");
        assertThat(Json.read(json, RunSummary.class)).isEqualTo(withDead);
        assertThat(SUMMARY.deadLetters()).isNull();
        assertThat(Json.writeString(SUMMARY)).doesNotContain("deadLetters");
    }

    @Test
    void undefinedStddev_andNoPlateau_areLeftOutOfTheJson() {
        String json = Json.writeString(SUMMARY);
        assertThat(json).contains("\"qps\":{\"mean\":3000.0,\"min\":3000.0,\"max\":3000.0}");
        assertThat(Json.read(json, RunSummary.class).sweeps().get(0).plateauThreads()).isNull();
    }
}
