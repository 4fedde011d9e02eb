package io.tailstream.schemas.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code run_started} settings: version 2 typed, version 1 (strings by key, as producers wrote them before) read into
 * the same typed values. Golden files: {@code run-started-v2.json}, and {@code run-started-v1.jsonl}, two events as
 * the version-1 producer wrote them (a plan with a plateau, read-only endpoints, costs and captured variables; a plan
 * shared by three producers, open loop, with a transaction limit and ignored errors).
 */
class RunSettingsJsonTest {

    static final List<String> IGNORED = List.of("deadlock", "lock_wait_timeout");
    static final TargetInfo POLARDB = new TargetInfo("polardb",
            "jdbc:mysql://db.example:3306/sbtest?password=****&useSSL=true", null, null, Map.of(), 5602.0, "CNY", 2,
            "primary + 1 read-only node");
    static final TargetInfo H2 = new TargetInfo("h2-mem", "jdbc:h2:mem:golden;DB_CLOSE_DELAY=-1", null, null,
            Map.of(), null, null, null, null);

    /** The effective options of sysbench's OLTP workloads, in the order the workload reports them. */
    static Map<String, String> oltp(String tables, String tableSize, String pointSelects) {
        Map<String, String> m = new LinkedHashMap<>();
        String[] kv = {"tables", tables, "table_size", tableSize, "range_size", "100", "point_selects", pointSelects,
            "simple_ranges", "1", "sum_ranges", "1", "order_ranges", "1", "distinct_ranges", "1", "index_updates", "1",
            "non_index_updates", "1", "delete_inserts", "1", "range_selects", "on", "auto_inc", "on", "skip_trx",
            "off", "create_secondary", "on", "secondary", "off", "mysql_storage_engine", "innodb", "rand_type",
            "special", "rand_spec_iter", "12", "rand_spec_pct", "1", "rand_spec_res", "75", "rand_pareto_h", "0.2"};
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    static RunSettings.TargetSetting h2Target() {
        return new RunSettings.TargetSetting("jdbc:h2:mem:golden;DB_CLOSE_DELAY=-1", IGNORED, List.of(), "sa", null,
                null, null, null);
    }

    /** A closed-loop sweep over two targets and two workloads with a plateau stop. */
    static RunSettings sweep(int version) {
        Map<String, RunSettings.TargetSetting> targets = new LinkedHashMap<>();
        targets.put("polardb", new RunSettings.TargetSetting(
                "jdbc:mysql://db.example:3306/sbtest?password=****&useSSL=true", IGNORED,
                List.of("jdbc:mysql://ro1.example:3306/sbtest?password=****"), "bench", 5602.0, "CNY", 2,
                "primary + 1 read-only node"));
        targets.put("h2-mem", h2Target());
        Map<String, Map<String, String>> workloads = new LinkedHashMap<>();
        workloads.put("oltp_point_select", oltp("1", "500", "1"));
        workloads.put("oltp_read_write", oltp("2", "1000", "10"));
        return new RunSettings(version, List.of(8, 16, 32), 3, 5_000L, 20_000L, null, "closed", null,
                new RunSettings.PlateauSetting(7.5, 2), 70.0, 45_000L, 10, true, null, List.of("isolation", "rtt"),
                null, List.of("innodb_buffer_pool_size", "sync_binlog"), targets, workloads);
    }

    /** An open-loop run shared by three producers, threads split, ending after 100,000 transactions. */
    static RunSettings shared(int version) {
        return new RunSettings(version, List.of(4), 1, 0L, 10_000L, 100_000L, "open", 2000.0, null, 50.0, 10_000L, 0,
                false, IGNORED, List.of(), new RunSettings.ProducersSetting(3, true, 120_000L), null,
                Map.of("h2-mem", h2Target()), Map.of("oltp_point_select", oltp("1", "500", "1")));
    }

    static final RunStarted V2 = new RunStarted("run-v2", 1_767_000_000_000L, "client-1-4242", "golden.yaml",
            List.of(POLARDB, H2), Map.of("host", "client-1"), sweep(RunSettings.VERSION));

    @Test
    void goldenJson_v2_readsAndWritesExactly() throws IOException {
        String line = Golden.resource("/golden/run-started-v2.json").strip();
        assertThat(Json.read(line, ControlEvent.class)).isEqualTo(V2);
        assertThat(Json.writeString(V2)).isEqualTo(line);
        assertThat(line).doesNotContain("s3cret", "password\":", "\"pw\"");
    }

    @Test
    void goldenJson_v1_readsIntoTheTypedValues() throws IOException {
        String[] lines = Golden.resource("/golden/run-started-v1.jsonl").split("\n");
        assertThat(lines).hasSize(2);
        RunStarted sweep = (RunStarted) Json.read(lines[0], ControlEvent.class);
        assertThat(sweep.settings()).isEqualTo(sweep(1));
        assertThat(sweep.settings().plateau()).isEqualTo(new RunSettings.PlateauSetting(7.5, 2));
        assertThat(sweep.settings().targets().keySet()).containsExactly("h2-mem", "polardb");
        RunStarted shared = (RunStarted) Json.read(lines[1], ControlEvent.class);
        assertThat(shared.settings()).isEqualTo(shared(1));
        // read once, written typed: the archive's runs.settings of a version-1 event re-archived
        assertThat(Json.read(Json.writeString(shared), ControlEvent.class)).isEqualTo(shared);
        assertThat(Json.writeString(shared.settings())).startsWith("{\"version\":1,\"threads\":[4],");
    }

    @Test
    void v1_unknownAbsentOrUnreadableValues_readAsAbsent() {
        RunSettings s = RunSettings.fromVersion1(Map.of("plateau", "none", "transactions", "none", "rate", "none",
                "ignoredErrors", "product default", "threads", "[8, x]", "reconnectTimeout", "soon", "loop", "sideways",
                "block.samples", "1024", "producers", "three", "workload.w", "tables=8"));
        assertThat(s).isEqualTo(RunSettings.fromVersion1(Map.of()));
        assertThat(s.version()).isEqualTo(1);
        assertThat(RunSettings.fromVersion1(Map.of("plateau", "minGainPct=-1.0, patience=1")).plateau())
                .as("out of range is for the rule to judge").isEqualTo(new RunSettings.PlateauSetting(-1.0, 1));
        assertThat(RunSettings.fromVersion1(Map.of("plateau", " minGainPct = 5 , patience = 1 ")).plateau())
                .isEqualTo(new RunSettings.PlateauSetting(5, 1));
        assertThat(RunSettings.fromVersion1(null)).isEqualTo(RunSettings.NONE);
    }

    @Test
    void v1_listsReadAsTheReportReadThem() {
        assertThat(read("{\"accept\":\"[durability, isolation]\"}").accept())
                .containsExactly("durability", "isolation");
        assertThat(read("{\"accept\":\"[\\\"rtt\\\", 'warmup']\"}").accept()).containsExactly("rtt", "warmup");
        assertThat(read("{\"accept\":[\"errors\", \"\"]}").accept()).containsExactly("errors");
        assertThat(read("{\"accept\":\"[]\"}").accept()).isEmpty();
        assertThat(read("{\"threads\":\"8,16\"}").threads()).containsExactly(8, 16);
        assertThat(read("{\"clientCpuLimitPct\":70}").clientCpuLimitPct()).isEqualTo(70.0);
        assertThat(read("{\"clientCpuLimitPct\":\" 70.5 \"}").clientCpuLimitPct()).isEqualTo(70.5);
        assertThat(read("{\"target.a.b.url\":\"jdbc:x://u:secret@h/db\"}").targets().get("a.b").url())
                .isEqualTo("jdbc:x://u:****@h/db");
        assertThat(read("{\"target.a.readOnlyUrls\":\"[jdbc:mysql://h1,h2/db, jdbc:mysql://h3/db]\"}").targets()
                .get("a").readOnlyUrls()).containsExactly("jdbc:mysql://h1,h2/db", "jdbc:mysql://h3/db");
        assertThat(read("{\"workload.w\":\"{}\"}").workloads()).containsEntry("w", Map.of());
    }

    @Test
    void anyJsonReader_readsBothVersions_andRefusesWhatIsNotJson() {
        assertThat(read(Json.writeString(sweep(2)))).isEqualTo(sweep(2));
        assertThat(read("{\"version\":2,\"rounds\":3,\"someFutureField\":{\"x\":1}}").rounds()).isEqualTo(3);
        assertThat(read("{\"rounds\":\"3\"}").rounds()).isEqualTo(3);
        assertThat(read("{\"rounds\":\"3\"}").version()).isEqualTo(1);
        assertThatThrownBy(() -> read("{\"rounds\":")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a valid RunSettings");
    }

    @Test
    void targets_neverCarryASecret() {
        RunSettings.TargetSetting t = new RunSettings.TargetSetting("jdbc:mysql://h/db?password=pw", List.of(),
                List.of("jdbc:mysql://u:pw@ro/db"), "u", null, null, null, null);
        assertThat(Json.writeString(t)).doesNotContain("pw").contains("****");
    }

    private static RunSettings read(String json) {
        return Json.read(json, RunSettings.class);
    }
}
