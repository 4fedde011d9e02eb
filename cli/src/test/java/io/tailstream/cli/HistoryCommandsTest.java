package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.tailstream.cli.command.CompareCommand;
import io.tailstream.schemas.event.Json;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code query}, {@code runs} and {@code compare} on a small archive written with DuckDB in the archive's layout:
 * three runs of one step each, {@code slow} at half the throughput and twice the latency of {@code base}.
 * The figures themselves are checked exactly against raw samples in the reporter's tests.
 */
class HistoryCommandsTest {

    private static final long T0_MS = 1_764_000_000_000L; // 2025-11-24T16:00:00Z

    @TempDir
    Path archive;

    record Outcome(int exitCode, String out, String err) {}

    static Outcome execute(String... args) {
        CliUsageTest.Outcome o = CliUsageTest.execute(args);
        return new Outcome(o.exitCode(), o.out().replace(System.lineSeparator(), "\n"), o.err());
    }

    private void writeRun(Statement st, String run, String plan, long startMs, int spacingUs, int latencyFactor)
            throws SQLException, IOException {
        writeRun(st, run, plan, startMs, spacingUs, latencyFactor, "completed");
    }

    private void writeRun(Statement st, String run, String plan, long startMs, int spacingUs, int latencyFactor,
                          String outcome) throws SQLException, IOException {
        writeRun(st, run, plan, startMs, spacingUs, latencyFactor, outcome, "oltp_point_select", "'txn'");
    }

    /** @param op SQL of each sample's op, of its index {@code i} */
    private void writeRun(Statement st, String run, String plan, long startMs, int spacingUs, int latencyFactor,
                          String outcome, String workload, String op) throws SQLException, IOException {
        for (String d : new String[] {"samples", "steps", "runs"}) {
            Files.createDirectories(archive.resolve(d).resolve("run_id=" + run));
        }
        String dir = archive.toAbsolutePath().toString();
        st.execute("COPY (SELECT 1 AS step_id, 'p1' AS producer_id, CAST(i // 100 AS BIGINT) AS block_seq,"
                + " " + op + " AS op, CAST(" + startMs * 1000 + " + i * " + spacingUs + " AS BIGINT) AS start_us,"
                + " CAST((100 + i % 100) * " + latencyFactor + " AS BIGINT) AS latency_us,"
                + " CAST(NULL AS BIGINT) AS intended_start_us,"
                + " CASE WHEN i % 50 = 0 THEN 'deadlock' ELSE 'ok' END AS status, 1 AS queries, i < 100 AS warmup"
                + " FROM range(1000) t(i)) TO '" + dir + "/samples/run_id=" + run + "/s.parquet' (FORMAT parquet)");
        st.execute("COPY (SELECT 1 AS step_id, 'h2' AS target, '" + workload + "' AS workload, 4 AS threads,"
                + " 1 AS round, '" + outcome + "' AS outcome) TO '" + dir + "/steps/run_id=" + run
                + "/steps.parquet' (FORMAT parquet)");
        st.execute("COPY (SELECT '" + plan + "' AS plan_name, CAST(" + startMs + " AS BIGINT) AS started_at_ms,"
                + " CAST(" + (startMs + 90_000) + " AS BIGINT) AS ended_at_ms, 'completed' AS outcome,"
                + " CAST(1000 AS BIGINT) AS samples_sent) TO '" + dir + "/runs/run_id=" + run
                + "/runs.parquet' (FORMAT parquet)");
    }

    @BeforeEach
    void writeArchive() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            writeRun(st, "base", "nightly", T0_MS, 1000, 1);
            writeRun(st, "same", "nightly", T0_MS + 86_400_000L, 1000, 1);
            writeRun(st, "slow", "weekly", T0_MS + 2 * 86_400_000L, 2000, 2);
        }
    }

    @Test
    void query_table_csv_json() {
        String sql = "SELECT run_id, count(*) AS n, sum(latency_us) AS lat FROM samples GROUP BY ALL ORDER BY 1";
        Outcome table = execute("query", "--archive", archive.toString(), sql);
        assertThat(table.exitCode()).as(table.err()).isZero();
        // sum over i of (100 + i % 100) = 1000 * 100 + 10 * 4950 = 149,500 (doubled for slow)
        assertThat(table.out()).isEqualTo("""
                run_id     n     lat
                ------  ----  ------
                base    1000  149500
                same    1000  149500
                slow    1000  299000
                (3 rows)
                """);
        Outcome csv = execute("query", "--archive", archive.toString(), "--format", "csv", sql);
        assertThat(csv.out()).isEqualTo("run_id,n,lat\r\nbase,1000,149500\r\nsame,1000,149500\r\nslow,1000,299000\r\n");
        Outcome json = execute("query", "--archive", archive.toString(), "--format", "json",
                "SELECT run_id, plan_name FROM runs WHERE run_id = 'slow'");
        assertThat(json.out()).isEqualTo("[\n{\"run_id\":\"slow\",\"plan_name\":\"weekly\"}\n]\n");
    }

    @Test
    void query_badSql_namesTheErrorAndTheViews() {
        Outcome o = execute("query", "--archive", archive.toString(), "SELECT nope FROM samples");
        assertThat(o.exitCode()).isEqualTo(Cli.EXIT_FAILURE);
        assertThat(o.err()).contains("query failed: ").contains("nope").contains("(views in " + archive
                + ": samples, steps, runs; empty: blocks, windows, control, client_health, server_counters,"
                + " stall_events, stalls, summary_events, summaries, run_summary_events, run_summaries)");
    }

    @Test
    void runs_listsAndFilters() {
        Outcome all = execute("runs", "--archive", archive.toString());
        assertThat(all.exitCode()).as(all.err()).isZero();
        assertThat(all.out()).isEqualTo("""
                run_id  plan     started               duration  outcome    steps  samples  targets  workloads
                ------  -------  --------------------  --------  ---------  -----  -------  -------  -----------------
                base    nightly  2025-11-24 16:00:00Z  1m30s     completed  1      1,000    h2       oltp_point_select
                same    nightly  2025-11-25 16:00:00Z  1m30s     completed  1      1,000    h2       oltp_point_select
                slow    weekly   2025-11-26 16:00:00Z  1m30s     completed  1      1,000    h2       oltp_point_select
                (3 runs)
                """);
        assertThat(execute("runs", "--archive", archive.toString(), "--plan", "weekly").out())
                .contains("slow").doesNotContain("base").endsWith("(1 run)\n");
        assertThat(execute("runs", "--archive", archive.toString(), "--since", "2025-11-25").out())
                .contains("same").contains("slow").doesNotContain("base");
        assertThat(execute("runs", "--archive", archive.toString(), "--target", "pg").out()).isEqualTo("""
                run_id  plan  started  duration  outcome  steps  samples  targets  workloads
                ------  ----  -------  --------  -------  -----  -------  -------  ---------
                (0 runs)
                """);
    }

    @Test
    void compare_sameRun_exit0_slowerRun_exit3() {
        Outcome same = execute("compare", "--archive", archive.toString(), "--baseline", "base", "--candidate",
                "same");
        assertThat(same.exitCode()).as(same.err()).isZero();
        assertThat(same.out()).contains("+0.0%").contains(" same\n").endsWith("OK: no step worse than the baseline"
                + " by more than 5%\n");

        Outcome slow = execute("compare", "--archive", archive.toString(), "--baseline", "base", "--candidate",
                "slow", "--threshold", "10%");
        assertThat(slow.exitCode()).as(slow.err()).isEqualTo(CompareCommand.EXIT_REGRESSION).isEqualTo(3);
        // measured: 900 samples; span (899 * spacing + last latency); p99 = rank 891 of the sorted latencies
        assertThat(slow.out()).contains("baseline base, candidate slow, threshold 10%")
                .contains("worse").contains("-50.").contains("+100.0%")
                .endsWith("REGRESSION: 1 of 1 steps worse than the baseline by more than 10% (exit code 3)\n");

        Outcome gate = execute("compare", "--archive", archive.toString(), "--baseline", "slow", "--candidate",
                "base");
        assertThat(gate.exitCode()).isZero();
        assertThat(gate.out()).contains("better");
    }

    @Test
    void trend_oneSeriesInTimeOrder_tableCsvJson() throws Exception {
        Outcome table = execute("trend", "--archive", archive.toString());
        assertThat(table.exitCode()).as(table.err()).isZero();
        assertThat(table.out()).startsWith("h2 · oltp_point_select · 4 threads — qps, 3 runs, 0 change points\n"
                + "run_id  started               qps")
                .containsSubsequence("base    2025-11-24 16:00:00Z", "same    2025-11-25 16:00:00Z",
                        "slow    2025-11-26 16:00:00Z", "(3 runs)");
        Outcome csv = execute("trend", "--archive", archive.toString(), "--format", "csv", "--metric", "p99");
        assertThat(csv.out().lines().toList()).hasSize(4).first().isEqualTo(String.join(",",
                io.tailstream.cli.command.TrendCommand.CSV_COLUMNS));
        Outcome json = execute("trend", "--archive", archive.toString(), "--format", "json", "--since", "2025-11-25");
        JsonNode doc = Json.MAPPER.readTree(json.out());
        assertThat(doc.get("metric").asText()).isEqualTo("qps");
        assertThat(doc.get("settings").get("maxPValue").asDouble()).isEqualTo(0.001);
        JsonNode series = doc.get("series").get(0);
        assertThat(series.get("threads").asInt()).isEqualTo(4);
        assertThat(series.get("points")).extracting(p -> p.get("runId").asText()).containsExactly("same", "slow");
        assertThat(series.get("points").get(1).get("value").asDouble() / series.get("points").get(0).get("value")
                .asDouble()).isBetween(0.49, 0.51);
        assertThat(series.get("changes")).isEmpty();
        Outcome html = execute("trend", "--archive", archive.toString(), "--format", "html");
        assertThat(html.exitCode()).as(html.err()).isZero();
        assertThat(html.out()).contains("<!DOCTYPE html>")
                .contains("h2 · oltp_point_select · 4 threads</h2>").endsWith("</html>\n");
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "--metric; p42; --metric: unknown metric 'p42'; use qps, tps, p95, p99, p999 or errors",
        "--min-change; -1%; --min-change '-1%' must be a percentage >= 0",
        "--max-p; 0; --max-p/--min-runs: max p-value must be in (0, 1], was 0.0",
        "--min-runs; 0; --max-p/--min-runs: minimum segment must be at least 1 point, was 0",
        "--format; svg; --format: unknown format 'svg'; use table, csv, json or html"})
    void trend_badOptions_usageError(String option, String value, String message) {
        Outcome o = execute("trend", "--archive", archive.toString(), option, value);
        assertThat(o.exitCode()).isEqualTo(Cli.EXIT_USAGE);
        assertThat(o.err()).contains(message);
    }

    @Test
    void compare_severalCandidates_eachAgainstTheBaseline_exit3IfAnyIsWorse() throws Exception {
        // runs of 20 s (one sample every 20 ms), so each step has seconds to resample; slow20 at half the rate
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            writeRun(st, "base20", "nightly", T0_MS + 10 * 86_400_000L, 20_000, 1);
            writeRun(st, "same20", "nightly", T0_MS + 11 * 86_400_000L, 20_000, 1);
            writeRun(st, "slow20", "nightly", T0_MS + 12 * 86_400_000L, 40_000, 2);
        }
        Outcome table = execute("compare", "--archive", archive.toString(), "--baseline", "base20", "--candidate",
                "same20", "slow20");
        assertThat(table.exitCode()).as(table.err()).isEqualTo(CompareCommand.EXIT_REGRESSION);
        assertThat(table.out()).containsSubsequence("baseline base20, candidate same20, threshold 5%",
                "oltp_point_select h2/4: no detectable difference in QPS (smallest detectable: ",
                "OK: no step worse than the baseline by more than 5%",
                "baseline base20, candidate slow20, threshold 5%",
                "REGRESSION: 1 of 1 steps worse than the baseline by more than 5% (exit code 3)");
        JsonNode doc = Json.MAPPER.readTree(execute("compare", "--archive", archive.toString(), "--baseline", "base20",
                "--candidate", "same20", "slow20", "--format", "json").out());
        assertThat(doc.get("regressed").asBoolean()).isTrue();
        assertThat(doc.get("comparisons")).extracting(c -> c.get("candidate").asText())
                .containsExactly("same20", "slow20");
        JsonNode slow = doc.get("comparisons").get(1).get("steps").get(0);
        assertThat(slow.get("noise").asText()).isEqualTo("seconds");
        assertThat(slow.get("qps_delta_high_pct").asDouble()).isLessThan(-5)
                .isGreaterThan(slow.get("qps_delta_pct").asDouble());
        List<String> csv = execute("compare", "--archive", archive.toString(), "--baseline", "base20",
                "--candidate", "same20", "slow20", "--format", "csv").out().lines().toList();
        assertThat(csv).hasSize(3);
        assertThat(csv.get(1)).endsWith(",seconds,same20,,,qps,,,,,,");
        assertThat(csv.get(2)).startsWith("oltp_point_select,h2,4,worse,").endsWith(",seconds,slow20,,,qps,,,,,,");
    }

    /**
     * TPC-C is judged on tpmC: a candidate with as many transactions a second but a third of them New-Orders where the
     * baseline had two thirds is worse, its rows in a tpmC table of their own and marked {@code judged_on} tpmc.
     */
    @Test
    void compare_tpcc_judgedOnTpmC_tableAndCsv() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            writeRun(st, "tpcc-base", "tpcc", T0_MS + 20 * 86_400_000L, 20_000, 1, "completed", "tpcc",
                    "CASE WHEN i % 3 = 0 THEN 'payment' ELSE 'new_order' END");
            writeRun(st, "tpcc-cand", "tpcc", T0_MS + 21 * 86_400_000L, 20_000, 1, "completed", "tpcc",
                    "CASE WHEN i % 3 = 0 THEN 'new_order' ELSE 'payment' END");
        }
        Outcome table = execute("compare", "--archive", archive.toString(), "--baseline", "tpcc-base", "--candidate",
                "tpcc-cand");
        assertThat(table.exitCode()).as(table.err()).isEqualTo(CompareCommand.EXIT_REGRESSION);
        assertThat(table.out()).contains("tpmC base").contains("tpmC Δ 95% CI").doesNotContain("qps base")
                .contains("REGRESSION: 1 of 1 steps worse");
        JsonNode step = Json.MAPPER.readTree(execute("compare", "--archive", archive.toString(), "--baseline",
                "tpcc-base", "--candidate", "tpcc-cand", "--format", "json").out()).get("steps").get(0);
        assertThat(step.get("judged_on").asText()).isEqualTo("tpmc");
        assertThat(step.get("status").asText()).isEqualTo("worse");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("""
                     SELECT run_id, count(*) FILTER (WHERE status = 'ok' AND op = 'new_order') * 60e6
                            / (max(start_us + latency_us) - min(start_us))
                     FROM read_parquet('%s/samples/*/*.parquet', hive_partitioning = true)
                     WHERE NOT warmup AND run_id LIKE 'tpcc-%%' GROUP BY run_id ORDER BY run_id"""
                     .formatted(archive.toAbsolutePath()))) {
            assertThat(rs.next()).isTrue();
            assertThat(step.get("baseline_tpmc").asDouble()).isCloseTo(rs.getDouble(2), within(1e-6));
            assertThat(rs.next()).isTrue();
            assertThat(step.get("candidate_tpmc").asDouble()).isCloseTo(rs.getDouble(2), within(1e-6));
        }
        assertThat(step.get("tpmc_delta_pct").asDouble()).isCloseTo(
                (step.get("candidate_tpmc").asDouble() / step.get("baseline_tpmc").asDouble() - 1) * 100,
                within(1e-9)).isBetween(-55.0, -45.0);
        assertThat(step.get("tpmc_delta_high_pct").asDouble()).isLessThan(-5);
        assertThat(Math.abs(step.get("qps_delta_pct").asDouble())).isLessThan(5);
    }

    @Test
    void runs_csvAndJson_typedFieldsForScripts() throws Exception {
        Outcome json = execute("runs", "--archive", archive.toString(), "--format", "json");
        assertThat(json.exitCode()).as(json.err()).isZero();
        JsonNode runs = Json.MAPPER.readTree(json.out());
        assertThat(runs).hasSize(3);
        assertThat(runs.get(0).get("run_id").asText()).isEqualTo("base");
        assertThat(runs.get(0).get("started").asText()).isEqualTo("2025-11-24T16:00:00Z");
        assertThat(runs.get(0).get("duration_s").isNumber()).isTrue();
        assertThat(runs.get(0).get("duration_s").asDouble()).isEqualTo(90.0);
        assertThat(runs.get(2).get("samples").isIntegralNumber()).isTrue();
        assertThat(runs.get(2).get("samples").asLong()).isEqualTo(1000);
        assertThat(runs.get(2).get("steps").asInt()).isEqualTo(1);
        assertThat(runs.get(2).get("plan").asText()).isEqualTo("weekly");

        Outcome csv = execute("runs", "--archive", archive.toString(), "--format", "csv", "--plan", "weekly");
        assertThat(csv.out()).isEqualTo("run_id,plan,started,duration_s,outcome,steps,samples,targets,workloads\r\n"
                + "slow,weekly,2025-11-26T16:00:00Z,90,completed,1,1000,h2,oltp_point_select\r\n");
    }

    @Test
    void compare_json_sameFiguresAsTheTable_exitCodeKept() throws Exception {
        Outcome table = execute("compare", "--archive", archive.toString(), "--baseline", "base", "--candidate",
                "slow", "--threshold", "10%");
        Outcome json = execute("compare", "--archive", archive.toString(), "--baseline", "base", "--candidate",
                "slow", "--threshold", "10%", "--format", "json");
        assertThat(json.exitCode()).as(json.err()).isEqualTo(CompareCommand.EXIT_REGRESSION);
        JsonNode doc = Json.MAPPER.readTree(json.out());
        assertThat(doc.get("baseline").asText()).isEqualTo("base");
        assertThat(doc.get("candidate").asText()).isEqualTo("slow");
        assertThat(doc.get("thresholdPct").asDouble()).isEqualTo(10.0);
        assertThat(doc.get("regressed").asBoolean()).isTrue();
        assertThat(doc.get("exitCode").asInt()).isEqualTo(3);
        assertThat(doc.get("steps")).hasSize(1);
        JsonNode step = doc.get("steps").get(0);
        assertThat(step.get("status").asText()).isEqualTo("worse");
        assertThat(step.get("threads").asInt()).isEqualTo(4);
        String row = table.out().lines().filter(l -> l.startsWith("oltp_point_select")).findFirst().orElseThrow();
        assertThat(row.split("\\s+")).containsSubsequence(
                String.format(Locale.ROOT, "%.1f", step.get("baseline_qps").asDouble()),
                String.format(Locale.ROOT, "%.1f", step.get("candidate_qps").asDouble()),
                String.format(Locale.ROOT, "%+.1f%%", step.get("qps_delta_pct").asDouble()),
                String.format(Locale.ROOT, "%.3f", step.get("baseline_p99_ms").asDouble()),
                String.format(Locale.ROOT, "%.3f", step.get("candidate_p99_ms").asDouble()),
                String.format(Locale.ROOT, "%+.1f%%", step.get("p99_delta_pct").asDouble()));
        assertThat(step.get("candidate_qps").asDouble() / step.get("baseline_qps").asDouble()).isLessThan(0.9);
    }

    @Test
    void compare_candidateStepFailed_listedWithItsPartialFigures_exit3() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            writeRun(st, "broken", "nightly", T0_MS + 3 * 86_400_000L, 1000, 1, "failed: duplicate_key (not ignored)");
        }
        Outcome o = execute("compare", "--archive", archive.toString(), "--baseline", "base", "--candidate",
                "broken");
        assertThat(o.exitCode()).as(o.err()).isEqualTo(CompareCommand.EXIT_REGRESSION);
        assertThat(o.out()).contains("candidate step did not complete (not compared): h2/oltp_point_select/4 threads,"
                        + " step 1: failed: duplicate_key (not ignored) (partial: 900 transactions,")
                .contains("only in the baseline (not compared): h2/oltp_point_select/4 threads")
                .endsWith("REGRESSION: 1 step(s) of the candidate did not complete (exit code 3)\n");

        Outcome csv = execute("compare", "--archive", archive.toString(), "--baseline", "base", "--candidate",
                "broken", "--format", "csv");
        assertThat(csv.exitCode()).isEqualTo(CompareCommand.EXIT_REGRESSION);
        List<String> lines = csv.out().lines().toList();
        assertThat(lines.get(0)).isEqualTo(String.join(",", CompareCommand.MACHINE_COLUMNS));
        assertThat(lines).hasSize(3);
        assertThat(lines.get(1)).startsWith("oltp_point_select,h2,4,baseline_only,,,,,,,,,")
                .endsWith(",broken,,,qps,,,,,,");
        assertThat(lines.get(2)).startsWith("oltp_point_select,h2,4,candidate_incomplete,,")
                .endsWith(",,1,failed: duplicate_key (not ignored),,,,,,broken,,,qps,,,,,,");
    }

    @Test
    void compare_unknownRun_listsRuns_exit1() {
        Outcome o = execute("compare", "--archive", archive.toString(), "--baseline", "base", "--candidate", "nope");
        assertThat(o.exitCode()).isEqualTo(Cli.EXIT_FAILURE);
        assertThat(o.err()).contains("run nope is not in the archive").contains("runs there: [base, same, slow]");
        assertThat(o.err().strip().lines()).hasSize(1);
    }

    @Test
    void corruptFile_namedInTheError_otherRunsStillQuery() throws Exception {
        Path bad = archive.resolve("samples/run_id=slow/s.parquet");
        try (RandomAccessFile raf = new RandomAccessFile(bad.toFile(), "rw")) {
            raf.setLength(raf.length() - 100);
        }
        Outcome q = execute("query", "--archive", archive.toString(), "SELECT DISTINCT run_id FROM samples ORDER BY 1");
        assertThat(q.exitCode()).as(q.err()).isZero();
        assertThat(q.out()).contains("base").contains("same").doesNotContain("slow");
        Outcome c = execute("compare", "--archive", archive.toString(), "--baseline", "base", "--candidate", "slow");
        assertThat(c.exitCode()).isEqualTo(Cli.EXIT_FAILURE);
        assertThat(c.err()).contains("run slow cannot be read: " + bad).contains("no Parquet magic bytes at the end");
        assertThat(execute("runs", "--archive", archive.toString()).out()).contains("base").doesNotContain("slow");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "compare --archive . --baseline a --candidate b --threshold abc | --threshold 'abc' is not a percentage",
            "compare --archive . --baseline a --candidate b --threshold -5% | must be a percentage >= 0",
            "compare --archive . --baseline a                                | Missing required option: '--candidate",
            "runs --archive . --since yesterday                              | 'yesterday' is not a date",
            "query --archive . --format xml SELECT                           | unknown format 'xml'",
            "runs --archive . --format yaml                                  | unknown format 'yaml'",
            "compare --archive . --baseline a --candidate b --format html    | unknown format 'html'",
            "query --archive /surely/not/here SELECT                         | no such folder",
            "query --archive .                                               | Missing required parameter: 'SQL'",
    })
    void badUsage_exit2(String args, String expected) {
        Outcome o = execute(args.trim().split("\\s+"));
        assertThat(o.exitCode()).as(o.err()).isEqualTo(Cli.EXIT_USAGE);
        assertThat(o.err()).contains(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"query", "runs", "compare"})
    void help(String command) {
        Outcome o = execute(command, "--help");
        assertThat(o.exitCode()).isZero();
        assertThat(o.out()).startsWith("Usage: tailstream " + command);
    }
}
