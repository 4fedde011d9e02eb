package io.tailstream.reporter.report;

import io.tailstream.reporter.output.Csv;
import io.tailstream.schemas.event.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report as CSV ({@code report --format csv}): one record per workload, target and concurrency, with the
 * columns of {@link #COLUMNS}, completed rows first, then the steps that did not complete. Stateless and thread safe.
 */
final class CsvReport {

    /** The columns scripts read by name, in order: {@link #write} writes one value per column in this order. */
    public static final List<String> COLUMNS = List.of("workload", "target", "threads", "rounds", "transactions",
            "measured_s", "qps", "tps", "avg_ms", "p95_ms", "p99_ms", "max_ms", "errors", "error_pct", "ral_ms",
            "wal_ms", "qps_spread", "p99_spread_ms", "baseline", "qps_delta_pct", "tps_delta_pct", "avg_delta_pct",
            "p95_delta_pct", "p99_delta_pct", "monthly_cost", "currency", "cost_per_1000_qps", "p999_ms",
            "p9999_ms", "errors_per_s", "errors_by_class", "failed_avg_ms", "failed_p99_ms", "failed_max_ms",
            "slowest_0_1pct_share_pct", "heavy_tail", "error_limit_exceeded", "exact_span", "outcome", "steps",
            "throughput_verdict", "throughput_best", "p99_verdict", "p99_best", "cost_verdict", "cost_best",
            "verdict_reasons");

    private CsvReport() {}

    static String write(ReportModel model, Locale locale) {
        Messages msg = Messages.of(locale);
        StringBuilder b = new StringBuilder(Csv.record(COLUMNS));
        for (WorkloadSummary w : model.workloads()) {
            List<Verdict> verdicts = model.verdicts().stream().filter(v -> v.workload().equals(w.workload())).toList();
            String reasons = reasons(verdicts, msg);
            for (SummaryRow r : ReportTexts.rows(w)) {
                Cost c = w.costs().stream().filter(x -> x.target().equals(r.target())).findFirst().orElse(null);
                List<Object> v = new ArrayList<>(List.of(r.workload(), r.target(), r.threads(), r.rounds(),
                        r.transactions(), r.measuredSeconds(), r.qps(), r.tps(), r.avgMs(), r.p95Ms(), r.p99Ms(),
                        r.maxMs(), r.errors(), r.errorPct()));
                v.add(r.ralMs());
                v.add(r.walMs());
                v.add(r.qpsSpread());
                v.add(r.p99SpreadMs());
                v.add(r.delta() == null ? null : model.baseline());
                v.add(r.delta() == null ? null : r.delta().qpsPct());
                v.add(r.delta() == null ? null : r.delta().tpsPct());
                v.add(r.delta() == null ? null : r.delta().avgPct());
                v.add(r.delta() == null ? null : r.delta().p95Pct());
                v.add(r.delta() == null ? null : r.delta().p99Pct());
                v.add(c == null || !r.completed() ? null : c.monthlyCost());
                v.add(c == null || !r.completed() ? null : c.currency());
                v.add(c == null || r.qps() <= 0 || !r.completed() ? null : c.monthlyCost() / r.qps() * 1000);
                v.add(r.p999Ms());
                v.add(r.p9999Ms());
                v.add(r.errorsPerSecond());
                v.add(Json.writeString(r.errorsByClass()));
                v.add(r.failed() == null ? null : r.failed().avgMs());
                v.add(r.failed() == null ? null : r.failed().p99Ms());
                v.add(r.failed() == null ? null : r.failed().maxMs());
                v.add(r.slowestSharePct());
                v.add(!r.heavyTail().isEmpty());
                v.add(r.errorLimitExceeded());
                v.add(r.exactSpan());
                v.add(r.outcome());
                v.add(String.join(" ", r.steps()));
                for (String metric : Verdicts.METRICS) {
                    Verdict verdict = verdicts.stream().filter(x -> x.metric().equals(metric)).findFirst()
                            .orElse(null);
                    v.add(verdict == null || !r.completed() ? null : verdict.status());
                    v.add(verdict == null || !verdict.decided() || !r.completed() ? null : best(verdict, r, w));
                }
                v.add(reasons.isEmpty() || !r.completed() ? null : reasons);
                b.append(Csv.record(v));
            }
        }
        return b.toString();
    }

    /**
     * True when the row carries a best figure of the verdict: the winner's (or a tied target's) peak row for
     * throughput and cost (of tpmC for TPC-C), its row at the compared concurrency for P99.
     */
    static boolean best(Verdict v, SummaryRow r, WorkloadSummary w) {
        if (!r.target().equals(v.winner()) && !v.tiedWith().contains(r.target())) {
            return false;
        }
        if (v.metric().equals("p99")) {
            return v.threads() != null && r.threads() == v.threads();
        }
        if (Verdicts.countsTpmC(w.workload())) {
            TpccRow peak = ReportAnalysis.tpccPeak(w, r.target());
            return peak != null && peak.threads() == r.threads();
        }
        List<SummaryRow> mine = w.rows().stream().filter(x -> x.target().equals(r.target())).toList();
        return ReportAnalysis.peak(mine).threads() == r.threads();
    }

    /** "metric: sentence | ...; metric: ..." for a workload's verdicts without a verdict or with waivers. */
    private static String reasons(List<Verdict> verdicts, Messages msg) {
        List<String> parts = new ArrayList<>();
        for (Verdict v : verdicts) {
            List<String> why = ReportTexts.reasons(v, msg);
            if (!why.isEmpty()) {
                parts.add(v.metric() + ": " + String.join(" | ", why));
            }
        }
        return String.join("; ", parts);
    }
}
