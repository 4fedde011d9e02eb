package io.tailstream.reporter.report;

import static io.tailstream.reporter.report.ReportAnalysisTest.env;
import static io.tailstream.reporter.report.ReportAnalysisTest.row;
import static io.tailstream.reporter.report.ReportAnalysisTest.verdict;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tailstream.analysis.interval.Fieller;
import io.tailstream.analysis.interval.PercentInterval;
import io.tailstream.reporter.report.Environment.TargetEnv;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * TPC-C is judged on tpmC: the target that sends more statements a second is not the one that completes more
 * New-Orders when its statements are cheaper ones (a rolled-back New-Order, a short Payment), so the same rows win
 * on QPS for another workload and lose on tpmC for TPC-C, and the peak is the row of most tpmC, not of most QPS.
 */
class TpccVerdictTest {

    private static final Map<String, TargetEnv> TARGETS = Map.of(
            "a", env("a", 1000.0, "EUR", "MariaDB", 1), "b", env("b", 1000.0, "EUR", "PostgreSQL", 1));

    /** a: more QPS, fewer tpmC; b's 16-thread row has its most QPS, its 8-thread row its most tpmC. */
    private static final List<SummaryRow> ROWS = List.of(
            row("a", 8, List.of(2990.0, 3010.0), 5, 0),
            row("b", 8, List.of(1990.0, 2010.0), 4, 0),
            row("b", 16, List.of(2490.0, 2510.0), 9, 0));

    private static final List<TpccRow> TPCC = List.of(
            tpcc("a", 8, List.of(995.0, 1005.0)),
            tpcc("b", 8, List.of(1490.0, 1510.0)),
            tpcc("b", 16, List.of(1395.0, 1405.0)));

    @Test
    void throughput_isJudgedOnTpmC_atEachTargetsPeakTpmCRow() {
        List<Verdict> vs = Verdicts.of(workload("tpcc"), TARGETS);
        Verdict t = verdict(vs, "throughput");
        assertThat(t.status()).isEqualTo(Verdict.WIN);
        assertThat(t.winner()).isEqualTo("b");
        assertThat(t.value()).isEqualTo(1500.0);
        assertThat(t.runnerUpValue()).isEqualTo(1000.0);
        assertThat(t.unit()).isEqualTo("tpmC");
        assertThat(t.throughputUnit()).isEqualTo("tpmC");
        assertThat(t.marginPct()).isCloseTo(50, within(1e-9));
        // the rounds weighed are the tpmC of b's 8-thread steps against a's
        PercentInterval f = Fieller.ratioOfMeans(new double[] {1490, 1510}, new double[] {995, 1005}, 0.95);
        assertThat(t.interval().lowPct()).isEqualTo(f.lowPct());
        assertThat(t.interval().highPct()).isEqualTo(f.highPct());
        assertThat(t.interval().lowPct()).isPositive();

        Verdict cost = verdict(vs, "cost");
        assertThat(cost.winner()).isEqualTo("b");
        assertThat(cost.value()).isCloseTo(1000 / 1500.0 * 1000, within(1e-9));
        assertThat(cost.runnerUpValue()).isCloseTo(1000.0, within(1e-9));
        assertThat(cost.unit()).isEqualTo("EUR");

        Messages en = Messages.of(Locale.ENGLISH);
        Messages zh = Messages.of(Locale.SIMPLIFIED_CHINESE);
        assertThat(en.get(t.metricKey())).isEqualTo("Peak tpmC");
        assertThat(en.get(cost.metricKey())).isEqualTo("Cost per tpmC");
        assertThat(zh.get(cost.metricKey())).isEqualTo("每 tpmC 成本");
        assertThat(en.get(verdict(vs, "p99").metricKey())).isEqualTo("P99 latency");
    }

    @Test
    void theSameRows_ofAnotherWorkload_areJudgedOnQps() {
        List<Verdict> vs = Verdicts.of(workload("w"), TARGETS);
        Verdict t = verdict(vs, "throughput");
        assertThat(t.winner()).isEqualTo("a");
        assertThat(t.value()).isEqualTo(3000.0);
        assertThat(t.runnerUpValue()).as("b's peak QPS, at 16 threads").isEqualTo(2500.0);
        assertThat(t.throughputUnit()).isEqualTo("QPS");
        assertThat(t.metricKey()).isEqualTo("verdict.metric.throughput");
    }

    @Test
    void theCsvMarksTheRowOfPeakTpmC() {
        WorkloadSummary w = workload("tpcc");
        Verdict t = verdict(Verdicts.of(w, TARGETS), "throughput");
        List<SummaryRow> b = w.rows().stream().filter(r -> r.target().equals("b")).toList();
        assertThat(b).extracting(SummaryRow::threads).containsExactly(8, 16);
        assertThat(CsvReport.best(t, b.get(0), w)).isTrue();
        assertThat(CsvReport.best(t, b.get(1), w)).as("b's row of most QPS").isFalse();
    }

    private static WorkloadSummary workload(String name) {
        List<SummaryRow> rows = ROWS.stream().map(r -> new SummaryRow(r.target(), name, r.threads(), r.rounds(),
                r.transactions(), r.measuredSeconds(), r.qps(), r.tps(), r.avgMs(), r.p95Ms(), r.p99Ms(), r.maxMs(),
                r.errors(), null, null, r.roundQps(), r.roundP99Ms(), null)).toList();
        List<Integer> levels = ReportAnalysis.threadLevels(rows);
        WorkloadSummary w = new WorkloadSummary(name, rows, false, levels, ReportAnalysis.sweep(rows, levels),
                ReportAnalysis.costs(rows, TARGETS, 8), 8);
        return name.equals("tpcc") ? w.withTpcc(TPCC) : w;
    }

    private static TpccRow tpcc(String target, int threads, List<Double> rounds) {
        double tpmC = rounds.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        return new TpccRow(target, threads, List.of(1), 2, 0, 0, tpmC, tpmC, null, 0, null, tpmC, List.of(),
                1000 / tpmC * 1000, "EUR", TpccRow.Consistency.unchecked(2), null, rounds);
    }
}
