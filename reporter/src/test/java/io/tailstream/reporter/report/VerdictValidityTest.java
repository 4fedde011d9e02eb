package io.tailstream.reporter.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.reporter.report.Environment.TargetEnv;
import io.tailstream.reporter.report.Evidence.Probe;
import io.tailstream.reporter.report.Evidence.CheckSettings;
import io.tailstream.reporter.report.Evidence.StepData;
import io.tailstream.reporter.report.Verdict.Reason;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The validity checks behind a verdict on exact, hand-made evidence: two targets ({@code a} clearly faster), two
 * rounds each at 8 and 16 threads, every step valid unless a test changes it. Each test breaks one thing and checks
 * the verdict's status, the reason's check and figures, and that the checklist says the same.
 */
class VerdictValidityTest {

    static final String W = "oltp_read_write";

    /** A valid step of a target; {@code edit} changes it. */
    static StepData step(String target, int threads, int round, String product, Map<String, String> vars) {
        int id = (target.equals("a") ? 0 : 100) + threads + round;
        StepInfo info = new StepInfo("run-1", id, target, "jdbc:x", W, threads, round, 10_000, 60_000, "{}",
                "completed", 0, 1L);
        return new StepData(info, 500, 1000.0, 1010.0, 20.0, false, vars, product, StepData.LOAD_GEN, 10_000L,
                0L, new Probe(200, 300, 200, "prepared SELECT 1"));
    }

    static List<StepData> steps(Map<String, String> aVars, String aProduct, Map<String, String> bVars,
                                String bProduct) {
        List<StepData> out = new ArrayList<>();
        for (int threads : new int[] {8, 16}) {
            for (int round = 1; round <= 2; round++) {
                out.add(step("a", threads, round, aProduct, aVars));
                out.add(step("b", threads, round, bProduct, bVars));
            }
        }
        return out;
    }

    /** Same product, same settings on both sides. */
    static List<StepData> fair() {
        return steps(FairnessProfileTest.mariadb(), "MariaDB", FairnessProfileTest.mariadb(), "MariaDB");
    }

    static List<StepData> edit(List<StepData> steps, String target, int threads, int round,
                               UnaryOperator<StepData> change) {
        return steps.stream().map(s -> s.info().target().equals(target) && s.info().threads() == threads
                && s.info().round() == round ? change.apply(s) : s).toList();
    }

    static SummaryRow row(String target, int threads, double q1, double q2, double avgMs) {
        double qps = (q1 + q2) / 2;
        // 10 statements per transaction: transactions = statements / 10
        return new SummaryRow(target, W, threads, 2, (long) (qps * 120 / 10), 120, qps, qps / 10, avgMs, avgMs * 2,
                avgMs * 3,
                avgMs * 9, 0, null, null, List.of(q1, q2), List.of(avgMs * 3, avgMs * 3 + 0.01), null);
    }

    /** a: 2000 QPS at 16 threads, b: 1500; 10 statements per transaction, 5 ms mean transaction latency. */
    static WorkloadSummary workload() {
        List<SummaryRow> rows = List.of(row("a", 8, 1500, 1510, 5), row("a", 16, 1995, 2005, 5),
                row("b", 8, 1200, 1210, 6), row("b", 16, 1495, 1505, 6));
        List<Integer> levels = ReportAnalysis.threadLevels(rows);
        return new WorkloadSummary(W, rows, false, levels, ReportAnalysis.sweep(rows, levels), List.of(), 16);
    }

    static final Map<String, TargetEnv> TARGETS = new TreeMap<>(Map.of(
            "a", new TargetEnv("a", "x", "1", "jdbc:x/a", 1, null, null, null, null, List.of()),
            "b", new TargetEnv("b", "x", "1", "jdbc:x/b", 1, null, null, null, null, List.of())));

    static Evidence evidence(List<StepData> steps, String settingsJson) {
        return new Evidence(steps, Map.of("run-1", CheckSettings.of("run-1", settingsJson)));
    }

    static Map<String, Verdict> verdicts(Evidence e) {
        Map<String, Verdict> out = new HashMap<>();
        Verdicts.of(workload(), TARGETS, e).forEach(v -> out.put(v.metric(), v));
        return out;
    }

    static Check check(Evidence e, String id) {
        return Checklist.checks(e, List.of(workload())).stream().filter(c -> c.id().equals(id)).findFirst()
                .orElseThrow();
    }

    /** Every reason of every verdict is a finding of a flagged checklist item: they never disagree. */
    static void assertChecklistAgrees(Evidence e) {
        List<Check> checks = Checklist.checks(e, List.of(workload()));
        for (Verdict v : Verdicts.of(workload(), TARGETS, e)) {
            for (Reason r : v.reasons()) {
                if (r.check().equals(Verdict.NA)) {
                    continue;
                }
                assertThat(checks).as(v.metric() + " " + r).anySatisfy(c -> {
                    assertThat(c.status()).isEqualTo("flag");
                    assertThat(c.findings()).contains(r.text());
                });
            }
        }
    }

    @Test
    void fairEvidence_givesAWin_andEveryCheckPasses() {
        Evidence e = evidence(fair(), null);
        Map<String, Verdict> v = verdicts(e);
        assertThat(v.get("throughput").status()).isEqualTo("win");
        assertThat(v.get("throughput").winner()).isEqualTo("a");
        assertThat(v.get("throughput").interval().lowPct()).isPositive();
        assertThat(v.get("throughput").noisePct()).isNotNull();
        assertThat(v.get("p99").status()).isEqualTo("win");
        assertThat(v.get("cost").status()).isEqualTo("na");
        assertThat(v.values()).allSatisfy(x -> assertThat(x.waived()).isEmpty());
        for (String id : List.of("warmup", "warmupSettled", "clientCpu", "rtt", "durability", "isolation", "errors",
                "completed")) {
            assertThat(check(e, id).status()).as(id).isEqualTo("pass");
        }
        // equal probes: the two targets are still both named, with their medians and P99s
        assertThat(check(e, "rtt").findings()).containsExactly(Text.of("finding.rttOk", W, "a", "0.200", "0.300", "b",
                "0.200", "0.300", "1.00", "0.0", "5.000", "10.0"));
    }

    @Test
    void oneSideClientBound_noVerdict_namingTheStepAndFigure_checklistSaysTheSame() {
        Evidence e = evidence(edit(fair(), "b", 16, 2, s -> withCpu(s, 72.5, StepData.LOAD_GEN, false)), null);
        Map<String, Verdict> v = verdicts(e);
        for (String metric : List.of("throughput", "p99")) {
            Verdict x = v.get(metric);
            assertThat(x.status()).isEqualTo("none");
            assertThat(x.winner()).isNull();
            assertThat(x.failedChecks()).containsExactly("clientBound");
            assertThat(x.reasons().get(0).text()).isEqualTo(Text.of("finding.clientCpu",
                    "b · oltp_read_write · 16 thr · r2 (run-1#118)", "72.5", "50.0"));
        }
        assertThat(check(e, "clientCpu").status()).isEqualTo("flag");
        assertChecklistAgrees(e);
        // the same step at 8 threads does not touch P99, compared at 16: only throughput (every row) loses it
        Map<String, Verdict> at8 = verdicts(evidence(edit(fair(), "b", 8, 1,
                s -> withCpu(s, 72.5, StepData.LOAD_GEN, false)), null));
        assertThat(at8.get("throughput").status()).isEqualTo("none");
        assertThat(at8.get("p99").status()).isEqualTo("win");
    }

    @Test
    void clientBound_processFigureInOlderArchives_saidSo_producerFlagCounts_planLimitApplies() {
        Verdict process = verdicts(evidence(edit(fair(), "a", 8, 1, s -> withCpu(s, 61.0, StepData.PROCESS,
                false)), null)).get("throughput");
        assertThat(process.reasons().get(0).text().key()).isEqualTo("finding.clientCpuProcess");
        Verdict flagged = verdicts(evidence(edit(fair(), "a", 8, 1, s -> withCpu(s, 40.0, StepData.LOAD_GEN,
                true)), null)).get("throughput");
        assertThat(flagged.reasons().get(0).text()).isEqualTo(Text.of("finding.clientBoundFlag",
                "a · oltp_read_write · 8 thr · r1 (run-1#9)", "40.0", "50.0"));
        // the run's own limit (clientCpuLimitPct in its settings) is the one applied
        Evidence lenient = evidence(edit(fair(), "a", 8, 1, s -> withCpu(s, 72.5, StepData.LOAD_GEN, false)),
                "{\"clientCpuLimitPct\":\"80\"}");
        assertThat(verdicts(lenient).get("throughput").status()).isEqualTo("win");
        assertThat(check(lenient, "clientCpu").status()).isEqualTo("pass");
        assertThat(check(lenient, "clientCpu").findings()).containsExactly(Text.of("finding.clientCpuMax", "72.5",
                "a · oltp_read_write · 8 thr · r1 (run-1#9)"));
    }

    /**
     * An embedded database runs on the load generator's threads: its CPU is the database's, so no figure can say the
     * client was the bottleneck. Marked by the producer, or (older archives) recognised by an H2 URL without a server.
     */
    @Test
    void embeddedTargets_areNeverClientBound_theCheckSaysWhy() {
        Map<String, String> embedded = new java.util.TreeMap<>(FairnessProfileTest.h2());
        embedded.put(StepData.EMBEDDED, "true");
        List<StepData> busy = steps(embedded, "H2", embedded, "H2").stream()
                .map(s -> withCpu(s, 95.0, StepData.LOAD_GEN, true)).toList();
        Evidence e = evidence(busy, null);
        assertThat(verdicts(e).get("throughput").failedChecks()).doesNotContain("clientBound");
        assertThat(check(e, "clientCpu").status()).isEqualTo("na");
        assertThat(check(e, "clientCpu").findings()).containsExactly(Text.of("finding.clientCpuEmbedded"));
        assertChecklistAgrees(e);
        // an archive from before the mark: the H2 URL without a server says the same
        List<StepData> older = steps(FairnessProfileTest.h2(), "H2", FairnessProfileTest.h2(), "H2").stream()
                .map(s -> withCpu(new StepData(new StepInfo(s.info().runId(), s.info().stepId(), s.info().target(),
                        "jdbc:h2:mem:x", W, s.info().threads(), s.info().round(), 10_000, 60_000, "{}", "completed",
                        0, 1L), s.warmupSamples(), s.warmupTailQps(), s.measuredQps(), s.clientCpuPct(),
                        s.clientBound(), s.variables(), s.product(), s.cpuSource(), s.measuredSamples(),
                        s.measuredErrors(), s.probe()), 95.0, StepData.LOAD_GEN, true)).toList();
        assertThat(check(evidence(older, null), "clientCpu").status()).isEqualTo("na");
        // an H2 server over TCP is a server like any other: judged
        List<StepData> server = steps(FairnessProfileTest.h2(), "H2", FairnessProfileTest.h2(), "H2").stream()
                .map(s -> withCpu(new StepData(new StepInfo(s.info().runId(), s.info().stepId(), s.info().target(),
                        "jdbc:h2:tcp://db:9092/x", W, s.info().threads(), s.info().round(), 10_000, 60_000, "{}",
                        "completed", 0, 1L), s.warmupSamples(), s.warmupTailQps(), s.measuredQps(), s.clientCpuPct(),
                        s.clientBound(), s.variables(), s.product(), s.cpuSource(), s.measuredSamples(),
                        s.measuredErrors(), s.probe()), 95.0, StepData.LOAD_GEN, true)).toList();
        assertThat(check(evidence(server, null), "clientCpu").status()).isEqualTo("flag");
    }

    @Test
    void h2MemoryAgainstFile_durabilityDiffers_noVerdict() {
        Evidence e = evidence(steps(FairnessProfileTest.h2("tailstream.h2.storage=mem", "WRITE_DELAY="), "H2",
                FairnessProfileTest.h2(), "H2"), null);
        Verdict v = verdicts(e).get("throughput");
        assertThat(v.status()).isEqualTo("none");
        assertThat(v.failedChecks()).containsExactly("durability");
        assertThat(v.reasons()).extracting(r -> r.text()).containsExactly(
                Text.of("finding.durabilityDiffers", W, "a: no-memory (tailstream.h2.storage=mem);"
                        + " b: no-os (tailstream.h2.storage=file, WRITE_DELAY=0)"),
                Text.of("finding.tornPagesDiffers", W, "a: n/a (tailstream.h2.storage=mem);"
                        + " b: yes (tailstream.h2.storage=file)"));
        assertThat(check(e, "durability").status()).isEqualTo("flag");
        assertChecklistAgrees(e);
    }

    @Test
    void mariadbFlush2_againstPostgresqlDefault_durabilityDiffers_noVerdict() {
        Evidence e = evidence(steps(FairnessProfileTest.mariadb("innodb_flush_log_at_trx_commit=2",
                "tailstream.isolation=READ COMMITTED"), "MariaDB", FairnessProfileTest.postgresql(), "PostgreSQL"),
                null);
        Verdict v = verdicts(e).get("throughput");
        assertThat(v.status()).isEqualTo("none");
        assertThat(v.failedChecks()).containsExactly("durability");
        assertThat(v.reasons()).extracting(r -> r.text()).containsExactly(Text.of("finding.durabilityDiffers", W,
                "a: no-os (innodb_flush_log_at_trx_commit=2, innodb_flush_method=O_DIRECT, log_bin=OFF);"
                        + " b: yes (fsync=on, synchronous_commit=on, commit_delay=0)"));
        assertThat(check(e, "isolation").status()).isEqualTo("pass");
        assertChecklistAgrees(e);
    }

    @Test
    void mariadbDefault_againstPostgresqlDefault_sameDurability_isolationDiffers_unlessAccepted() {
        List<StepData> steps = steps(FairnessProfileTest.mariadb(), "MariaDB", FairnessProfileTest.postgresql(),
                "PostgreSQL");
        Evidence strict = evidence(steps, null);
        Verdict v = verdicts(strict).get("throughput");
        assertThat(v.status()).isEqualTo("none");
        assertThat(v.failedChecks()).containsExactly("isolation");
        assertThat(v.reasons().get(0).text()).isEqualTo(Text.of("finding.isolationDiffers", W,
                "a: REPEATABLE READ (tailstream.isolation=REPEATABLE READ); b: READ COMMITTED"
                        + " (tailstream.isolation=READ COMMITTED)"));
        assertThat(check(strict, "durability").status()).isEqualTo("pass");
        assertThat(check(strict, "isolation").status()).isEqualTo("flag");
        assertChecklistAgrees(strict);

        Evidence accepted = evidence(steps, "{\"accept\":\"[isolation]\"}");
        Verdict w = verdicts(accepted).get("throughput");
        assertThat(w.status()).isEqualTo("win");
        assertThat(w.winner()).isEqualTo("a");
        assertThat(w.reasons()).isEmpty();
        assertThat(w.waivedChecks()).containsExactly("isolation");
        assertThat(w.waived().get(0).text()).isEqualTo(v.reasons().get(0).text());
        Check c = check(accepted, "isolation");
        assertThat(c.status()).isEqualTo("flag"); // the data still differs; the finding says who waived it
        assertThat(c.findings()).contains(Text.of("finding.waived", "isolation", "run-1"));
    }

    @Test
    void sameIsolationNameAcrossProducts_countsAsDifferent() {
        Evidence e = evidence(steps(FairnessProfileTest.mariadb(), "MariaDB",
                FairnessProfileTest.postgresql("tailstream.isolation=REPEATABLE READ"), "PostgreSQL"), null);
        Verdict v = verdicts(e).get("throughput");
        assertThat(v.failedChecks()).containsExactly("isolation");
        // both READ COMMITTED: the same behaviour, so a verdict
        Evidence rc = evidence(steps(FairnessProfileTest.mariadb("tailstream.isolation=READ COMMITTED"), "MariaDB",
                FairnessProfileTest.postgresql(), "PostgreSQL"), null);
        assertThat(verdicts(rc).get("throughput").status()).isEqualTo("win");
    }

    @Test
    void unknownDurability_isNoVerdict_notEqual() {
        Evidence e = evidence(steps(FairnessProfileTest.mariadb("innodb_doublewrite="), "MariaDB",
                FairnessProfileTest.mariadb("innodb_doublewrite="), "MariaDB"), null);
        Verdict v = verdicts(e).get("throughput");
        assertThat(v.status()).isEqualTo("none");
        assertThat(v.reasons()).extracting(r -> r.text()).containsExactly(Text.of("finding.tornPagesUnknown", W,
                "a: unknown; b: unknown"));
        assertChecklistAgrees(e);
    }

    @Test
    void aTargetChangedBetweenRounds_durabilityDiffersWithinIt() {
        Evidence e = evidence(edit(fair(), "a", 16, 2, s -> withVars(s, FairnessProfileTest.mariadb(
                "innodb_flush_log_at_trx_commit=2"))), null);
        Verdict v = verdicts(e).get("throughput");
        assertThat(v.failedChecks()).containsExactly("durability");
        assertThat(v.reasons().get(0).text().args().get(1)).contains("a: yes (").contains(" / no-os (");
        assertChecklistAgrees(e);
        // changed at 8 threads only: throughput (every row) has no verdict, P99 at 16 threads still has one
        Evidence at8 = evidence(edit(fair(), "a", 8, 1, s -> withVars(s, FairnessProfileTest.mariadb(
                "innodb_flush_log_at_trx_commit=2"))), null);
        assertThat(verdicts(at8).get("throughput").failedChecks()).containsExactly("durability");
        assertThat(verdicts(at8).get("p99").status()).isEqualTo("win");
        assertThat(check(at8, "durability").status()).isEqualTo("flag");
        assertChecklistAgrees(at8);
    }

    @Test
    void warmupAbsentOrUnsettled_errorShare_failedStep_dataSize() {
        Verdict noWarmup = verdicts(evidence(edit(fair(), "a", 16, 1, s -> new StepData(s.info(), 0,
                s.warmupTailQps(), s.measuredQps(), s.clientCpuPct(), false, s.variables(), s.product(),
                s.cpuSource(), s.measuredSamples(), s.measuredErrors(), s.probe())), null)).get("p99");
        assertThat(noWarmup.failedChecks()).containsExactly("warmup");
        assertThat(noWarmup.reasons().get(0).text().key()).isEqualTo("finding.noWarmup");
        Verdict unsettled = verdicts(evidence(edit(fair(), "a", 16, 1, s -> new StepData(s.info(), 500, 800.0,
                1000.0, s.clientCpuPct(), false, s.variables(), s.product(), s.cpuSource(), s.measuredSamples(),
                s.measuredErrors(), s.probe())), null)).get("p99");
        assertThat(unsettled.reasons().get(0).text()).isEqualTo(Text.of("finding.warmupUnsettled",
                "a · oltp_read_write · 16 thr · r1 (run-1#17)", "800.0", "1000.0", "-20.0"));

        Evidence errors = evidence(edit(fair(), "b", 16, 1, s -> new StepData(s.info(), 500, 1000.0, 1010.0, 20.0,
                false, s.variables(), s.product(), s.cpuSource(), 10_000L, 101L, s.probe())), null);
        Verdict e = verdicts(errors).get("p99");
        assertThat(e.reasons()).extracting(Reason::check).containsExactly("errors");
        assertThat(e.reasons().get(0).text()).isEqualTo(Text.of("finding.stepErrors",
                "b · oltp_read_write · 16 thr · r1 (run-1#117)", "1.0", "101", "10000", "1.0"));
        // 1.01% is over the 1% limit although it prints as 1.0: every step completed does not pass it either
        assertThat(check(errors, "completed").status()).isEqualTo("flag");
        assertThat(check(errors, "completed").findings()).contains(e.reasons().get(0).text());
        assertChecklistAgrees(errors);

        StepInfo failedInfo = new StepInfo("run-1", 117, "b", "jdbc:x", W, 16, 1, 10_000, 60_000, "{}",
                "failed: duplicate_key (not ignored): SQLState 23505", 0, 1L);
        Evidence failed = evidence(edit(fair(), "b", 16, 1, s -> new StepData(failedInfo, 500, 1000.0, 1010.0,
                20.0, false, s.variables(), s.product(), s.cpuSource(), 10_000L, 0L, s.probe())),
                "{\"accept\":\"[completed, clientBound]\"}");
        Verdict f = verdicts(failed).get("p99");
        assertThat(f.status()).isEqualTo("none");
        assertThat(f.reasons().get(0)).isEqualTo(new Reason("completed", Text.of("finding.outcome",
                "b · oltp_read_write · 16 thr · r1 (run-1#117)", "failed: duplicate_key (not ignored): SQLState 23505")));
        assertThat(failed.runs().get("run-1").unknownAccept()).containsExactly("completed"); // cannot be waived

        Map<String, String> small = new HashMap<>(FairnessProfileTest.mariadb("tailstream.data_bytes=1048576"));
        StepInfo expecting = new StepInfo("run-1", 17, "a", "jdbc:x", W, 16, 1, 10_000, 60_000,
                "{\"expect.dataLargerThanBufferPool\":\"true\"}", "completed", 0, 1L);
        Evidence data = evidence(edit(fair(), "a", 16, 1, s -> new StepData(expecting, 500, 1000.0, 1010.0, 20.0,
                false, small, s.product(), s.cpuSource(), 10_000L, 0L, s.probe())), null);
        Verdict d = verdicts(data).get("p99");
        assertThat(d.failedChecks()).containsExactly("dataSize");
        assertThat(d.reasons().get(0).text()).isEqualTo(Text.of("finding.dataSize", "a · oltp_read_write",
                "1.0 MiB (1048576 B)", "128.0 MiB (134217728 B)"));
        assertChecklistAgrees(data);
    }

    @Test
    void rtt_flaggedOnlyWhenTheDifferenceCouldMatter() {
        // b's probe 4x a's: 200 vs 800 µs; 600 µs per statement x 10 statements = 6 ms over a's 5 ms transaction
        Evidence far = evidence(fair().stream().map(s -> s.info().target().equals("b")
                ? withProbe(s, new Probe(800, 1200, 200, "prepared SELECT 1")) : s).toList(), null);
        Verdict v = verdicts(far).get("throughput");
        assertThat(v.failedChecks()).containsExactly("rtt");
        assertThat(v.reasons().get(0).text()).isEqualTo(Text.of("finding.rtt", W, "a", "0.200", "0.300", "b",
                "0.800", "1.200", "4.00", "120.0", "5.000", "10.0"));
        assertChecklistAgrees(far);
        // the same ratio with 0.2 ms instead of 5 ms mean latency per statement... here a ratio of 1.4 never counts
        Evidence close = evidence(fair().stream().map(s -> s.info().target().equals("b")
                ? withProbe(s, new Probe(280, 300, 200, "prepared SELECT 1")) : s).toList(), null);
        assertThat(verdicts(close).get("throughput").status()).isEqualTo("win");
        assertThat(check(close, "rtt").status()).isEqualTo("pass");
        assertThat(check(close, "rtt").findings()).singleElement().satisfies(t -> {
            assertThat(t.key()).isEqualTo("finding.rttOk");
            assertThat(t.args()).containsExactly(W, "a", "0.200", "0.300", "b", "0.280", "0.300", "1.40", "16.0",
                    "5.000", "10.0");
        });
        // 2x apart, but 10 µs x 10 statements is 2% of a 5 ms transaction: does not matter
        Evidence small = evidence(fair().stream().map(s -> withProbe(s, new Probe(
                s.info().target().equals("b") ? 20 : 10, 30, 200, "prepared SELECT 1"))).toList(), null);
        assertThat(verdicts(small).get("throughput").status()).isEqualTo("win");
        // no probes in the archive: n/a, and no verdict is withheld for it
        Evidence none = evidence(fair().stream().map(s -> withProbe(s, null)).toList(), null);
        assertThat(check(none, "rtt").status()).isEqualTo("na");
        assertThat(verdicts(none).get("throughput").status()).isEqualTo("win");
    }

    @Test
    void reasons_listedInCheckOrder_everyOneOnce() {
        List<StepData> s = steps(FairnessProfileTest.h2("tailstream.h2.storage=mem", "WRITE_DELAY="), "H2",
                FairnessProfileTest.mariadb(), "MariaDB");
        s = edit(s, "a", 8, 1, x -> withCpu(x, 99.0, StepData.LOAD_GEN, true));
        Verdict v = verdicts(evidence(s, null)).get("throughput");
        assertThat(v.failedChecks()).containsExactly("clientBound", "durability", "isolation");
    }

    @Test
    void runSettings_acceptAsTheRunCarriesIt_unknownNamesKeptApart() {
        assertThat(CheckSettings.of("r", "{\"accept\":\"[durability, isolation]\"}").accept())
                .containsExactlyInAnyOrder("durability", "isolation");
        assertThat(CheckSettings.of("r", "{\"accept\":\"[\\\"rtt\\\", \\\"warmup\\\"]\"}").accept())
                .containsExactlyInAnyOrder("rtt", "warmup");
        assertThat(CheckSettings.of("r", "{\"accept\":[\"errors\"]}").accept()).containsExactly("errors");
        assertThat(CheckSettings.of("r", "{\"accept\":\"[]\"}").accept()).isEmpty();
        CheckSettings odd = CheckSettings.of("r", "{\"accept\":\"[isolation, everything]\",\"clientCpuLimitPct\":\"70.0\"}");
        assertThat(odd.accept()).containsExactly("isolation");
        assertThat(odd.unknownAccept()).containsExactly("everything");
        assertThat(odd.clientCpuLimitPct()).isEqualTo(70.0);
        assertThat(CheckSettings.of("r", null)).isEqualTo(CheckSettings.DEFAULT);
        assertThat(CheckSettings.DEFAULT.clientCpuLimitPct()).isEqualTo(50.0);
    }

    static StepData withCpu(StepData s, double cpu, String source, boolean flagged) {
        return new StepData(s.info(), s.warmupSamples(), s.warmupTailQps(), s.measuredQps(), cpu, flagged,
                s.variables(), s.product(), source, s.measuredSamples(), s.measuredErrors(), s.probe());
    }

    static StepData withVars(StepData s, Map<String, String> vars) {
        return new StepData(s.info(), s.warmupSamples(), s.warmupTailQps(), s.measuredQps(), s.clientCpuPct(),
                s.clientBound(), vars, s.product(), s.cpuSource(), s.measuredSamples(), s.measuredErrors(),
                s.probe());
    }

    static StepData withProbe(StepData s, Probe p) {
        return new StepData(s.info(), s.warmupSamples(), s.warmupTailQps(), s.measuredQps(), s.clientCpuPct(),
                s.clientBound(), s.variables(), s.product(), s.cpuSource(), s.measuredSamples(), s.measuredErrors(),
                p);
    }
}
