package io.tailstream.producer.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tailstream.analysis.Plateau;
import io.tailstream.producer.RunPlan;
import io.tailstream.producer.group.ProducerGroup;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.schemas.block.SampleStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PlanFileTest {

    static final Function<String, String> ENV = Map.of("PRIMARY_PW", "pw-1", "CLOUD_PW", "pw-2", "PW", "x")::get;

    static final String MINIMAL = """
            targets:
              - name: db1
                url: jdbc:h2:mem:plan
            workloads:
              - name: oltp_point_select
            """;

    /** The plan the README shows is a valid plan, and means what the README says. */
    @Test
    void readmeExample_parses() throws java.io.IOException {
        String readme = java.nio.file.Files.readString(Path.of("../README.md"));
        int start = readme.indexOf("```yaml\nname: mariadb-vs-postgres");
        assertThat(start).as("the README's plan example").isNotNegative();
        String yaml = readme.substring(readme.indexOf('\n', start) + 1, readme.indexOf("```", start + 7));
        RunPlan plan = PlanFile.parse(yaml, "README.md", "readme", "run-1",
                Map.of("MARIADB_PW", "pw-1", "PG_PW", "pw-2")::get);
        assertThat(plan.planName()).isEqualTo("mariadb-vs-postgres");
        assertThat(plan.targets()).extracting(Target::name).containsExactly("mariadb", "postgres");
        assertThat(plan.targets()).extracting(Target::monthlyCost).containsExactly(900.0, 850.0);
        assertThat(plan.threads()).containsExactly(4, 16, 64);
        assertThat(plan.rounds()).isEqualTo(3);
        assertThat(plan.measure()).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void exampleInDocs_parsesToTheWholeEvaluation() {
        RunPlan plan = PlanFile.load(Path.of("../docs/plans/example.yaml"), "run-1", ENV);
        assertThat(plan.planName()).isEqualTo("mysql-vs-cloud");
        assertThat(plan.targets()).extracting(Target::name).containsExactly("mysql-8c32g", "cloud-8c32g");
        Target t = plan.targets().get(0);
        assertThat(t.jdbcUrl()).isEqualTo("jdbc:mysql://10.0.0.5:3306/sbtest");
        assertThat(t.user()).isEqualTo("sbtest");
        assertThat(t.password().get()).isEqualTo("pw-1");
        assertThat(plan.targets().get(1).password().get()).isEqualTo("pw-2");
        assertThat(t.monthlyCost()).isEqualTo(5160.0);
        assertThat(t.currency()).isEqualTo("CNY");
        assertThat(t.nodes()).isEqualTo(2);
        assertThat(t.notes()).isEqualTo("self-hosted, primary + replica, semi-sync");
        assertThat(t.costItems()).isNull();
        assertThat(plan.targets().get(1).costItems()).containsExactly(Map.entry("compute", 3200.0),
                Map.entry("storage", 1500.0), Map.entry("operations", 902.0));
        assertThat(plan.workloads()).containsExactly(
                new WorkloadSpec("oltp_point_select", Map.of("tables", "8", "table_size", "10000")),
                new WorkloadSpec("oltp_read_write", Map.of("tables", "8", "table_size", "10000")));
        assertThat(plan.threads()).containsExactly(1, 2, 4, 8, 16, 32, 64, 128, 256, 512);
        assertThat(plan.warmup()).isEqualTo(Duration.ofSeconds(60));
        assertThat(plan.measure()).isEqualTo(Duration.ofMinutes(5));
        assertThat(plan.rounds()).isEqualTo(3);
        assertThat(plan.plateau()).isEqualTo(new Plateau(5, 1));
        assertThat(plan.clientCpuLimitPct()).isEqualTo(50.0);
        assertThat(plan.intervalSeconds()).isEqualTo(10);
        assertThat(plan.prepare()).isFalse();
        assertThat(plan.ignoredErrors()).containsExactlyInAnyOrder(SampleStatus.DEADLOCK,
                SampleStatus.LOCK_WAIT_TIMEOUT);
        assertThat(plan.transactions()).isNull();
        assertThat(plan.rate()).isNull();
    }

    @Test
    void serverCounters_readByDefault_offWithTheKey() {
        assertThat(PlanFile.parse(MINIMAL, "p.yaml", "p", "r", ENV).serverCounters()).isTrue();
        assertThat(PlanFile.parse(MINIMAL + "serverCounters: false\n", "p.yaml", "p", "r", ENV).serverCounters())
                .isFalse();
        // a plan's other settings survive the command line's switch
        RunPlan off = PlanFile.parse(MINIMAL + "rounds: 3\n", "p.yaml", "p", "r", ENV).withServerCounters(false);
        assertThat(off.serverCounters()).isFalse();
        assertThat(off.rounds()).isEqualTo(3);
        assertThat(off.withRunId("r2").serverCounters()).isFalse();
    }

    @Test
    void liveView_offByDefault_readFromItsKeys(@org.junit.jupiter.api.io.TempDir Path dir)
            throws java.io.IOException {
        Path minimal = java.nio.file.Files.writeString(dir.resolve("m.yaml"), MINIMAL);
        assertThat(PlanFile.liveView(minimal)).isEqualTo(LiveView.OFF);
        String keys = "live: true\nliveHttp: 0.0.0.0:9464\nalertWebhook: https://hooks.example/soak\n";
        Path watched = java.nio.file.Files.writeString(dir.resolve("w.yaml"), MINIMAL + keys);
        assertThat(PlanFile.liveView(watched)).isEqualTo(new LiveView(true, "0.0.0.0:9464",
                java.net.URI.create("https://hooks.example/soak")));
        // the keys are the local pipeline's: the run itself is the same plan
        assertThat(PlanFile.parse(MINIMAL + keys, "p.yaml", "p", "r", ENV).toString())
                .isEqualTo(PlanFile.parse(MINIMAL, "p.yaml", "p", "r", ENV).toString());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "alertWebhook: ftp://hooks.example/x | 6:15 | alertWebhook | must be an http:// or https:// URL",
            "liveHttp: 9464                      | 6:11 | liveHttp     | must be HOST:PORT, was '9464'",
            "liveHttp: localhost:70000           | 6:11 | liveHttp     | port must be in 0..65535, was 70000",
            "live: sometimes                     | 6:7  | live         | sometimes"})
    void liveView_badValue_isLocated(String line, String where, String key, String message,
                                     @org.junit.jupiter.api.io.TempDir Path dir) throws java.io.IOException {
        Path file = java.nio.file.Files.writeString(dir.resolve("p.yaml"), MINIMAL + line + "\n");
        assertThatThrownBy(() -> PlanFile.liveView(file)).isInstanceOf(PlanException.class)
                .hasMessageContaining("p.yaml:" + where).hasMessageContaining(key).hasMessageContaining(message);
    }

    @Test
    void minimal_takesTheCommandLineDefaults_andTheFileNameAsPlanName() {
        RunPlan plan = PlanFile.parse(MINIMAL, "eval.yaml", "eval", "r", ENV);
        assertThat(plan.planName()).isEqualTo("eval");
        assertThat(plan.threads()).containsExactly(8);
        assertThat(plan.warmup()).isEqualTo(Duration.ofSeconds(10));
        assertThat(plan.measure()).isEqualTo(Duration.ofSeconds(60));
        assertThat(plan.rounds()).isEqualTo(1);
        assertThat(plan.plateau()).isNull();
        assertThat(plan.targets().get(0).password().get()).isNull();
        assertThat(plan.reconnectTimeout()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void producers_countAlone_orWithThreadsModeAndJoinTimeout() {
        assertThat(PlanFile.parse(MINIMAL, "p.yaml", "p", "r", ENV).producers()).isEqualTo(ProducerGroup.ALONE);
        assertThat(PlanFile.parse(MINIMAL + "producers: 3\n", "p.yaml", "p", "r", ENV).producers())
                .isEqualTo(new ProducerGroup(3, true, ProducerGroup.DEFAULT_JOIN_TIMEOUT));
        assertThat(PlanFile.parse(MINIMAL + "producers:\n  count: 2\n  threads: each\n  joinTimeout: 90s\n",
                "p.yaml", "p", "r", ENV).producers()).isEqualTo(new ProducerGroup(2, false, Duration.ofSeconds(90)));
    }

    @Test
    void producers_badValues_nameTheField() {
        assertThatThrownBy(() -> PlanFile.parse(MINIMAL + "producers:\n  count: 2\n  threads: half\n", "p.yaml",
                "p", "r", ENV)).hasMessageContaining("p.yaml:8:12").hasMessageContaining("producers.threads")
                .hasMessageContaining("'split'");
        assertThatThrownBy(() -> PlanFile.parse(MINIMAL + "producers: 0\n", "p.yaml", "p", "r", ENV))
                .hasMessageContaining("producers").hasMessageContaining("must be in 1..256, was 0");
        assertThatThrownBy(() -> PlanFile.parse(MINIMAL + "producers:\n  threads: each\n", "p.yaml", "p", "r",
                ENV)).hasMessageContaining("producers").hasMessageContaining("count");
    }

    @Test
    void producers_refuseAServerTargetsPrepare_andAPlateau() {
        String server = MINIMAL.replace("jdbc:h2:mem:plan", "jdbc:mysql://127.0.0.1:3306/sbtest");
        assertThatThrownBy(() -> PlanFile.parse(server + "producers: 2\nprepare: true\n", "p.yaml", "p", "r", ENV))
                .hasMessageContaining("prepare cannot be combined with producers > 1 on target 'db1'");
        assertThat(PlanFile.parse(server + "producers: 2\n", "p.yaml", "p", "r", ENV).producers().count())
                .isEqualTo(2);
        // an embedded target is each producer's own database
        assertThat(PlanFile.parse(MINIMAL + "producers: 2\nprepare: true\n", "p.yaml", "p", "r", ENV).prepare())
                .isTrue();
        assertThatThrownBy(() -> PlanFile.parse(MINIMAL + "producers: 2\nplateau:\n  minGainPct: 5\n", "p.yaml",
                "p", "r", ENV)).hasMessageContaining("plateau cannot be combined with producers > 1");
    }

    @Test
    void reconnectTimeout_isADuration() {
        assertThat(PlanFile.parse(MINIMAL + "reconnectTimeout: 90s\n", "p.yaml", "p", "r", ENV).reconnectTimeout())
                .isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void openLoopAndTransactionLimit_andThreadListForms() {
        RunPlan plan = PlanFile.parse(MINIMAL + "threads: [1, 4, 16]\nrate: 2500.5\ntransactions: 100000\n",
                "p.yaml", "p", "r", ENV);
        assertThat(plan.threads()).containsExactly(1, 4, 16);
        assertThat(plan.rate()).isEqualTo(2500.5);
        assertThat(plan.transactions()).isEqualTo(100_000L);
        assertThat(PlanFile.parse(MINIMAL + "threads: 32\n", "p.yaml", "p", "r", ENV).threads()).containsExactly(32);
        assertThat(PlanFile.parse(MINIMAL + "threads: \"8,16\"\n", "p.yaml", "p", "r", ENV).threads())
                .containsExactly(8, 16);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            // extra yaml | line | field | message fragment
            "threads: exp:4..2|6|threads|'exp:4..2': need 1 <= from <= to <= 4096",
            "threads: [8, 4]|6|threads|'[8, 4]': thread counts must increase",
            "warmup: 10x|6|warmup|'10x' is not a duration",
            "duration: 0s|6|duration|must be > 0, was '0s'",
            "rounds: 0|6|rounds|must be in 1..1000, was 0",
            "rounds: two|6|rounds|",
            "rate: -5|6|rate|must be > 0 transactions/s, was -5.0",
            "transactions: 0|6|transactions|must be >= 1, was 0",
            "clientCpuLimitPct: 150|6|clientCpuLimitPct|must be in (0, 100], was 150.0",
            "reconnectTimeout: 0s|6|reconnectTimeout|must be > 0, was '0s'",
            "speed: fast|6|speed|unknown key 'speed'",
            "ignoreErrors: [deadlock, oops]|6|ignoreErrors|'oops' is not an error class",
            "accept: [isolation, speed]|6|accept[1]|'speed' is not a verdict check (one of [clientBound, durability,"
                    + " isolation, warmup, errors, dataSize, rtt])",
            "accept: [isolation, isolation]|6|accept|'isolation' is listed twice",
            "accept: isolation|6|accept|",
            "plateau: {minGainPct: -1}|6|plateau|plateau minGainPct must be in 0..100000, was -1.0",
            "plateau: {minGainPct: 5, patience: 0}|6|plateau.patience|plateau patience must be in 1..100, was 0",
            "plateau: {minGainPct: 5, minGain: 5}|6|plateau.minGain|unknown key 'minGain'",
    })
    void badRootValue_errorNamesFileLineFieldAndValue(String extra, int line, String field, String fragment) {
        assertThatThrownBy(() -> PlanFile.parse(MINIMAL + extra + "\n", "eval.yaml", "eval", "r", ENV))
                .isInstanceOf(PlanException.class)
                .hasMessageStartingWith("eval.yaml:" + line + ":")
                .hasMessageContaining(": " + field + ": " + (fragment == null ? "" : fragment))
                .asInstanceOf(InstanceOfAssertFactories.type(PlanException.class))
                .satisfies(e -> {
                    assertThat(e.line()).isEqualTo(line);
                    assertThat(e.field()).isEqualTo(field);
                });
    }

    /**
     * A value of the wrong shape (a scalar where an entry belongs) gets Jackson's message, which names the entry's
     * type: by its own name, never with the package of the classes the plan file is bound to.
     */
    @Test
    void wrongShape_errorNamesTheEntryTypeWithoutItsPackage() {
        Map<String, String> typeByYaml = Map.of(
                MINIMAL + "plateau: 5\n", "PlateauEntry",
                MINIMAL + "producers: abc\n", "ProducersEntry",
                MINIMAL + "accept: [{a: 1}]\n", "CheckEntry",
                "targets: [db1]\nworkloads: [{name: oltp_point_select}]\n", "TargetEntry",
                "targets: [{name: db1, endpoints: x}]\nworkloads: [{name: oltp_point_select}]\n", "EndpointsEntry",
                "targets: [{name: db1, url: 'jdbc:h2:mem:plan'}]\nworkloads: [oltp]\n", "WorkloadEntry",
                "- a\n", "Root");
        typeByYaml.forEach((yaml, type) -> assertThatThrownBy(() -> PlanFile.parse(yaml, "s.yaml", "s", "r", ENV))
                .as(yaml)
                .isInstanceOf(PlanException.class)
                .hasMessageContaining("`" + type + "`")
                .message().doesNotContain("io.tailstream"));
    }

    @Test
    void accept_waivesChecks_sortedOnce_absentMeansNone() {
        RunPlan plan = PlanFile.parse(MINIMAL + "accept: [isolation, durability]\n", "a.yaml", "a", "r", ENV);
        assertThat(plan.accept()).containsExactly("durability", "isolation");
        assertThat(PlanFile.parse(MINIMAL, "a.yaml", "a", "r", ENV).accept()).isEmpty();
        assertThat(PlanFile.parse(MINIMAL + "accept: []\n", "a.yaml", "a", "r", ENV).accept()).isEmpty();
    }

    @Test
    void accept_badCheck_namesFileLineAndColumn() {
        String yaml = MINIMAL + "threads: 4\naccept:\n  - rtt\n  - durabilty\n";
        assertThatThrownBy(() -> PlanFile.parse(yaml, "a.yaml", "a", "r", ENV))
                .isInstanceOf(PlanException.class)
                .hasMessage("a.yaml:9:5: accept[1]: 'durabilty' is not a verdict check (one of [clientBound,"
                        + " durability, isolation, warmup, errors, dataSize, rtt])");
    }

    @Test
    void badTargetValue_pointsAtItsLine() {
        String yaml = """
                targets:
                  - name: db1
                    url: jdbc:h2:mem:a
                  - name: db2
                    url: jdbc:h2:mem:b
                    monthlyCost: -3
                workloads:
                  - name: oltp_point_select
                """;
        assertThatThrownBy(() -> PlanFile.parse(yaml, "e.yaml", "e", "r", ENV))
                .hasMessage("e.yaml:6:18: targets[1].monthlyCost: must be >= 0, was -3.0");
    }

    @Test
    void costItems_giveTheMonthlyCostWhenAlone_andMustSumToItWhenBothAreGiven() {
        String yaml = """
                targets:
                  - name: essd
                    url: jdbc:h2:mem:a
                    costItems: {compute: 3200, storage: 1500, operations: 902}
                    currency: CNY
                  - name: nvme
                    url: jdbc:h2:mem:b
                    monthlyCost: 4100
                    costItems: {compute: 3600, storage: 500}
                workloads:
                  - name: oltp_point_select
                """;
        var plan = PlanFile.parse(yaml, "c.yaml", "c", "r", ENV);
        Target essd = plan.targets().get(0);
        assertThat(essd.monthlyCost()).isEqualTo(5602.0);
        assertThat(essd.currency()).isEqualTo("CNY");
        assertThat(essd.costItems()).containsExactly(Map.entry("compute", 3200.0), Map.entry("storage", 1500.0),
                Map.entry("operations", 902.0));
        assertThat(plan.targets().get(1).costItems()).containsExactly(Map.entry("compute", 3600.0),
                Map.entry("storage", 500.0));
        assertThat(plan.targets().get(1).monthlyCost()).isEqualTo(4100.0);

        String mismatch = yaml.replace("monthlyCost: 4100", "monthlyCost: 4200");
        assertThatThrownBy(() -> PlanFile.parse(mismatch, "c.yaml", "c", "r", ENV))
                .hasMessage("c.yaml:6:5: targets[1].costItems: monthlyCost 4200.0 is not the sum of costItems"
                        + " {compute=3600.0, storage=500.0} = 4100.0");
        String negative = yaml.replace("storage: 500}", "storage: -5}");
        assertThatThrownBy(() -> PlanFile.parse(negative, "c.yaml", "c", "r", ENV))
                .hasMessageStartingWith("c.yaml:9:")
                .hasMessageContaining("targets[1].costItems: item 'storage' must be a number >= 0, was -5.0");
    }

    @Test
    void workloadExpectation_travelsAsReservedOption_andBadOnesAreErrors() {
        String yaml = """
                targets:
                  - name: db
                    url: jdbc:h2:mem:a
                workloads:
                  - name: oltp_read_only
                    options: {tables: 2}
                    expect: {dataLargerThanBufferPool: true}
                  - name: oltp_point_select
                """;
        var plan = PlanFile.parse(yaml, "x.yaml", "x", "r", ENV);
        WorkloadSpec ro = plan.workloads().get(0);
        assertThat(ro.options()).containsEntry("expect.dataLargerThanBufferPool", "true");
        assertThat(ro.expectsDataLargerThanBufferPool()).isTrue();
        assertThat(ro.workloadOptions()).containsExactly(Map.entry("tables", "2"));
        assertThat(plan.workloads().get(1).expectsDataLargerThanBufferPool()).isFalse();
        assertThatThrownBy(() -> PlanFile.parse(yaml.replace("dataLargerThanBufferPool: true", "dataFits: true"),
                "x.yaml", "x", "r", ENV))
                .hasMessageStartingWith("x.yaml:7:")
                .hasMessageContaining("workloads[0].expect: unknown expectation 'dataFits'");
        assertThatThrownBy(() -> PlanFile.parse(yaml.replace("BufferPool: true", "BufferPool: yes please"),
                "x.yaml", "x", "r", ENV))
                .hasMessageContaining("workloads[0].expect: expectation 'dataLargerThanBufferPool' must be true or"
                        + " false, was yes please");
        assertThatThrownBy(() -> PlanFile.parse(yaml.replace("{tables: 2}", "{tables: 2, expect.x: 1}"),
                "x.yaml", "x", "r", ENV))
                .hasMessageContaining("workloads[0]: unknown expectation 'expect.x'");
    }

    @Test
    void unknownTargetKey_isAnError() {
        String yaml = MINIMAL.replace("url: jdbc:h2:mem:plan", "url: jdbc:h2:mem:plan\n    password: secret");
        assertThatThrownBy(() -> PlanFile.parse(yaml, "e.yaml", "e", "r", ENV))
                .hasMessageStartingWith("e.yaml:4:")
                .hasMessageContaining("targets[0].password: unknown key 'password'")
                .hasMessageNotContaining("secret");
    }

    @Test
    void missingUrl_namesTheTargetEntry() {
        String yaml = MINIMAL.replace("    url: jdbc:h2:mem:plan\n", "");
        assertThatThrownBy(() -> PlanFile.parse(yaml, "e.yaml", "e", "r", ENV))
                .isInstanceOf(PlanException.class)
                .hasMessage("e.yaml:2:5: targets[0]: target 'db1' needs either url or endpoints: {primary: URL,"
                        + " readOnly: [URL, ...]}");
    }

    static final String ENDPOINTS = """
            targets:
              - name: two-nodes
                endpoints:
                  primary: jdbc:h2:mem:ep-primary
                  readOnly: [jdbc:h2:mem:ep-replica1, jdbc:h2:mem:ep-replica2]
                user: sa
              - name: single
                url: jdbc:h2:mem:ep-single
            workloads:
              - name: oltp_point_select
            """;

    @Test
    void endpoints_givePrimaryAndReadOnlyUrls_andNodesDefaultToTheirCount() {
        RunPlan plan = PlanFile.parse(ENDPOINTS, "e.yaml", "e", "r", ENV);
        Target t = plan.targets().get(0);
        assertThat(t.jdbcUrl()).isEqualTo("jdbc:h2:mem:ep-primary");
        assertThat(t.readOnlyUrls()).containsExactly("jdbc:h2:mem:ep-replica1", "jdbc:h2:mem:ep-replica2");
        assertThat(t.nodes()).isEqualTo(3);
        assertThat(t.user()).isEqualTo("sa");
        Target single = plan.targets().get(1);
        assertThat(single.readOnlyUrls()).isEmpty();
        assertThat(single.nodes()).isNull();
        // an endpoint may front several nodes: more nodes than endpoints is fine
        RunPlan more = PlanFile.parse(ENDPOINTS.replace("    user: sa", "    user: sa\n    nodes: 5"), "e.yaml", "e",
                "r", ENV);
        assertThat(more.targets().get(0).nodes()).isEqualTo(5);
        // only a primary: a single endpoint written the long way
        RunPlan primaryOnly = PlanFile.parse(ENDPOINTS.replace(
                "      readOnly: [jdbc:h2:mem:ep-replica1, jdbc:h2:mem:ep-replica2]\n", ""), "e.yaml", "e", "r", ENV);
        assertThat(primaryOnly.targets().get(0).readOnlyUrls()).isEmpty();
        assertThat(primaryOnly.targets().get(0).nodes()).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            // replace | with | expected message
            "    user: sa|    user: sa\\n    nodes: 2|e.yaml:2:5: targets[0].nodes: target 'two-nodes' has 3 endpoints"
                    + " but nodes is 2 (nodes must be >= the endpoints)",
            "    user: sa|    user: sa\\n    url: jdbc:h2:mem:x|e.yaml:2:5: targets[0]: target 'two-nodes' needs either"
                    + " url or endpoints: {primary: URL, readOnly: [URL, ...]}, not both",
            "jdbc:h2:mem:ep-replica2]|mysql://ep-replica2]|e.yaml:5:62: targets[0].endpoints.readOnly: readOnly must"
                    + " start with 'jdbc:', was 'mysql://ep-replica2'",
            "jdbc:h2:mem:ep-replica2]|jdbc:h2:mem:ep-replica1]|e.yaml:5:66: targets[0].endpoints.readOnly: endpoint"
                    + " 'jdbc:h2:mem:ep-replica1' is listed twice",
            "jdbc:h2:mem:ep-replica2]|jdbc:h2:mem:ep-primary]|e.yaml:4:7: targets[0].endpoints: target two-nodes:"
                    + " endpoint jdbc:h2:mem:ep-primary appears twice",
            "'      primary: jdbc:h2:mem:ep-primary\\n'|''|e.yaml:4:7: targets[0].endpoints.primary: the primary"
                    + " endpoint's JDBC URL is required",
            "readOnly: [jdbc:h2:mem:ep-replica1, jdbc:h2:mem:ep-replica2]|readOnly: []|e.yaml:5:18:"
                    + " targets[0].endpoints.readOnly: must list at least one JDBC URL (leave readOnly out for a single"
                    + " endpoint)",
            "jdbc:h2:mem:ep-replica2]|jdbc:mysql://replica:3306/sbtest]|e.yaml:4:7: targets[0].endpoints: target"
                    + " two-nodes: read-only endpoint jdbc:mysql://replica:3306/sbtest is not the same product as the"
                    + " primary jdbc:h2:mem:ep-primary",
            "primary: jdbc:h2:mem:ep-primary|primary: h2:mem|e.yaml:4:16: targets[0].endpoints.primary: primary must"
                    + " start with 'jdbc:', was 'h2:mem'",
            "primary: jdbc:h2:mem:ep-primary|master: jdbc:h2:mem:ep-primary|e.yaml:4:37: targets[0].endpoints.master:"
                    + " unknown key 'master' (known keys: [primary, readOnly])",
    })
    void badEndpoints_errorNamesFileLineFieldAndValue(String from, String to, String message) {
        String yaml = ENDPOINTS.replace(from.replace("\\n", "\n"), to.replace("\\n", "\n"));
        assertThatThrownBy(() -> PlanFile.parse(yaml, "e.yaml", "e", "r", ENV))
                .isInstanceOf(PlanException.class)
                .hasMessage(message);
    }

    @Test
    void unsetPasswordVariable_namesTargetLineAndVariable() {
        String yaml = MINIMAL.replace("url: jdbc:h2:mem:plan", "url: jdbc:h2:mem:plan\n    passwordEnv: NOPE_PW");
        assertThatThrownBy(() -> PlanFile.parse(yaml, "e.yaml", "e", "r", ENV))
                .hasMessage("e.yaml:2:5: targets[0].passwordEnv: the environment variable 'NOPE_PW' (password of"
                        + " target 'db1') is not set");
    }

    @Test
    void badWorkloadOption_namesTheWorkloadEntry() {
        String yaml = MINIMAL + "  - name: oltp_read_write\n    options: {tables: 0}\n";
        assertThatThrownBy(() -> PlanFile.parse(yaml, "e.yaml", "e", "r", ENV))
                .isInstanceOf(PlanException.class)
                .hasMessageStartingWith("e.yaml:6:5: workloads[1]: ")
                .hasMessageContaining("tables");
        String unknown = MINIMAL.replace("oltp_point_select", "oltp_nonsense");
        assertThatThrownBy(() -> PlanFile.parse(unknown, "e.yaml", "e", "r", ENV))
                .hasMessageStartingWith("e.yaml:5:5: workloads[0]: ")
                .hasMessageContaining("oltp_nonsense");
    }

    @Test
    void duplicateTargetName_isAnError() {
        String yaml = MINIMAL.replace("workloads:", "  - name: db1\n    url: jdbc:h2:mem:other\nworkloads:");
        assertThatThrownBy(() -> PlanFile.parse(yaml, "e.yaml", "e", "r", ENV))
                .hasMessage("e.yaml:4:5: targets[1].name: target name 'db1' appears twice");
    }

    @Test
    void syntaxErrorAndEmptyAndMissingFile_areNamed() {
        assertThatThrownBy(() -> PlanFile.parse("targets: [\n", "e.yaml", "e", "r", ENV))
                .isInstanceOf(PlanException.class)
                .hasMessageStartingWith("e.yaml:");
        assertThatThrownBy(() -> PlanFile.parse("# nothing\n", "e.yaml", "e", "r", ENV))
                .hasMessageContaining("e.yaml: the file is empty");
        assertThatThrownBy(() -> PlanFile.load(Path.of("no/such/plan.yaml"), "r", ENV))
                .hasMessage("no/such/plan.yaml: no such file");
        assertThatThrownBy(() -> PlanFile.parse("targets: []\nworkloads: []\n", "e.yaml", "e", "r", ENV))
                .hasMessageContaining("at least one target is needed");
    }

    @Test
    void passwordIsNeverPartOfThePlansText() {
        RunPlan plan = PlanFile.load(Path.of("../docs/plans/example.yaml"), "run-1", ENV);
        assertThat(plan.toString()).doesNotContain("pw-1", "pw-2");
        assertThat(Set.copyOf(plan.targets().stream().map(Target::toString).toList()).toString())
                .doesNotContain("pw-1");
        assertThat(List.of(plan.threads())).isNotEmpty();
    }
}
