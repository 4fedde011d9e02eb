package io.tailstream.schemas.event;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A run's figures across its steps, emitted by the aggregator on {@link io.tailstream.schemas.Topics#RUN_SUMMARIES}
 * (key {@code runId}) when the run ends ({@link RunEnded}) and again whenever a step summary of the run arrives
 * after that; consumers keep the last record per run. Computed from the run's {@link StepSummary}s (measurement
 * phase only); a step counts when its scope measured at least one sample. Immutable.
 *
 * <p><b>Version 2</b> (this one; {@code version} absent in JSON means version 1) is computed from version-2 step
 * summaries: per-round QPS and TPS count successful work over each step's exact measured span, and the pooled figures
 * are Σ statements (transactions) of successful measured samples / Σ exact measured spans. Version 1 pooled the
 * statements of all samples over whole windows.
 *
 * <p>Definitions; each rule lives once, in {@code io.tailstream.analysis} (module {@code analysis}), which the report
 * and the producer's sweep stop apply too:
 * <ul>
 *   <li>a <b>round</b> is one step of a (target, workload, threads) group; groups are per run; a figure's mean,
 *       sample standard deviation, min and max over the rounds are {@code RoundStats};</li>
 *   <li>the <b>pooled</b> QPS of a group is Σ statements of successful measured samples / Σ measured seconds over
 *       its rounds (the report's row QPS);
 *       a sweep's <b>peak</b> is the level of highest such QPS, the lowest thread count on equal QPS
 *       ({@code SweepPeak});</li>
 *   <li>the <b>plateau</b> applies the producer's sweep-stop rule ({@code Plateau}) to the levels in ascending
 *       thread order: a level whose QPS gains less than {@code plateauMinGainPct} % over the best QPS of the lower
 *       levels is flat; the plateau is reached after {@code plateauPatience} flat levels in a row, and began at the
 *       level holding that best QPS when the deciding run of flat levels started (the knee: the last level the
 *       curve rose to);</li>
 *   <li><b>scale-out</b> compares, per workload and database product ({@link TargetInfo#product()}), each target
 *       with {@code nodes == 1} against each with {@code nodes > 1} ({@code ScaleOut}).</li>
 * </ul>
 *
 * @param runId             the run
 * @param rounds            across rounds, per (target, workload, threads, op), {@code "*"} and each op
 * @param sweeps            across the concurrency sweep, per (target, workload) and round, {@code "*"} scope
 * @param scaleOut          across endpoints, per workload and (1-node, N-node) target pair, {@code "*"} scope
 * @param plateauMinGainPct least gain, % of the best lower level, that counts as still rising
 * @param plateauPatience   flat levels in a row that make a plateau
 * @param plateauSource     {@code "plan"}: the run's plan set the plateau stop ({@code RunStarted.settings}
 *                          {@code plateau}); {@code "default"}: it did not, the aggregator's default was used
 * @param stepsSummarized   steps of the run with a {@code "*"} step summary so far
 * @param stepsPending      steps that started ({@link StepStarted}) but have no {@code "*"} summary yet, ascending
 * @param complete          every step that started has its {@code "*"} summary and the run ended
 * @param atEpochMs         when the aggregator emitted this record (wall clock)
 * @param version           {@link #VERSION}; 1 for events without the field
 * @param deadLetters       input records of the run the aggregator could not read and sent to
 *                          {@code tailstream.deadletter}, by reason code ({@code bad_magic}, {@code checksum_mismatch},
 *                          {@code truncated}, {@code unsupported_version}, {@code corrupt_block} on the samples topic;
 *                          {@code invalid_json}, {@code unknown_event_type} on the control topic); absent (null) when
 *                          there were none. Optional: aggregators before it never wrote it
 */
public record RunSummary(
        String runId,
        List<RoundStats> rounds,
        List<Sweep> sweeps,
        List<ScaleOut> scaleOut,
        double plateauMinGainPct,
        int plateauPatience,
        String plateauSource,
        int stepsSummarized,
        List<Integer> stepsPending,
        boolean complete,
        long atEpochMs,
        int version,
        Map<String, Long> deadLetters) {

    /** {@link Sweep#round()} of the sweep over the across-round figures (every round of each level). */
    public static final int ALL_ROUNDS = 0;
    /** The version this contract writes. */
    public static final int VERSION = 2;

    public RunSummary {
        version = version <= 0 ? 1 : version;
        rounds = rounds == null ? List.of() : List.copyOf(rounds);
        sweeps = sweeps == null ? List.of() : List.copyOf(sweeps);
        scaleOut = scaleOut == null ? List.of() : List.copyOf(scaleOut);
        stepsPending = stepsPending == null ? List.of() : List.copyOf(stepsPending);
        deadLetters = deadLetters == null || deadLetters.isEmpty() ? null
                : Collections.unmodifiableMap(new TreeMap<>(deadLetters));
    }

    /** A run summary without dead letters. */
    public RunSummary(String runId, List<RoundStats> rounds, List<Sweep> sweeps, List<ScaleOut> scaleOut,
                      double plateauMinGainPct, int plateauPatience, String plateauSource, int stepsSummarized,
                      List<Integer> stepsPending, boolean complete, long atEpochMs, int version) {
        this(runId, rounds, sweeps, scaleOut, plateauMinGainPct, plateauPatience, plateauSource, stepsSummarized,
                stepsPending, complete, atEpochMs, version, null);
    }

    /** A version-1 run summary, as aggregators before version 2 wrote it. */
    public RunSummary(String runId, List<RoundStats> rounds, List<Sweep> sweeps, List<ScaleOut> scaleOut,
                      double plateauMinGainPct, int plateauPatience, String plateauSource, int stepsSummarized,
                      List<Integer> stepsPending, boolean complete, long atEpochMs) {
        this(runId, rounds, sweeps, scaleOut, plateauMinGainPct, plateauPatience, plateauSource, stepsSummarized,
                stepsPending, complete, atEpochMs, 1, null);
    }

    public String key() {
        return runId;
    }

    /**
     * A figure over the rounds of a group.
     *
     * @param mean   arithmetic mean of the rounds' values
     * @param stddev sample standard deviation (n - 1 in the denominator); null with a single round (undefined)
     * @param min    smallest round value
     * @param max    largest round value
     */
    public record Figure(double mean, Double stddev, double min, double max) {}

    /**
     * One (target, workload, threads, op) group across its rounds: each figure is that of the round's step summary
     * (QPS, TPS per second of measurement; latencies in µs from the step's merged histogram).
     *
     * @param op         {@link WindowStats#ALL_OPS} or one op
     * @param rounds     rounds in the group (steps whose scope measured samples)
     * @param stepIds    the rounds' steps, ascending
     * @param qps        statements of successful transactions per second of the measured span (version 1: of all
     *                   transactions, per second of whole windows)
     * @param tps        successful transactions per second
     * @param meanMicros mean latency, µs
     * @param p95Micros  P95 latency, µs
     * @param p99Micros  P99 latency, µs
     * @param pooledQps  Σ statements of successful transactions / Σ measured seconds over the rounds (the report's
     *                   row QPS; version 1: Σ statements of all transactions)
     * @param pooledTps  Σ successful transactions / Σ measured seconds over the rounds
     */
    public record RoundStats(String target, String workload, int threads, String op, int rounds,
                             List<Integer> stepIds, Figure qps, Figure tps, Figure meanMicros, Figure p95Micros,
                             Figure p99Micros, double pooledQps, double pooledTps) {

        public RoundStats {
            stepIds = stepIds == null ? List.of() : List.copyOf(stepIds);
        }
    }

    /**
     * A concurrency sweep of one (target, workload), {@code "*"} scope.
     *
     * @param round          1-based round number, or {@link #ALL_ROUNDS} for the sweep over every round
     * @param levels         measured thread counts, ascending
     * @param peakQps        highest {@link Level#qps()} of the levels
     * @param peakThreads    where it was reached (the lowest thread count on equal QPS)
     * @param plateauThreads where the plateau began, or null if the sweep never reached one
     * @param plateauQps     {@link Level#plateauQps()} of that level, or null
     */
    public record Sweep(String target, String workload, int round, List<Level> levels, double peakQps,
                        int peakThreads, Integer plateauThreads, Double plateauQps) {

        public Sweep {
            levels = levels == null ? List.of() : List.copyOf(levels);
        }
    }

    /**
     * One level of a sweep.
     *
     * @param threads    concurrency
     * @param qps        the level's QPS the peak is taken over: the round's step QPS, or for
     *                   {@link #ALL_ROUNDS} the pooled QPS of its rounds (as the report does)
     * @param plateauQps the level's QPS the plateau rule reads: the round's step QPS, or for {@link #ALL_ROUNDS}
     *                   the mean of its rounds' QPS (as the producer's sweep stop does)
     * @param rounds     rounds behind the level
     */
    public record Level(int threads, double qps, double plateauQps, int rounds) {}

    /**
     * Scale-out of one product on one workload: a 1-node target against an N-node target.
     *
     * @param basis         {@code "peak"}: each target at its own peak ({@link #ALL_ROUNDS} sweep, the report's
     *                      figure); {@code "threads"}: both at the same thread count, pooled QPS of every round
     * @param product       database product both targets report
     * @param singleTarget  the 1-node target
     * @param multiTarget   the N-node target
     * @param nodes         N
     * @param singleThreads the 1-node target's thread count (its peak's for {@code "peak"})
     * @param singleQps     its QPS there
     * @param multiThreads  the N-node target's thread count
     * @param multiQps      its QPS there
     * @param ratio         multiQps / singleQps; 0 when singleQps is 0
     */
    public record ScaleOut(String workload, String basis, String product, String singleTarget, String multiTarget,
                           int nodes, int singleThreads, double singleQps, int multiThreads, double multiQps,
                           double ratio) {

        public static final String PEAK = "peak";
        public static final String THREADS = "threads";
    }
}
