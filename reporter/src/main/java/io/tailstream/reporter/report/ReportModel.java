package io.tailstream.reporter.report;

import java.util.List;
import java.util.TreeMap;
import java.util.Collections;
import java.util.Map;

/**
 * Everything a report shows, computed from the archive; the templates and the json/csv/md writers only lay it
 * out, so every format carries the same numbers. Immutable. Times are epoch milliseconds, latencies milliseconds
 * (from µs), rates per second, costs in the target's currency per month.
 *
 * @param title         what the report covers: plan (run id), or the plans of several runs
 * @param generatedAtMs when the model was built
 * @param baseline      target the deltas are relative to, or null
 * @param runs          the runs covered, oldest first
 * @param verdicts      per workload: best on throughput, on P99 and on cost per QPS, or why there is none
 * @param environment   targets side by side
 * @param workloads     one section per workload: summary table with deltas, sweep, cost
 * @param charts        one time series per step, in run and step order (down-sampled for display)
 * @param scaleOut      1 vs N node throughput, where a product was measured with different node counts
 * @param checklist     methodology checks, each passed or flagged from the data
 * @param steps         what was run, step by step, to reproduce it
 * @param stalls        stalls from the {@code stalls} dataset (empty when the archive has none)
 * @param soak          long-run figures of steps measured for at least {@link ReportAnalysis#SOAK_MIN_MS}
 * @param notes         data problems the reader should know about (e.g. an unreadable optional dataset)
 * @param figureNotes   how the figures were computed where the archive forced a fallback (e.g. steps without
 *                      recorded measurement boundaries), localizable
 * @param stallDetection per step, in step order: whether the aggregator's stall detector ran and what it found
 */
public record ReportModel(String title, long generatedAtMs, String baseline, List<RunInfo> runs,
                          List<Verdict> verdicts, Environment environment, List<WorkloadSummary> workloads,
                          List<StepSeries> charts, List<ScaleOut> scaleOut, List<Check> checklist,
                          List<StepInfo> steps, List<Stall> stalls, List<Soak> soak, List<String> notes,
                          List<Text> figureNotes, List<StallDetection> stallDetection) {

    public ReportModel {
        runs = List.copyOf(runs);
        verdicts = List.copyOf(verdicts);
        workloads = List.copyOf(workloads);
        charts = List.copyOf(charts);
        scaleOut = List.copyOf(scaleOut);
        checklist = List.copyOf(checklist);
        steps = List.copyOf(steps);
        stalls = List.copyOf(stalls);
        soak = List.copyOf(soak);
        notes = List.copyOf(notes);
        figureNotes = List.copyOf(figureNotes);
        stallDetection = List.copyOf(stallDetection);
    }

    /** A model without figure notes or stall-detection status. */
    public ReportModel(String title, long generatedAtMs, String baseline, List<RunInfo> runs, List<Verdict> verdicts,
                       Environment environment, List<WorkloadSummary> workloads, List<StepSeries> charts,
                       List<ScaleOut> scaleOut, List<Check> checklist, List<StepInfo> steps, List<Stall> stalls,
                       List<Soak> soak, List<String> notes) {
        this(title, generatedAtMs, baseline, runs, verdicts, environment, workloads, charts, scaleOut, checklist,
                steps, stalls, soak, notes, List.of(), List.of());
    }

    /** One run of the archive. {@code endedAtMs}, {@code samplesSent} and {@code outcome} are null if it never ended. */
    public record RunInfo(String runId, String planName, long startedAtMs, Long endedAtMs, Long samplesSent,
                          String outcome, String client, String settings) {}

    /**
     * A localizable sentence: a message key and its arguments ({@code {0}}, {@code {1}}, ... in the message).
     * Arguments are data (target names, numbers), never words.
     */
    public record Text(String key, List<String> args) {
        public Text {
            args = List.copyOf(args);
        }

        public static Text of(String key, Object... args) {
            return new Text(key, java.util.Arrays.stream(args).map(String::valueOf).toList());
        }
    }

    /**
     * The verdict of a workload on one metric: exactly one of a winner, a tie, an indicative winner, no verdict (the
     * evidence fails a check that invalidates the comparison) or nothing to compare ({@link ReportAnalysis} has the
     * rules).
     *
     * @param metric    {@code throughput} (peak QPS, higher is better), {@code p99} (at {@code threads}, lower is
     *                  better) or {@code cost} (monthly cost per 1,000 peak QPS, lower is better)
     * @param status    {@link #WIN}, {@link #TIE}, {@link #INDICATIVE}, {@link #NONE} or {@link #NA}
     * @param winner    best target (win, tie, indicative), else null
     * @param value     the winner's figure
     * @param runnerUp  second best target, or null
     * @param runnerUpValue its figure
     * @param tiedWith  targets tied with the winner (status tie)
     * @param spread    the larger of the winner's and the runner-up's round-to-round spreads (max - min of the
     *                  figure over their rounds, each round computed alone); null when unknown (a side measured in
     *                  one round) or when there is no winner
     * @param threads   concurrency of the comparison (P99), or null (peak over all concurrencies)
     * @param unit      unit of the figures ({@code qps}, {@code ms}, or the currency)
     * @param reasons   why there is no verdict (status none: the failed checks, naming targets and figures; status na:
     *                  why there is nothing to compare); empty otherwise
     * @param waived    checks the plan waived ({@code accept}) that would have failed for this comparison
     */
    public record Verdict(String workload, String metric, String status, String winner, Double value,
                          String runnerUp, Double runnerUpValue, List<String> tiedWith, Double spread,
                          Integer threads, String unit, List<Reason> reasons, List<Reason> waived) {
        public static final String WIN = "win";
        public static final String TIE = "tie";
        public static final String INDICATIVE = "indicative";
        public static final String NONE = "none";
        public static final String NA = "na";

        public Verdict {
            if (!List.of(WIN, TIE, INDICATIVE, NONE, NA).contains(status)) {
                throw new IllegalArgumentException("verdict status must be win, tie, indicative, none or na, was "
                        + status);
            }
            if ((winner == null) != (status.equals(NONE) || status.equals(NA))) {
                throw new IllegalArgumentException("verdict " + workload + "/" + metric + ": status " + status
                        + (winner == null ? " needs a winner" : " has no winner, got " + winner));
            }
            tiedWith = List.copyOf(tiedWith);
            reasons = List.copyOf(reasons);
            waived = List.copyOf(waived);
        }

        public boolean tie() {
            return status.equals(TIE);
        }

        public boolean indicative() {
            return status.equals(INDICATIVE);
        }

        /** A comparison that has a verdict: win, tie or indicative. */
        public boolean decided() {
            return winner != null;
        }

        /** Two or more candidates were there to compare (every status but na). */
        public boolean comparison() {
            return !status.equals(NA);
        }

        /** The checks that failed (status none), each once, in reason order. */
        public List<String> failedChecks() {
            return reasons.stream().map(Reason::check).distinct().toList();
        }

        /** The checks waived by the plan that would have failed, each once. */
        public List<String> waivedChecks() {
            return waived.stream().map(Reason::check).distinct().toList();
        }

        /** The first reason, or null. */
        public Text reason() {
            return reasons.isEmpty() ? null : reasons.get(0).text();
        }

        /** Winner over runner-up, in % of the runner-up (positive: winner higher), or null. */
        public Double marginPct() {
            return value == null || runnerUpValue == null || runnerUpValue == 0 ? null
                    : (value - runnerUpValue) / runnerUpValue * 100;
        }
    }

    /**
     * A reason for no verdict, or a waived check.
     *
     * @param check the check ({@code clientBound}, {@code durability}, {@code isolation}, {@code warmup},
     *              {@code errors}, {@code dataSize}, {@code rtt}, {@code completed}), or {@code na} for nothing
     *              to compare
     * @param text  what failed, naming the targets, steps and figures
     */
    public record Reason(String check, Text text) {}

    /**
     * How many comparisons have a verdict.
     *
     * @param comparisons verdicts with two or more candidates (status other than na)
     * @param decided     of those, the ones with a winner (win, tie, indicative)
     * @param none        the ones without (status none), in report order
     * @param waived      verdicts where the plan waived a check that would have failed
     */
    public record VerdictSummary(int comparisons, int decided, List<Verdict> none, List<Verdict> waived) {
        public VerdictSummary {
            none = List.copyOf(none);
            waived = List.copyOf(waived);
        }
    }

    /** The verdict counts for the top of the report. */
    public VerdictSummary verdictSummary() {
        List<Verdict> compared = verdicts.stream().filter(Verdict::comparison).toList();
        return new VerdictSummary(compared.size(), (int) compared.stream().filter(Verdict::decided).count(),
                compared.stream().filter(v -> v.status().equals(Verdict.NONE)).toList(),
                compared.stream().filter(v -> !v.waived().isEmpty()).toList());
    }

    /**
     * The targets side by side.
     *
     * @param targets   every target, in name order
     * @param variables captured server variables, durability settings first, then key tuning settings, then the rest
     * @param durations warm-up and measurement per target and workload
     * @param fairness  per target (name order): its fairness profile, RTT probe and load-generator CPU
     */
    public record Environment(List<TargetEnv> targets, List<VariableRow> variables, List<Duration> durations,
                              List<TargetFairness> fairness) {
        public Environment {
            targets = List.copyOf(targets);
            variables = List.copyOf(variables);
            durations = List.copyOf(durations);
            fairness = List.copyOf(fairness);
        }

        /** Without fairness profiles. */
        public Environment(List<TargetEnv> targets, List<VariableRow> variables, List<Duration> durations) {
            this(targets, variables, durations, List.of());
        }

        Environment withFairness(List<TargetFairness> f) {
            return new Environment(targets, variables, durations, f);
        }
    }

    /**
     * What decides whether a target can be compared fairly with another, side by side in the environment section.
     *
     * @param profile          the fairness profile from the variables of the target's latest step
     * @param rttP50Ms         median over the target's steps of the RTT probe's median (taken before each step on an
     *                         idle connection), or null without probes
     * @param rttP99Ms         median over the target's steps of the probe's P99, or null
     * @param rttSteps         steps with a probe
     * @param rttMethod        how the probe measured (as the producer describes it), or null
     * @param cpuMaxPct        highest step figure of the client's CPU that the client-bound check uses, or null
     * @param cpuSource        where that figure comes from: {@code loadGen} (the load generator's own threads) or
     *                         {@code process} (the whole client process, in archives without the load-generator
     *                         figure), or null
     */
    public record TargetFairness(String target, FairnessProfile profile, Double rttP50Ms, Double rttP99Ms,
                                 int rttSteps, String rttMethod, Double cpuMaxPct, String cpuSource) {}

    /**
     * A target as its latest step saw it. {@code rttMs} is the median over its steps of the RTT probe's median
     * (null without probes); {@code clientCpuMaxPct} its highest step client CPU (the load generator's, or the
     * process's in older archives; null without figures); {@code clientBoundSteps} the steps the client-bound check
     * flags.
     */
    public record TargetEnv(String name, String product, String version, String url, Integer nodes,
                            Double monthlyCost, String currency, Double rttMs, Double clientCpuMaxPct,
                            List<String> clientBoundSteps, Map<String, Double> costItems) {
        public TargetEnv {
            clientBoundSteps = List.copyOf(clientBoundSteps);
            costItems = costItems == null ? Map.of()
                    : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(costItems));
        }

        /** A target without cost items. */
        public TargetEnv(String name, String product, String version, String url, Integer nodes, Double monthlyCost,
                         String currency, Double rttMs, Double clientCpuMaxPct, List<String> clientBoundSteps) {
            this(name, product, version, url, nodes, monthlyCost, currency, rttMs, clientCpuMaxPct, clientBoundSteps,
                    null);
        }
    }

    /**
     * One server variable across the targets.
     *
     * @param values     value per target name (absent: not captured)
     * @param durability the variable decides commit durability
     * @param differs    the targets do not all have the same value
     */
    public record VariableRow(String name, Map<String, String> values, boolean durability, boolean differs) {
        public VariableRow {
            values = Map.copyOf(values);
        }
    }

    /**
     * Warm-up and measurement of a target's steps of one workload (min-max over steps when they differ).
     * {@code threads} are the steps' thread counts, each all of a step's producers together;
     * {@code producerThreads} says how steps run by several producers split theirs ({@code "4 = gen-a 2 + gen-b 2"}),
     * once per distinct split.
     */
    public record Duration(String target, String workload, long warmupMsMin, long warmupMsMax, long measureMsMin,
                           long measureMsMax, int rounds, List<Integer> threads, List<String> producerThreads) {
        public Duration {
            threads = List.copyOf(threads);
            producerThreads = producerThreads == null ? List.of() : List.copyOf(producerThreads);
        }
    }

    /**
     * One workload: summary table, concurrency sweep and cost.
     *
     * @param rows         one row per target and concurrency, pooling the steps that completed
     * @param ralWal       the workload's ops are YCSB-like reads and writes: rows carry RAL and WAL
     * @param threadLevels every concurrency measured, ascending (the sweep's x axis)
     * @param sweep        per target, QPS and P99 at each level (null where not measured), peak marked
     * @param costs        per target with a monthly cost
     * @param atThreads    concurrency of the "at a chosen concurrency" columns, or null if no level is common to all
     * @param incomplete   the partial figures of each step that did not complete (failed, interrupted, never
     *                     ended), one row per step with its {@link SummaryRow#outcome()}: shown marked, never pooled
     *                     into {@code rows}, never in a sweep, cost or verdict
     */
    public record WorkloadSummary(String workload, List<SummaryRow> rows, boolean ralWal, List<Integer> threadLevels,
                                  List<Sweep> sweep, List<Cost> costs, Integer atThreads, List<SummaryRow> incomplete) {
        public WorkloadSummary {
            rows = List.copyOf(rows);
            threadLevels = List.copyOf(threadLevels);
            sweep = List.copyOf(sweep);
            costs = List.copyOf(costs);
            incomplete = List.copyOf(incomplete);
        }

        /** A workload whose steps all completed. */
        public WorkloadSummary(String workload, List<SummaryRow> rows, boolean ralWal, List<Integer> threadLevels,
                               List<Sweep> sweep, List<Cost> costs, Integer atThreads) {
            this(workload, rows, ralWal, threadLevels, sweep, costs, atThreads, List.of());
        }
    }

    /**
     * One row: a target at one thread count, over every completed round of the selected runs (or one step that did
     * not complete), measurement phase only (warm-up samples excluded), computed exactly from the raw samples
     * ({@link io.tailstream.reporter.query.StepFigures}; docs/report.md defines every figure). Latency figures
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
     */
    public record SummaryRow(String target, String workload, int threads, int rounds, long transactions,
                             double measuredSeconds, double qps, double tps, double avgMs, double p95Ms,
                             double p99Ms, double maxMs, long errors, Double ralMs, Double walMs,
                             List<Double> roundQps, List<Double> roundP99Ms, Delta delta, double p999Ms,
                             double p9999Ms, double errorsPerSecond, Map<String, Long> errorsByClass,
                             FailedLatency failed, long slowestTransactions, Double slowestSharePct,
                             boolean exactSpan, String outcome, List<String> steps) {
        public SummaryRow {
            roundQps = List.copyOf(roundQps);
            roundP99Ms = List.copyOf(roundP99Ms);
            errorsByClass = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(errorsByClass));
            steps = List.copyOf(steps);
        }

        /** A row of completed steps without the tail, error-class or failed-latency figures (P99.9 and P99.99 0). */
        public SummaryRow(String target, String workload, int threads, int rounds, long transactions,
                          double measuredSeconds, double qps, double tps, double avgMs, double p95Ms, double p99Ms,
                          double maxMs, long errors, Double ralMs, Double walMs, List<Double> roundQps,
                          List<Double> roundP99Ms, Delta delta) {
            this(target, workload, threads, rounds, transactions, measuredSeconds, qps, tps, avgMs, p95Ms, p99Ms,
                    maxMs, errors, ralMs, walMs, roundQps, roundP99Ms, delta, 0, 0,
                    measuredSeconds > 0 ? errors / measuredSeconds : 0, Map.of(), null, 0, null, true, null,
                    List.of());
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
            return errorPct() > ReportChecks.MAX_ERROR_PCT;
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
            return v.isEmpty() ? 0 : io.tailstream.analysis.RoundStats.of(v).spread();
        }

        SummaryRow withDelta(Delta d) {
            return new SummaryRow(target, workload, threads, rounds, transactions, measuredSeconds, qps, tps, avgMs,
                    p95Ms, p99Ms, maxMs, errors, ralMs, walMs, roundQps, roundP99Ms, d, p999Ms, p9999Ms,
                    errorsPerSecond, errorsByClass, failed, slowestTransactions, slowestSharePct, exactSpan, outcome,
                    steps);
        }
    }

    /** A row's latency is heavy-tailed when its slowest 0.1% carry more than this share (%) of its latency time. */
    public static final double HEAVY_TAIL_SHARE_PCT = 50;

    /**
     * Latencies of a row's failed transactions, apart from the successful ones' (ms).
     *
     * @param count  failed transactions
     * @param avgMs  their mean latency
     * @param p99Ms  their 99th percentile latency by nearest rank
     * @param maxMs  the highest
     */
    public record FailedLatency(long count, double avgMs, double p99Ms, double maxMs) {}

    /**
     * Whether the aggregator's stall detector ran for a step: it did when the archive has a step summary of the
     * step (the detector runs in the stage that publishes them). Only then does "no stall" mean none was found.
     *
     * @param detectionRan a step summary of the step is in the archive
     * @param stalls       stalls of the step in the archive
     */
    public record StallDetection(String runId, int stepId, String target, String workload, int threads, int round,
                                 boolean detectionRan, int stalls) {}

    /** Changes in % against the baseline row: (row - baseline) / baseline * 100. Null fields: not comparable. */
    public record Delta(Double qpsPct, Double tpsPct, Double avgPct, Double p95Pct, Double p99Pct) {}

    /** A target's concurrency sweep: values aligned with {@link WorkloadSummary#threadLevels()}. */
    public record Sweep(String target, List<Double> qps, List<Double> p99Ms, int peakIndex) {
        public Sweep {
            qps = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(qps));
            p99Ms = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(p99Ms));
        }
    }

    /**
     * Price/performance of a target on a workload.
     *
     * @param peakQps             highest QPS over the concurrencies
     * @param peakThreads         where it was reached
     * @param costPer1000Qps      monthlyCost / peakQps * 1000
     * @param qpsPer1000Currency  peakQps / monthlyCost * 1000
     * @param atQps               QPS at the chosen concurrency, or null
     * @param atCostPer1000Qps    monthlyCost / atQps * 1000, or null
     * @param atQpsPer1000Currency atQps / monthlyCost * 1000, or null
     * @param items               the parts of the monthly cost from the plan, in plan order (empty: none listed)
     */
    public record Cost(String target, double monthlyCost, String currency, double peakQps, int peakThreads,
                       double costPer1000Qps, double qpsPer1000Currency, Double atQps, Double atCostPer1000Qps,
                       Double atQpsPer1000Currency, List<CostItem> items) {
        public Cost {
            items = List.copyOf(items);
        }
    }

    /**
     * One part of a target's monthly cost.
     *
     * @param sharePct amount / monthly cost * 100
     */
    public record CostItem(String name, double amount, double sharePct) {}

    /** Peak throughput of one product with one node and with {@code nodes} nodes; ratio = multi / single. */
    public record ScaleOut(String workload, String product, String singleTarget, double singleQps, String multiTarget,
                           int nodes, double multiQps, double ratio) {}

    /**
     * A methodology check.
     *
     * @param id       message key suffix ({@code check.<id>})
     * @param status   {@code pass}, {@code flag} or {@code na} (no data to decide)
     * @param findings what the data showed (the offending rows when flagged)
     */
    public record Check(String id, String status, List<Text> findings) {
        public Check {
            findings = List.copyOf(findings);
        }
    }

    /**
     * One step as run: for reproduction. {@code options} is the workload's options as JSON. {@code threads} counts
     * every producer's threads; {@code producerThreads} has each producer's, by producer id (empty in archives written
     * before it was kept).
     */
    public record StepInfo(String runId, int stepId, String target, String url, String workload, int threads,
                           int round, long warmupMs, long measureMs, String options, String outcome,
                           long startedAtMs, Long endedAtMs, Map<String, Integer> producerThreads) {

        public StepInfo {
            producerThreads = producerThreads == null ? Map.of() : Collections.unmodifiableMap(
                    new TreeMap<>(producerThreads));
        }

        /** A step without its producers' threads. */
        public StepInfo(String runId, int stepId, String target, String url, String workload, int threads, int round,
                        long warmupMs, long measureMs, String options, String outcome, long startedAtMs,
                        Long endedAtMs) {
            this(runId, stepId, target, url, workload, threads, round, warmupMs, measureMs, options, outcome,
                    startedAtMs, endedAtMs, Map.of());
        }
    }

    /**
     * A long step as a soak (methodology: "average QPS, stall episodes, macro decline, micro jitter"), from every
     * measured all-ops window (not the down-sampled chart).
     *
     * @param hours            measured windows / 3,600
     * @param meanQps          mean of the measured windows' QPS
     * @param firstHourQps     mean QPS of the first hour's windows
     * @param lastHourQps      mean QPS of the last hour's windows
     * @param trendPctPerHour  least-squares slope of window QPS over time, in % of the mean per hour (macro trend)
     * @param jitterPct        standard deviation of window QPS in % of the mean (micro jitter)
     * @param stalls           stalls of the step
     * @param stallSeconds     their total duration within the measurement
     * @param stallSharePct    stallSeconds in % of the planned measurement duration
     */
    public record Soak(String runId, int stepId, String target, String workload, int threads, double hours,
                       double meanQps, double firstHourQps, double lastHourQps, double trendPctPerHour,
                       double jitterPct, int stalls, double stallSeconds, double stallSharePct) {}

    /** A stall of a step ({@code kind}: hard, throughput, latency), window-aligned epoch ms. */
    public record Stall(String runId, int stepId, String target, String workload, int threads, String kind,
                        long startMs, long endMs) {
        public double durationS() {
            return (endMs - startMs) / 1000.0;
        }
    }

    /**
     * Per-second QPS and P99 of one step (warm-up included, before {@code measureStartMs}), down-sampled for
     * display: at most about {@link Downsample#DEFAULT_BUCKETS} buckets, each keeping its lowest and highest point.
     * Definitions in {@link TimeSeries} and docs/report.md.
     *
     * @param domId          element id of the chart
     * @param epochSeconds   window starts of the QPS points, seconds since the epoch
     * @param qps            statements of successful transactions per second of each window's time inside the
     *                       step (all statements where {@code allStatements}; per second of the window's length
     *                       unless {@code normalized})
     * @param p99Seconds     window starts of the P99 points
     * @param p99Ms          P99 latency of each window, ms
     * @param windows        windows before down-sampling
     * @param measureStartMs the measurement's start: {@code steps.measure_start_us}, else the first measured
     *                       sample's start; null without measured samples
     * @param stalls         [start, end) epoch seconds of the step's stalls
     * @param measureEndMs   the measurement's end: {@code steps.measure_end_us}, else the last measured completion
     * @param startMs        the step's start ({@code steps.start_us}), or null when not recorded
     * @param normalized     each window's QPS is divided by its time inside the step, so edge windows holding part
     *                       of a second are not drawn as dips; false in archives without recorded step boundaries
     * @param allStatements  QPS counts all statements in some window: the archive's windows predate ok_queries
     * @param outcome        null for a completed step; else its outcome ({@code failed: ...}, {@code not ended})
     */
    public record StepSeries(String domId, String runId, int stepId, String target, String workload, int threads,
                             int round, long[] epochSeconds, double[] qps, long[] p99Seconds, double[] p99Ms,
                             int windows, Long measureStartMs, List<double[]> stalls, Long measureEndMs, Long startMs,
                             boolean normalized, boolean allStatements, String outcome) {}
}
