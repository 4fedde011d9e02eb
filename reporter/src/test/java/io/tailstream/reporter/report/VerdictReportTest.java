package io.tailstream.reporter.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.tailstream.reporter.TestArchives;
import io.tailstream.reporter.report.Environment.TargetFairness;
import io.tailstream.reporter.report.Verdict.Reason;
import io.tailstream.reporter.report.VerdictFixture.Step;
import io.tailstream.reporter.report.VerdictFixture.Target;
import io.tailstream.schemas.event.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Verdicts of whole reports on archives written by the pipeline's own writer: every status (win, tie, indicative,
 * no verdict with its reasons), the count at the top, the fairness profiles side by side and the same statuses and
 * reasons in html, md, json and csv. Figures a verdict depends on are recomputed from the fixture's samples.
 */
class VerdictReportTest {

    static final String W = "oltp_point_select";
    static final Target MARIADB = new Target("mariadb", "MariaDB", FairnessProfileTest.mariadb(), 100.0);
    static final Target MARIADB_B = new Target("mariadb-b", "MariaDB", FairnessProfileTest.mariadb(), 100.0);
    static final Target POSTGRES = new Target("postgres", "PostgreSQL", FairnessProfileTest.postgresql(), 100.0);

    @TempDir
    Path dir;

    private int archives;

    Path archive(VerdictFixture f) {
        Path a = dir.resolve("archive-" + archives++);
        TestArchives.write(a, f.records);
        return a;
    }

    static VerdictFixture run(Map<String, String> settings, List<Step> steps) {
        return new VerdictFixture("run-1", settings, steps, 1_767_000_000_000L);
    }

    /** Two rounds of each target at 4 threads: {@code a} at 1000 transactions/s, {@code b} at 700. */
    static List<Step> twoRounds(Target a, Target b) {
        return List.of(new Step(a, W, 4, 1, 1000, 900), new Step(b, W, 4, 1, 700, 1300),
                new Step(a, W, 4, 2, 1005, 900), new Step(b, W, 4, 2, 705, 1300));
    }

    static Map<String, Verdict> byMetric(ReportModel m) {
        Map<String, Verdict> out = new HashMap<>();
        m.verdicts().forEach(v -> out.put(v.metric(), v));
        return out;
    }

    static Check check(ReportModel m, String id) {
        return m.checklist().stream().filter(c -> c.id().equals(id)).findFirst().orElseThrow();
    }

    static TargetFairness fairness(ReportModel m, String target) {
        return m.environment().fairness().stream().filter(f -> f.target().equals(target)).findFirst().orElseThrow();
    }

    /** Every reason of every verdict is a finding of a flagged checklist item. */
    static void assertChecklistAgrees(ReportModel m) {
        for (Verdict v : m.verdicts()) {
            for (Reason r : v.reasons()) {
                if (!r.check().equals(Verdict.NA)) {
                    assertThat(m.checklist()).as(v.metric() + " " + r).anySatisfy(c -> {
                        assertThat(c.status()).isEqualTo("flag");
                        assertThat(c.findings()).contains(r.text());
                    });
                }
            }
        }
    }

    String render(Path archive, ReportFormat format) throws Exception {
        Path out = dir.resolve("report-" + archives + "." + format.name().toLowerCase());
        ReportGenerator.generate(archive, ReportOptions.allRuns(), format, out);
        return Files.readString(out);
    }

    @Test
    void mariadbAgainstPostgresqlDefaults_sameDurability_isolationDiffers_noVerdictUnlessAccepted() throws Exception {
        Path strict = archive(run(Map.of(), twoRounds(MARIADB, POSTGRES)));
        ReportModel m = ReportGenerator.load(strict, ReportOptions.allRuns());
        assertThat(m.verdicts()).hasSize(3).allSatisfy(v -> {
            assertThat(v.status()).isEqualTo("none");
            assertThat(v.winner()).isNull();
            assertThat(v.failedChecks()).containsExactly("isolation");
            assertThat(v.reasons()).extracting(Reason::text).containsExactly(Text.of("finding.isolationDiffers", W,
                    "mariadb: REPEATABLE READ (tailstream.isolation=REPEATABLE READ); postgres: READ COMMITTED"
                            + " (tailstream.isolation=READ COMMITTED)"));
        });
        // the profiles say why: same commit durability, different isolation behaviour
        assertThat(fairness(m, "mariadb").profile().durability().value()).isEqualTo("yes");
        assertThat(fairness(m, "postgres").profile().durability().value()).isEqualTo("yes");
        assertThat(check(m, "durability").status()).isEqualTo("pass");
        assertThat(check(m, "durability").findings()).containsExactly(Text.of("finding.durabilitySame", W, "yes",
                "none", "yes"));
        assertThat(check(m, "isolation").status()).isEqualTo("flag");
        assertChecklistAgrees(m);

        String html = render(strict, ReportFormat.HTML);
        assertThat(html).contains("<p id=\"verdict-summary\" data-comparisons=\"3\" data-decided=\"0\" data-none=\"3\">"
                + "<strong>0 of 3 comparisons have a verdict</strong>; 3 have none: oltp_point_select · Peak"
                + " throughput (isolation); oltp_point_select · P99 latency (isolation); oltp_point_select · Cost"
                + " per QPS (isolation)</p>");
        // the summary comes before the verdict table, the verdict table before everything else
        assertThat(html.indexOf("id=\"verdict-summary\"")).isLessThan(html.indexOf("id=\"verdicts\""));
        assertThat(html).contains("<tr data-aspect=\"durability\" data-differs=\"false\">")
                .contains("<tr data-aspect=\"isolation\" data-differs=\"true\" class=\"differs\">")
                .contains("<td class=\"text\" data-target=\"postgres\" data-value=\"yes\"><strong>yes: on disk before"
                        + " each commit returns</strong><br><code class=\"meta\">fsync=on, synchronous_commit=on,"
                        + " commit_delay=0</code>");

        Path accepted = archive(run(Map.of("accept", "[isolation, nonsense]"), twoRounds(MARIADB, POSTGRES)));
        VerdictFixture f = run(Map.of("accept", "[isolation]"), twoRounds(MARIADB, POSTGRES));
        ReportModel ok = ReportGenerator.load(accepted, ReportOptions.allRuns());
        Map<String, Verdict> v = byMetric(ok);
        assertThat(v.get("throughput").status()).isEqualTo("win");
        assertThat(v.get("throughput").winner()).isEqualTo("mariadb");
        assertThat(v.get("throughput").value()).isCloseTo(f.qps("mariadb", W, 4), within(1e-6));
        assertThat(v.get("p99").winner()).isEqualTo("mariadb");
        assertThat(v.get("cost").winner()).isEqualTo("mariadb");
        assertThat(ok.verdicts()).allSatisfy(x -> {
            assertThat(x.reasons()).isEmpty();
            assertThat(x.waivedChecks()).containsExactly("isolation");
        });
        String page = render(accepted, ReportFormat.HTML);
        assertThat(page).contains("<strong>3 of 3 comparisons have a verdict</strong></p>")
                .contains("<p id=\"verdict-waived\" class=\"note\">Checks waived by the plan (accept) in 3"
                        + " comparison(s): oltp_point_select · Peak throughput (isolation);")
                .contains("<li data-waived=\"isolation\" class=\"meta\">waived by the plan: oltp_point_select:"
                        + " isolation differs: mariadb: REPEATABLE READ");
        assertThat(check(ok, "isolation").findings()).contains(Text.of("finding.waived", "isolation", "run-1"));
        // a name that is no check is said, not silently dropped
        assertThat(ok.notes()).singleElement().asString().contains("run-1").contains("[nonsense]");

        // the other formats carry the same statuses and reasons
        String md = render(strict, ReportFormat.MD);
        assertThat(md).contains("**0 of 3 comparisons have a verdict; 3 have none: oltp_point_select · Peak throughput"
                + " (isolation);").contains("| oltp_point_select | Peak throughput | no verdict |")
                .contains("| oltp_point_select: isolation differs: mariadb: REPEATABLE READ");
        JsonNode json = Json.MAPPER.readTree(render(strict, ReportFormat.JSON));
        assertThat(json.get("verdictSummary").get("comparisons").asInt()).isEqualTo(3);
        assertThat(json.get("verdictSummary").get("decided").asInt()).isZero();
        assertThat(json.get("verdictSummary").get("text").asText()).startsWith("0 of 3 comparisons have a verdict");
        JsonNode first = json.get("verdicts").get(0);
        assertThat(first.get("status").asText()).isEqualTo("none");
        assertThat(first.get("reasons").get(0).get("check").asText()).isEqualTo("isolation");
        assertThat(first.get("reasons").get(0).get("text").asText()).startsWith("oltp_point_select: isolation differs");
        JsonNode waived = Json.MAPPER.readTree(render(accepted, ReportFormat.JSON)).get("verdicts").get(0);
        assertThat(waived.get("status").asText()).isEqualTo("win");
        assertThat(waived.get("waived").get(0).get("check").asText()).isEqualTo("isolation");
        List<String> csv = render(strict, ReportFormat.CSV).lines().toList();
        Map<String, String> row = csvRow(csv, "mariadb");
        assertThat(row.get("throughput_verdict")).isEqualTo("none");
        assertThat(row.get("throughput_best")).isEmpty();
        assertThat(row.get("verdict_reasons")).startsWith("throughput: oltp_point_select: isolation differs:"
                + " mariadb: REPEATABLE READ");
        Map<String, String> won = csvRow(render(accepted, ReportFormat.CSV).lines().toList(), "mariadb");
        assertThat(won.get("throughput_verdict")).isEqualTo("win");
        assertThat(won.get("throughput_best")).isEqualTo("true");
        assertThat(won.get("p99_best")).isEqualTo("true");
        assertThat(csvRow(render(accepted, ReportFormat.CSV).lines().toList(), "postgres").get("cost_best"))
                .isEqualTo("false");
    }

    /** A CSV line of the target as column -> cell (RFC 4180 quoting undone). */
    static Map<String, String> csvRow(List<String> lines, String target) {
        List<String> head = List.of(lines.get(0).split(","));
        for (String line : lines.subList(1, lines.size())) {
            List<String> cells = csvCells(line);
            if (cells.get(1).equals(target)) {
                Map<String, String> m = new HashMap<>();
                for (int i = 0; i < head.size(); i++) {
                    m.put(head.get(i), cells.get(i));
                }
                return m;
            }
        }
        throw new AssertionError("no csv row for " + target);
    }

    private static List<String> csvCells(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder b = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    b.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    b.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                out.add(b.toString());
                b.setLength(0);
            } else {
                b.append(c);
            }
        }
        out.add(b.toString());
        return out;
    }

    @Test
    void h2InMemoryAgainstFile_durabilityDiffers_noVerdict() throws Exception {
        Target mem = new Target("h2-mem", "H2", FairnessProfileTest.h2("tailstream.h2.storage=mem", "WRITE_DELAY="),
                null);
        Target file = new Target("h2-file", "H2", FairnessProfileTest.h2(), null);
        Path a = archive(run(Map.of(), twoRounds(mem, file)));
        ReportModel m = ReportGenerator.load(a, ReportOptions.allRuns());
        Map<String, Verdict> v = byMetric(m);
        assertThat(v.get("throughput").status()).isEqualTo("none");
        assertThat(v.get("throughput").failedChecks()).containsExactly("durability");
        assertThat(v.get("p99").failedChecks()).containsExactly("durability");
        assertThat(v.get("cost").status()).isEqualTo("na"); // no costs: nothing to compare, not counted
        assertThat(fairness(m, "h2-mem").profile().durability().value()).isEqualTo("no-memory");
        assertThat(fairness(m, "h2-file").profile().durability().value()).isEqualTo("no-os");
        assertThat(check(m, "durability").status()).isEqualTo("flag");
        assertChecklistAgrees(m);
        String html = render(a, ReportFormat.HTML);
        assertThat(html).contains("<strong>0 of 2 comparisons have a verdict</strong>; 2 have none:")
                .contains("<tr data-aspect=\"durability\" data-differs=\"true\" class=\"differs\">")
                .contains("data-target=\"h2-mem\" data-value=\"no-memory\"><strong>no: in memory only</strong>")
                .contains("data-target=\"h2-file\" data-value=\"no-os\"><strong>no: written to the OS at commit,"
                        + " flushed later</strong>");
    }

    @Test
    void mariadbFlush2_againstPostgresqlDefault_durabilityDiffers_noVerdict() throws Exception {
        Target flush2 = new Target("mariadb", "MariaDB", FairnessProfileTest.mariadb(
                "innodb_flush_log_at_trx_commit=2", "tailstream.isolation=READ COMMITTED"), 100.0);
        ReportModel m = ReportGenerator.load(archive(run(Map.of(), twoRounds(flush2, POSTGRES))),
                ReportOptions.allRuns());
        assertThat(m.verdicts()).hasSize(3).allSatisfy(v -> {
            assertThat(v.status()).isEqualTo("none");
            assertThat(v.failedChecks()).containsExactly("durability");
            assertThat(v.reasons().get(0).text().args().get(1)).contains("mariadb: no-os (innodb_flush_log_at_trx_commit=2");
        });
        assertThat(check(m, "isolation").status()).isEqualTo("pass");
        assertChecklistAgrees(m);
    }

    @Test
    void oneSideClientBound_noVerdict_sameFigureInChecklist_stepsColumnPreferred_processFallbackSaidSo()
            throws Exception {
        List<Step> steps = new ArrayList<>(twoRounds(MARIADB, MARIADB_B));
        steps.set(3, steps.get(3).cpu(75.0, 88.0)); // mariadb-b round 2: the load generator over 50%
        Path a = archive(run(Map.of(), steps));
        ReportModel m = ReportGenerator.load(a, ReportOptions.allRuns());
        Text reason = Text.of("finding.clientCpu", "mariadb-b · oltp_point_select · 4 thr · r2 (run-1#4)", "75.0",
                "50.0");
        assertThat(m.verdicts()).allSatisfy(v -> {
            assertThat(v.status()).isEqualTo("none");
            assertThat(v.reasons()).containsExactly(new Reason("clientBound", reason));
        });
        assertThat(check(m, "clientCpu").status()).isEqualTo("flag");
        assertThat(check(m, "clientCpu").findings()).containsExactly(reason);
        assertThat(fairness(m, "mariadb-b").cpuMaxPct()).isEqualTo(75.0);
        assertThat(fairness(m, "mariadb-b").cpuSource()).isEqualTo("loadGen");
        assertThat(m.environment().targets().stream().filter(t -> t.name().equals("mariadb-b")).findFirst()
                .orElseThrow().clientBoundSteps()).containsExactly("oltp_point_select @4 r2");

        // an archive whose steps dataset has the load generator's figure as a column: the column is read
        ReportGeneratorTest.rewriteSteps(a, "REPLACE (30.0 AS load_gen_cpu_pct)");
        ReportModel fromColumn = ReportGenerator.load(a, ReportOptions.allRuns());
        assertThat(fairness(fromColumn, "mariadb-b").cpuMaxPct()).isEqualTo(30.0);
        // the producer's flag still stands (step_ended said client-bound), so still no verdict, now for that reason
        assertThat(byMetric(fromColumn).get("throughput").reasons()).extracting(r -> r.text().key())
                .containsExactly("finding.clientBoundFlag");

        // an older producer: no load-generator figure, only the process's; the finding says which figure it is
        List<Step> old = new ArrayList<>(twoRounds(MARIADB, MARIADB_B).stream().map(s -> s.cpu(null, 20.0)).toList());
        old.set(3, old.get(3).cpu(null, 70.0));
        ReportModel older = ReportGenerator.load(archive(run(Map.of(), old)), ReportOptions.allRuns());
        assertThat(byMetric(older).get("throughput").reasons()).extracting(r -> r.text().key())
                .containsExactly("finding.clientCpuProcess");
        assertThat(fairness(older, "mariadb-b").cpuSource()).isEqualTo("process");
        assertChecklistAgrees(older);
    }

    @Test
    void oneRound_indicative_intervalAndNoiseShownAsUnknown_inEveryFormat() throws Exception {
        Path a = archive(run(Map.of(), List.of(new Step(MARIADB, W, 4, 1, 1000, 900),
                new Step(MARIADB_B, W, 4, 1, 900, 1000))));
        ReportModel m = ReportGenerator.load(a, ReportOptions.allRuns());
        assertThat(m.verdicts()).hasSize(3).allSatisfy(v -> {
            assertThat(v.status()).isEqualTo("indicative");
            assertThat(v.winner()).isEqualTo("mariadb");
            assertThat(v.interval()).isNull();
            assertThat(v.noisePct()).isNull();
        });
        String html = render(a, ReportFormat.HTML);
        assertThat(html).contains("<strong>3 of 3 comparisons have a verdict</strong>")
                .contains("<span class=\"badge indicative\"").contains("<td data-key=\"interval\">—</td>")
                .contains("<td data-key=\"noise\">—</td>")
                .doesNotContain("<span class=\"badge win\">").doesNotContain("data-key=\"interval\" data-low");
        assertThat(render(a, ReportFormat.MD)).contains("| oltp_point_select | Peak throughput | indicative | mariadb |")
                .contains("| — | — |  |");
        JsonNode v = Json.MAPPER.readTree(render(a, ReportFormat.JSON)).get("verdicts").get(0);
        assertThat(v.get("status").asText()).isEqualTo("indicative");
        assertThat(v.get("interval").isNull()).isTrue();
        assertThat(v.get("noisePct").isNull()).isTrue();
    }

    /** The verdict rule applied to the fixture's samples alone ({@link VerdictReference}). */
    static String expectedStatus(VerdictFixture f, String a, String b) {
        Map<String, VerdictReference.Candidate> c = new java.util.TreeMap<>();
        for (String t : List.of(a, b)) {
            c.put(t, new VerdictReference.Candidate(f.qps(t, W, 4), f.roundQps(t, W, 4)));
        }
        return VerdictReference.judge(c, true).size() == 1 ? "win" : "tie";
    }

    /** Two rounds each of mariadb and mariadb-b at the given transactions per second, alternating. */
    static List<Step> rounds(double a1, double a2, double b1, double b2) {
        return List.of(new Step(MARIADB, W, 4, 1, a1, 900), new Step(MARIADB_B, W, 4, 1, b1, 900),
                new Step(MARIADB, W, 4, 2, a2, 900), new Step(MARIADB_B, W, 4, 2, b2, 900));
    }

    @Test
    void twoRounds_intervalHoldingZero_tie_wholeIntervalBeyond_win_asTheSamplesSay() throws Exception {
        // mariadb 1000 and 1100 transactions/s, mariadb-b 1040 and 1050: rounds too far apart to tell -> tie
        VerdictFixture close = run(Map.of(), rounds(1000, 1100, 1040, 1050));
        Verdict tie = byMetric(ReportGenerator.load(archive(close), ReportOptions.allRuns())).get("throughput");
        assertThat(expectedStatus(close, "mariadb", "mariadb-b")).isEqualTo("tie");
        assertThat(tie.status()).isEqualTo("tie");
        assertThat(tie.tiedWith()).containsExactly(tie.winner().equals("mariadb") ? "mariadb-b" : "mariadb");
        assertThat(tie.interval().coversZero()).isTrue();
        assertThat(tie.tieReason().key()).isEqualTo("verdict.tie.undetectable");
        assertThat(render(archive(close), ReportFormat.HTML)).contains("<li data-tie=\"reason\">no detectable "
                + "difference (smallest detectable: " + String.format(java.util.Locale.ROOT, "%.1f%%",
                tie.interval().smallestDetectablePct()) + ")</li>");

        // mariadb 1000 and 1010, mariadb-b 800 and 810: 2,000 QPS apart, rounds ~100 apart -> win
        VerdictFixture apart = run(Map.of(), rounds(1000, 1010, 800, 810));
        Verdict win = byMetric(ReportGenerator.load(archive(apart), ReportOptions.allRuns())).get("throughput");
        assertThat(expectedStatus(apart, "mariadb", "mariadb-b")).isEqualTo("win");
        assertThat(win.status()).isEqualTo("win");
        assertThat(win.winner()).isEqualTo("mariadb");
        assertThat(win.value()).isCloseTo(apart.qps("mariadb", W, 4), within(1e-6));
        assertThat(win.runnerUpValue()).isCloseTo(apart.qps("mariadb-b", W, 4), within(1e-6));
    }

    @Test
    void failedStep_noVerdict_andEveryStepCompletedDoesNotPass() throws Exception {
        List<Step> steps = new ArrayList<>(twoRounds(MARIADB, MARIADB_B));
        steps.set(1, steps.get(1).outcome("failed: duplicate_key (not ignored): SQLState 23505"));
        ReportModel m = ReportGenerator.load(archive(run(Map.of(), steps)), ReportOptions.allRuns());
        Text t = Text.of("finding.outcome", "mariadb-b · oltp_point_select · 4 thr · r1 (run-1#2)",
                "failed: duplicate_key (not ignored): SQLState 23505");
        assertThat(m.verdicts()).allSatisfy(v -> assertThat(v.reasons()).containsExactly(new Reason("completed", t)));
        assertThat(check(m, "completed").status()).isEqualTo("flag");
        assertThat(check(m, "completed").findings()).containsExactly(t);
        String md = render(archive(run(Map.of(), steps)), ReportFormat.MD);
        assertThat(md).contains("**flag** Every step completed");
    }

    @Test
    void errorShareOverTheLimit_noVerdict_completedFlagsIt() throws Exception {
        List<Step> steps = new ArrayList<>(twoRounds(MARIADB, MARIADB_B));
        Step s = steps.get(0);
        // every 50th transaction fails: 2%
        steps.set(0, new Step(s.target(), s.workload(), s.threads(), s.round(), s.txnPerSecond(), s.latencyUs(), 50,
                s.warmupMs(), s.measureMs(), s.loadGenCpuPct(), s.processCpuPct(), s.outcome(), s.rttP50Us()));
        VerdictFixture f = run(Map.of(), steps);
        ReportModel m = ReportGenerator.load(archive(f), ReportOptions.allRuns());
        long measured = f.rows.stream().filter(r -> r.stepId() == 1 && !r.warmup()).count();
        long failed = f.rows.stream().filter(r -> r.stepId() == 1 && !r.warmup() && !r.ok()).count();
        Text t = Text.of("finding.stepErrors", "mariadb · oltp_point_select · 4 thr · r1 (run-1#1)",
                ValidityChecks.fmt(failed * 100.0 / measured), String.valueOf(failed), String.valueOf(measured), "1.0");
        assertThat(m.verdicts()).allSatisfy(v -> assertThat(v.reasons()).containsExactly(new Reason("errors", t)));
        assertThat(check(m, "completed").findings()).containsExactly(t);
        assertThat(check(m, "errors").findings()).containsExactly(t);
    }
}
