package io.tailstream.reporter.report;

import io.tailstream.analysis.RoundStats;
import java.util.List;
import java.util.Map;

/**
 * One row: a target at one thread count, over every completed round of the selected runs (or one step that did
 * not complete), measurement phase only (warm-up samples excluded), computed exactly from the raw samples
 * ({@link io.tailstream.reporter.query.StepFigureQuery}; docs/report.md defines every figure). Latency figures
 * describe the successful transactions; the failed ones are described apart ({@code failed}). A row without a
 * successful transaction has 0 in its latency figures.
 *
 * @param rounds          steps merged into the row
 * @param transactions    samples (transactions, failed ones included)
 * @param measuredSeconds sum over the steps of their measured span: {@code measure_end_us - measure_start_us}
 *                        where the archive records it ({@code exactSpan}), else last completion - first start of
 *                        their measured samples
 * @param qps             statements of the successful transactions / measuredSeconds
 * @param tps             successful transactions / measuredSeconds
 * @param avgMs           mean latency of the successful transactions
 * @param p95Ms           95th percentile latency by nearest rank ({@code quantile_disc}): the smallest
 *                        latency with at least 95% of the samples at or below it, i.e. sorted[ceil(0.95 n) - 1]
 * @param p99Ms           99th percentile latency, likewise
 * @param maxMs           highest latency of a successful transaction
 * @param errors          failed transactions
 * @param ralMs           read average latency (successful ops named {@code read}), or null
 * @param walMs           write average latency (successful ops {@code update}, {@code insert}, {@code write},
 *                        {@code read_modify_write}), or null
 * @param roundQps        QPS of each round (step) alone, in step order
 * @param roundP99Ms      P99 of each round alone
 * @param delta           change against the baseline target at the same thread count, or null
 * @param p999Ms          99.9th percentile latency by nearest rank
 * @param p9999Ms         99.99th percentile latency by nearest rank
 * @param errorsPerSecond failed transactions / measuredSeconds
 * @param errorsByClass   failed transactions per error class ({@code deadlock}, {@code connection_lost}, ...)
 * @param failed          latencies of the failed transactions, or null without any
 * @param slowestTransactions the slowest 0.1% of the successful transactions: {@code floor(n / 1000)}
 * @param slowestSharePct share (%) of the successful transactions' latency time those carry; null with fewer
 *                        than 1,000 successful transactions
 * @param exactSpan       every step's measured span is its recorded measurement boundaries
 * @param outcome         null for completed steps; else the outcome of the one step the row describes
 *                        ({@code failed: ...}, {@code interrupted: ...}, {@code not ended})
 * @param steps           the steps pooled, as {@code run#step}, oldest first
 * @param roundTpmC       for TPC-C, the tpmC of each round alone (its completed New-Orders per minute of its own
 *                        measured span), in the order of {@code roundQps} (empty where it is, and for other workloads)
 */
public record SummaryRow(String target, String workload, int threads, int rounds, long transactions,
                         double measuredSeconds, double qps, double tps, double avgMs, double p95Ms,
                         double p99Ms, double maxMs, long errors, Double ralMs, Double walMs,
                         List<Double> roundQps, List<Double> roundP99Ms, Delta delta, double p999Ms,
                         double p9999Ms, double errorsPerSecond, Map<String, Long> errorsByClass,
                         FailedLatency failed, long slowestTransactions, Double slowestSharePct,
                         boolean exactSpan, String outcome, List<String> steps, List<Double> roundTpmC) {
    /** A row's latency is heavy-tailed when its slowest 0.1% carry more than this share (%) of its latency time. */
    public static final double HEAVY_TAIL_SHARE_PCT = 50;

    public SummaryRow {
        roundQps = List.copyOf(roundQps);
        roundP99Ms = List.copyOf(roundP99Ms);
        errorsByClass = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(errorsByClass));
        steps = List.copyOf(steps);
        roundTpmC = List.copyOf(roundTpmC);
    }

    /** A row of completed steps without the tail, error-class or failed-latency figures (P99.9 and P99.99 0). */
    public SummaryRow(String target, String workload, int threads, int rounds, long transactions,
                      double measuredSeconds, double qps, double tps, double avgMs, double p95Ms, double p99Ms,
                      double maxMs, long errors, Double ralMs, Double walMs, List<Double> roundQps,
                      List<Double> roundP99Ms, Delta delta) {
        this(target, workload, threads, rounds, transactions, measuredSeconds, qps, tps, avgMs, p95Ms, p99Ms,
                maxMs, errors, ralMs, walMs, roundQps, roundP99Ms, delta, 0, 0,
                measuredSeconds > 0 ? errors / measuredSeconds : 0, Map.of(), null, 0, null, true, null,
                List.of(), List.of());
    }

    /** Failed transactions in % of all. */
    public double errorPct() {
        return transactions == 0 ? 0 : errors * 100.0 / transactions;
    }

    /** Transactions that succeeded. */
    public long okTransactions() {
        return transactions - errors;
    }

    /** The share of failed transactions passes the checklist's limit: the row's figures are suspect. */
    public boolean errorLimitExceeded() {
        return errorPct() > ValidityChecks.MAX_ERROR_PCT;
    }

    /** True unless the row holds the partial figures of a step that did not complete. */
    public boolean completed() {
        return outcome == null;
    }

    /**
     * Why the row's latency has a heavy tail, empty if it has none: the mean above P99 (a few very slow
     * transactions outweigh the rest), and the slowest 0.1% carrying more than half of the latency time.
     */
    public List<Text> heavyTail() {
        List<Text> out = new java.util.ArrayList<>();
        if (okTransactions() > 0 && avgMs > p99Ms) {
            out.add(Text.of("tail.meanAboveP99", ms(avgMs), ms(p99Ms)));
        }
        if (slowestSharePct != null && slowestSharePct > HEAVY_TAIL_SHARE_PCT) {
            out.add(Text.of("tail.slowestShare", String.format(java.util.Locale.ROOT, "%,d", slowestTransactions),
                    String.format(java.util.Locale.ROOT, "%,d", okTransactions()),
                    String.format(java.util.Locale.ROOT, "%.1f", slowestSharePct)));
        }
        return out;
    }

    private static String ms(double v) {
        return String.format(java.util.Locale.ROOT, "%.3f", v);
    }

    /** max - min of the rounds' QPS (0 for one round). */
    public double qpsSpread() {
        return spread(roundQps);
    }

    public double p99SpreadMs() {
        return spread(roundP99Ms);
    }

    static double spread(List<Double> v) {
        return v.isEmpty() ? 0 : RoundStats.of(v).spread();
    }

    SummaryRow withDelta(Delta d) {
        return new SummaryRow(target, workload, threads, rounds, transactions, measuredSeconds, qps, tps, avgMs,
                p95Ms, p99Ms, maxMs, errors, ralMs, walMs, roundQps, roundP99Ms, d, p999Ms, p9999Ms,
                errorsPerSecond, errorsByClass, failed, slowestTransactions, slowestSharePct, exactSpan, outcome,
                steps, roundTpmC);
    }

    /** Changes in % against the baseline row: (row - baseline) / baseline * 100. Null fields: not comparable. */
    public record Delta(Double qpsPct, Double tpsPct, Double avgPct, Double p95Pct, Double p99Pct) {}

    /**
     * Latencies of a row's failed transactions, apart from the successful ones' (ms).
     *
     * @param count  failed transactions
     * @param avgMs  their mean latency
     * @param p99Ms  their 99th percentile latency by nearest rank
     * @param maxMs  the highest
     */
    public record FailedLatency(long count, double avgMs, double p99Ms, double maxMs) {}
}
