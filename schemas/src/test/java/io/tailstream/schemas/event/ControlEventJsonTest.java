package io.tailstream.schemas.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ControlEventJsonTest {

    static final TargetInfo TARGET = new TargetInfo("mariadb-local", "jdbc:mysql://127.0.0.1:3306/sbtest", "MariaDB",
            "10.11.19-MariaDB", Map.of("innodb_flush_log_at_trx_commit", "1"), 5602.0, "CNY", 2, "primary + replica");

    static final List<ControlEvent> EVENTS = List.of(
            new RunStarted("run-1", 1_000, "p-1", "demo", List.of(TARGET), Map.of("host", "client-1"),
                    RunSettings.fromVersion1(Map.of("threads", "8,16"))),
            new StepStarted("run-1", 1_100, "p-1", 3, TARGET, "oltp_read_write", 16, 2, 5_000, 20_000,
                    List.of("read_write"), 20, Map.of("tables", "8")),
            new ClientHealth("run-1", 1_200, "p-1", 3, 23.5, 71.0, 4, 2, Map.of("mariadb-local", 0.21), false),
            new StepEnded("run-1", 26_100, "p-1", 3, 1_234_567, 1_300, 12, "completed"),
            new RunEnded("run-1", 27_000, "p-1", 1_400, 1_234_567, "completed"));

    /** Version 2: step_ended and run_ended carry the client-bound flag and the spool statistics. */
    static final List<ControlEvent> EVENTS_V2 = List.of(
            new StepEnded("run-2", 26_100, "p-1", 3, 1_234_567, 1_300, 12, "completed", true, 420L, 3L, 7_340_032L),
            new RunEnded("run-2", 27_000, "p-1", 1_400, 1_234_567, "completed", true, 420L, 4L, 7_340_032L),
            new StepEnded("run-2", 28_100, "p-1", 4, 10, 2, 0, "completed", false, 0L, 0L, 0L));

    /**
     * Version 3: step_started carries the round-trip probe, step_ended the exact phase boundaries, threads,
     * reconnects and CPU figures, client_health the load generator's own CPU apart from the rest of the process.
     */
    static final List<ControlEvent> EVENTS_V3 = List.of(
            new StepStarted("run-3", 1_100, "p-1", 3, TARGET, "oltp_read_write", 16, 2, 5_000, 20_000,
                    List.of("read_write"), 20, Map.of("tables", "8"),
                    new RttProbe("prepared SELECT 1, idle connection, 200 timed of 220", 200, 61.5, 88.25, 140.0,
                            301.5)),
            new ClientHealth("run-3", 1_200, "p-1", 3, 63.5, 91.0, 4, 2, Map.of("mariadb-local", 0.21), false, 21.5,
                    30.0, 12.0),
            new StepEnded("run-3", 26_100, "p-1", 3, 1_234_567, 1_300, 12, "failed: duplicate_key (not ignored)",
                    false, 0L, 0L, 0L, 1_000_100_000L, 1_000_105_000_250L, 1_000_125_000_500L, 16, 3L, 21.25, 62.5));

    /**
     * Version 4: a run shared by several producers: their readiness, a start without the missing, and step_started
     * with the agreed start and the step's producers.
     */
    static final List<ControlEvent> EVENTS_V4 = List.of(
            new ProducerReady("run-4", 1_000, "p-1", 3, 3, 16, true, "client-1"),
            new StepGo("run-4", 301_000, "p-1", 3, 302_000, List.of("p-1", "p-2"), List.of("p-3"), 0),
            new StepStarted("run-4", 302_000, "p-1", 3, TARGET, "oltp_read_write", 8, 2, 5_000, 20_000,
                    List.of("read_write"), 20, Map.of("tables", "8"), null, 302_000L, List.of("p-1", "p-2")));

    /** Version 5: the target's own counters, a reading and a failed one. */
    static final List<ControlEvent> EVENTS_V5 = List.of(
            new ServerCounters("run-5", 2_000, "p-1", 3, "mariadb-local",
                    Map.of("Threads_running", 17L, "Innodb_buffer_pool_pages_dirty", 8_113L,
                            "state.Waiting for global read lock", 16L),
                    Map.of("Innodb_os_log_written", 9_876_543_210L, "Innodb_row_lock_waits", 42L), 1_850, null),
            new ServerCounters("run-5", 3_000, "p-1", 3, "mariadb-local", null, null, 2_000_115,
                    "Connection is not available, request timed out after 2000ms"));

    /** Version 6: a workload's checks of the data after a step, one not holding, and checks that could not run. */
    static final List<ControlEvent> EVENTS_V6 = List.of(
            new DataChecked("run-6", 4_000, "p-1", 3, "mariadb-local", "tpcc", List.of(
                    new DataChecked.Check("consistency_1", true, null),
                    new DataChecked.Check("consistency_2", false, "2 districts, first (1, 4): d_next_o_id - 1 = 3001,"
                            + " max(o_id) = 3002, max(no_o_id) = 3002")), 812_000, null),
            new DataChecked("run-6", 5_000, "p-1", 4, "mariadb-local", "tpcc", null, 3_115,
                    "Table 'tpcc.district' doesn't exist"));

    @Test
    void goldenJson_v6_staysReadable() throws IOException {
        assertGolden("/golden/control-events-v6.jsonl", EVENTS_V6);
        DataChecked checked = (DataChecked) EVENTS_V6.get(0);
        assertThat(checked.allHeld()).isFalse();
        assertThat(checked.stepIdOrNull()).isEqualTo(3);
        assertThat(((DataChecked) EVENTS_V6.get(1)).checks()).isEmpty();
        assertThat(((DataChecked) EVENTS_V6.get(1)).allHeld()).isFalse();
    }

    @Test
    void goldenJson_v5_staysReadable_withCountersSortedByName() throws IOException {
        assertGolden("/golden/control-events-v5.jsonl", EVENTS_V5);
        ServerCounters reading = (ServerCounters) EVENTS_V5.get(0);
        assertThat(reading.gauges().keySet()).containsExactly("Innodb_buffer_pool_pages_dirty", "Threads_running",
                "state.Waiting for global read lock");
        assertThat(reading.stepIdOrNull()).isEqualTo(3);
        assertThat(((ServerCounters) EVENTS_V5.get(1)).gauges()).isEmpty();
    }

    @Test
    void goldenJson_v4_staysReadable() throws IOException {
        assertGolden("/golden/control-events-v4.jsonl", EVENTS_V4);
        assertThat(Json.writeString(EVENTS_V3.get(0))).doesNotContain("participants", "startAtEpochMs");
    }

    @Test
    void goldenJson_v3_staysReadable() throws IOException {
        assertGolden("/golden/control-events-v3.jsonl", EVENTS_V3);
    }

    @Test
    void v3StepEnded_measuredSecondsIsTheExactSpan_andOlderEventsHaveNone() {
        assertThat(((StepEnded) EVENTS_V3.get(2)).measuredSeconds()).isEqualTo(20.00025);
        assertThat(((StepEnded) EVENTS_V2.get(0)).measuredSeconds()).isNull();
        assertThat(((StepEnded) EVENTS_V3.get(2)).completed()).isFalse();
        assertThat(((StepEnded) EVENTS_V2.get(0)).completed()).isTrue();
    }

    @Test
    void goldenJson_v2_staysReadable() throws IOException {
        assertGolden("/golden/control-events-v2.jsonl", EVENTS_V2);
    }

    /** Each line of the golden file reads to its event, and the event writes to exactly that line. */
    private static void assertGolden(String resource, List<ControlEvent> events) throws IOException {
        String[] lines = resource(resource).split("\n");
        assertThat(lines).hasSameSizeAs(events);
        for (int i = 0; i < lines.length; i++) {
            assertThat(Json.read(lines[i], ControlEvent.class)).isEqualTo(events.get(i));
            assertThat(Json.writeString(events.get(i))).isEqualTo(version1Settings(lines[i], events.get(i)));
        }
    }

    /**
     * The line as the event writes it now: a run_started's version-1 settings (strings by key) read into typed
     * settings of version 1 ({@link RunSettingsJsonTest}) and are written typed; every other field as it was.
     */
    private static String version1Settings(String line, ControlEvent event) {
        if (!(event instanceof RunStarted started) || started.settings().version() != 1) {
            return line;
        }
        return line.substring(0, line.indexOf(",\"settings\":")) + ",\"settings\":"
                + Json.writeString(started.settings()) + "}";
    }

    @Test
    void v1Events_readWithTheNewFieldsUnset_andWriteWithoutThem() {
        StepEnded v1 = (StepEnded) EVENTS.get(3);
        assertThat(v1.clientBound()).isNull();
        assertThat(v1.blocksSpooled()).isNull();
        assertThat(v1.controlEventsSpooled()).isNull();
        assertThat(v1.maxSpoolBytes()).isNull();
        assertThat(Json.writeString(v1)).doesNotContain("clientBound", "Spool");
        RunEnded run = (RunEnded) EVENTS.get(4);
        assertThat(run.clientBound()).isNull();
        assertThat(run.maxSpoolBytes()).isNull();
    }

    @Test
    void everyEventType_roundTripsThroughJsonAsControlEvent() {
        for (ControlEvent e : EVENTS_V2) {
            assertThat(Json.read(Json.write(e), ControlEvent.class)).isEqualTo(e);
        }
        for (ControlEvent e : EVENTS) {
            ControlEvent back = Json.read(Json.write(e), ControlEvent.class);
            assertThat(back).isEqualTo(e);
        }
    }

    @Test
    void type_isTheJsonTypeName_andStepIdOrNull_theStepOfStepEvents() {
        for (ControlEvent e : EVENTS) {
            assertThat(Json.MAPPER.valueToTree(e).get("type").asText()).isEqualTo(e.type());
        }
        assertThat(EVENTS).extracting(ControlEvent::type)
                .containsExactly("run_started", "step_started", "client_health", "step_ended", "run_ended");
        assertThat(EVENTS).extracting(ControlEvent::stepIdOrNull).containsExactly(null, 3, 3, 3, null);
    }

    @Test
    void goldenJson_v1_staysReadable() throws IOException {
        assertGolden("/golden/control-events-v1.jsonl", EVENTS);
        assertThat(((RunStarted) EVENTS.get(0)).settings().threads()).containsExactly(8, 16);
    }

    @Test
    void costItems_roundTripInPlanOrder_andAbsentMeansNone() {
        java.util.LinkedHashMap<String, Double> items = new java.util.LinkedHashMap<>();
        items.put("storage", 1500.0);
        items.put("compute", 3200.0);
        items.put("operations", 902.0);
        TargetInfo t = new TargetInfo("polardb", "jdbc:mysql://db/sbtest", "MySQL", "8.0", Map.of(), 5602.0, "CNY",
                1, null, items);
        TargetInfo back = Json.read(Json.write(t), TargetInfo.class);
        assertThat(back).isEqualTo(t);
        assertThat(back.costItems().keySet()).containsExactly("storage", "compute", "operations");
        assertThat(Json.writeString(TARGET)).doesNotContain("costItems");
        assertThat(Json.read(Json.writeString(TARGET), TargetInfo.class).costItems()).isNull();
    }

    @Test
    void unknownFields_areIgnoredSoNewerProducersDoNotBreakOlderConsumers() {
        String json = "{\"type\":\"run_ended\",\"runId\":\"r\",\"atEpochMs\":5,\"producerId\":\"p\",\"blocksSent\":3,"
                + "\"samplesSent\":9,\"outcome\":\"completed\",\"someFutureField\":{\"x\":1}}";
        assertThat(Json.read(json, ControlEvent.class)).isEqualTo(new RunEnded("r", 5, "p", 3, 9, "completed"));
    }

    @Test
    void unknownType_isAClearError() {
        assertThatThrownBy(() -> Json.read("{\"type\":\"nope\",\"runId\":\"r\"}", ControlEvent.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a valid ControlEvent");
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = ControlEventJsonTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
