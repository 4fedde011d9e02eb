package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TPC-C as an evaluation runs it: a plan with a priced target, a thread sweep and rounds, run twice into one output
 * folder with the default local pipeline (embedded H2, no server; each step a count of transactions, so every
 * machine measures the same), then {@code compare} and {@code trend} over the
 * archive. Each run's report has a TPC-C row per concurrency, pooling its rounds, with the consistency conditions
 * held after each of them and the cost per 1,000 tpmC; {@code compare} judges the runs on tpmC.
 */
class RunTpccPlanIntegrationTest {

    @TempDir
    Path dir;

    @Test
    void planSweepAndRounds_twoRuns_reportCompareAndTrend() throws Exception {
        Path plan = dir.resolve("tpcc.yaml");
        Files.writeString(plan, """
                name: tpcc-eval
                targets:
                  - name: h2-tpcc
                    url: "jdbc:h2:file:%s"
                    monthlyCost: 600
                    currency: EUR
                workloads:
                  - name: tpcc
                    options: {warehouses: 1}
                threads: [1, 2]
                rounds: 2
                warmup: 0s
                duration: 5m
                transactions: 60
                reportInterval: 0
                prepare: true
                """.formatted(dir.resolve("db/tpcc").toString().replace('\\', '/')));
        Path out = dir.resolve("out");
        for (String runId : new String[] {"tpcc-a", "tpcc-b"}) {
            RunFailuresIntegrationTest.Outcome run = RunFailuresIntegrationTest.execute("run", "--plan",
                    plan.toString(), "--out", out.toString(), "--run-id", runId);
            assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
            assertThat(run.out().split("consistency_4 holds", -1)).as(run.out()).hasSize(5);
            String html = Files.readString(out.resolve("report.html"));
            for (int threads : new int[] {1, 2}) {
                Matcher row = Pattern.compile("<tr data-target=\"h2-tpcc\" data-threads=\"" + threads
                        + "\">\\s*<td class=\"text\">h2-tpcc</td>\\s*<td>" + threads + "</td>(.*?)</tr>",
                        Pattern.DOTALL).matcher(html.substring(html.indexOf("<table class=\"tpcc\"")));
                assertThat(row.find()).as("TPC-C row at %d threads", threads).isTrue();
                assertThat(row.group(1)).contains("data-key=\"tpmc\"").contains("data-key=\"cost_per_1000_tpmc\"")
                        .contains("data-key=\"consistency\" data-value=\"held\"")
                        .contains("hold after all 2 steps");
            }
        }
        CliUsageTest.Outcome compare = CliUsageTest.execute("compare", "--archive", out.resolve("archive").toString(),
                "--baseline", "tpcc-a", "--candidate", "tpcc-b", "--threshold", "100000");
        assertThat(compare.exitCode()).as(compare.out() + compare.err()).isZero();
        // judged on tpmC, in a table of its own
        assertThat(compare.out()).contains("tpcc").contains("h2-tpcc").contains("tpmC base").contains("tpmC Δ 95% CI")
                .doesNotContain("qps base");
        CliUsageTest.Outcome trend = CliUsageTest.execute("trend", "--archive", out.resolve("archive").toString(),
                "--format", "json");
        assertThat(trend.exitCode()).as(trend.out() + trend.err()).isZero();
        assertThat(trend.out()).contains("\"tpcc\"").contains("tpcc-a").contains("tpcc-b");
    }
}
