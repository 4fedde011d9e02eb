package io.tailstream.producer;

import io.tailstream.analysis.Plateau;
import io.tailstream.producer.driver.StepSpec;
import io.tailstream.producer.group.ProducerGroup;
import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.producer.workload.Workloads;
import io.tailstream.schemas.block.SampleStatus;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A whole run: every target, every workload, every thread count, every round, in that nesting. Immutable; validated
 * at construction (workload names and options included) with messages naming the field and value.
 *
 * @param runId           the run's id, unique per run (also the Kafka key of its control events)
 * @param planName        the plan's name ("demo", a file name, "adhoc")
 * @param targets         databases under test, unique names
 * @param workloads       workloads with their options
 * @param threads         thread counts to sweep, in order
 * @param rounds          repetitions of each (target, workload, threads)
 * @param warmup          warm-up per step (samples flagged), may be zero
 * @param measure         measurement per step
 * @param intervalSeconds console interval lines every this many seconds, 0 for none
 * @param prepare         create and load every workload's tables on every target before its steps
 * @param ignoredErrors   error classes counted and skipped on every target (sysbench's {@code --mysql-ignore-errors});
 *                        others stop the step; null for each target's product default
 *                        ({@link io.tailstream.producer.target.Dialect#defaultIgnoredErrors()}), see
 *                        {@link #ignoredErrorsFor}
 * @param variables       server variables captured at step start, or null for the dialect's defaults
 * @param transactions    measured transactions per step (all threads together, failed ones included): the
 *                        measurement ends after this many or after {@code measure}, whichever comes first; null to
 *                        measure by time only
 * @param rate            open loop: total intended transactions per second, split evenly over the threads; null
 *                        for closed loop (no think time)
 * @param plateau         stop raising the thread count of a (target, workload) sweep when QPS stops rising; null
 *                        to run every thread count
 * @param clientCpuLimitPct a step is flagged client-bound when the load generator's own CPU (% of the machine, see
 *                        {@code ClientHealthMonitor}) reaches this
 * @param accept          verdict checks the plan waives ({@link #CHECKS}), sorted, each once; empty for none. The
 *                        producer only carries them ({@code RunSettings.accept}); the report applies them
 * @param reconnectTimeout how long a step may go on with no worker holding a connection (a server restart, a
 *                        failover) before it fails as unreachable; null for {@link #DEFAULT_RECONNECT_TIMEOUT}
 * @param producers       the load generators that share the run, each running this plan with the run's id; null for
 *                        a producer alone ({@link ProducerGroup#ALONE})
 * @param serverCounters  read each target's own counters once a second during its steps, on a connection of their
 *                        own ({@code ServerCounterSampler})
 */
public record RunPlan(
        String runId,
        String planName,
        List<Target> targets,
        List<WorkloadSpec> workloads,
        List<Integer> threads,
        int rounds,
        Duration warmup,
        Duration measure,
        int intervalSeconds,
        boolean prepare,
        Set<SampleStatus> ignoredErrors,
        List<String> variables,
        Long transactions,
        Double rate,
        Plateau plateau,
        double clientCpuLimitPct,
        List<String> accept,
        Duration reconnectTimeout,
        ProducerGroup producers,
        boolean serverCounters) {

    /** How long a step goes on without any connection by default: enough for a restart or a failover. */
    public static final Duration DEFAULT_RECONNECT_TIMEOUT =
            io.tailstream.producer.driver.StepDriver.UNREACHABLE_AFTER;

    /** sysbench-style closed-loop plans measure by time and flag a step client-bound above 50% process CPU. */
    public static final double DEFAULT_CLIENT_CPU_LIMIT_PCT = 50.0;

    /** Ids of the verdict checks a plan may waive with {@code accept}, in the report's order. */
    public static final List<String> CHECKS = List.of("clientBound", "durability", "isolation", "warmup", "errors",
            "dataSize", "rtt");

    public RunPlan {
        Objects.requireNonNull(runId, "runId");
        if (runId.isBlank() || runId.length() > 64 || runId.contains("/")) {
            throw new IllegalArgumentException("runId must be 1..64 characters without '/', was '" + runId + "'");
        }
        Objects.requireNonNull(planName, "planName");
        targets = List.copyOf(targets);
        workloads = List.copyOf(workloads);
        threads = List.copyOf(threads);
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("a plan needs at least one target");
        }
        Set<String> names = new HashSet<>();
        for (Target t : targets) {
            if (!names.add(t.name())) {
                throw new IllegalArgumentException("target name '" + t.name() + "' appears twice");
            }
        }
        if (workloads.isEmpty()) {
            throw new IllegalArgumentException("a plan needs at least one workload");
        }
        workloads.forEach(Workloads::create);
        if (threads.isEmpty()) {
            throw new IllegalArgumentException("a plan needs at least one thread count");
        }
        for (int n : threads) {
            if (n < 1 || n > 4096) {
                throw new IllegalArgumentException("threads must be in 1..4096, was " + n);
            }
        }
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be >= 1, was " + rounds);
        }
        StepSpec.requirePhases(warmup, measure, intervalSeconds);
        ignoredErrors = ignoredErrors == null ? null : Set.copyOf(ignoredErrors);
        if (ignoredErrors != null && ignoredErrors.contains(SampleStatus.OK)) {
            throw new IllegalArgumentException("ignoredErrors must name error classes, not ok");
        }
        variables = variables == null ? null : List.copyOf(variables);
        if (transactions != null && transactions < 1) {
            throw new IllegalArgumentException("transactions must be >= 1, was " + transactions);
        }
        if (rate != null && (!(rate > 0) || rate.isInfinite())) {
            throw new IllegalArgumentException("rate must be > 0 transactions/s, was " + rate);
        }
        if (!(clientCpuLimitPct > 0 && clientCpuLimitPct <= 100)) {
            throw new IllegalArgumentException("clientCpuLimitPct must be in (0, 100], was " + clientCpuLimitPct);
        }
        accept = accept == null ? List.of() : List.copyOf(new java.util.TreeSet<>(accept));
        for (String check : accept) {
            requireCheck(check);
        }
        reconnectTimeout = reconnectTimeout == null ? DEFAULT_RECONNECT_TIMEOUT : reconnectTimeout;
        if (reconnectTimeout.isNegative() || reconnectTimeout.isZero()) {
            throw new IllegalArgumentException("reconnectTimeout must be > 0, was " + reconnectTimeout);
        }
        producers = producers == null ? ProducerGroup.ALONE : producers;
        if (producers.shared()) {
            if (plateau != null) {
                throw new IllegalArgumentException("plateau cannot be combined with producers > 1: the sweep would"
                        + " stop on each producer's own QPS, not the step's");
            }
            for (Target t : targets) {
                if (prepare && !Dialect.forUrl(t.jdbcUrl()).embedded()) {
                    throw new IllegalArgumentException("prepare cannot be combined with producers > 1 on target '"
                            + t.name() + "': every producer would load the same tables; load them once with"
                            + " `tailstream prepare`, then start the producers without prepare");
                }
            }
        }
    }

    /** A plan that reads the server counters. */
    public RunPlan(String runId, String planName, List<Target> targets, List<WorkloadSpec> workloads,
                   List<Integer> threads, int rounds, Duration warmup, Duration measure, int intervalSeconds,
                   boolean prepare, Set<SampleStatus> ignoredErrors, List<String> variables, Long transactions,
                   Double rate, Plateau plateau, double clientCpuLimitPct, List<String> accept,
                   Duration reconnectTimeout, ProducerGroup producers) {
        this(runId, planName, targets, workloads, threads, rounds, warmup, measure, intervalSeconds, prepare,
                ignoredErrors, variables, transactions, rate, plateau, clientCpuLimitPct, accept, reconnectTimeout,
                producers, true);
    }

    /** A plan of a producer alone. */
    public RunPlan(String runId, String planName, List<Target> targets, List<WorkloadSpec> workloads,
                   List<Integer> threads, int rounds, Duration warmup, Duration measure, int intervalSeconds,
                   boolean prepare, Set<SampleStatus> ignoredErrors, List<String> variables, Long transactions,
                   Double rate, Plateau plateau, double clientCpuLimitPct, List<String> accept,
                   Duration reconnectTimeout) {
        this(runId, planName, targets, workloads, threads, rounds, warmup, measure, intervalSeconds, prepare,
                ignoredErrors, variables, transactions, rate, plateau, clientCpuLimitPct, accept, reconnectTimeout,
                null);
    }

    /** A plan with the default reconnect timeout. */
    public RunPlan(String runId, String planName, List<Target> targets, List<WorkloadSpec> workloads,
                   List<Integer> threads, int rounds, Duration warmup, Duration measure, int intervalSeconds,
                   boolean prepare, Set<SampleStatus> ignoredErrors, List<String> variables, Long transactions,
                   Double rate, Plateau plateau, double clientCpuLimitPct, List<String> accept) {
        this(runId, planName, targets, workloads, threads, rounds, warmup, measure, intervalSeconds, prepare,
                ignoredErrors, variables, transactions, rate, plateau, clientCpuLimitPct, accept, null);
    }

    /** A plan without waived checks. */
    public RunPlan(String runId, String planName, List<Target> targets, List<WorkloadSpec> workloads,
                   List<Integer> threads, int rounds, Duration warmup, Duration measure, int intervalSeconds,
                   boolean prepare, Set<SampleStatus> ignoredErrors, List<String> variables, Long transactions,
                   Double rate, Plateau plateau, double clientCpuLimitPct) {
        this(runId, planName, targets, workloads, threads, rounds, warmup, measure, intervalSeconds, prepare,
                ignoredErrors, variables, transactions, rate, plateau, clientCpuLimitPct, List.of());
    }

    /**
     * Refuses anything but a check id of {@link #CHECKS}.
     *
     * @throws IllegalArgumentException naming the value and the valid ids
     */
    public static String requireCheck(String check) {
        if (!CHECKS.contains(check)) {
            throw new IllegalArgumentException("'" + check + "' is not a verdict check (one of " + CHECKS + ")");
        }
        return check;
    }

    /** A closed-loop plan measured by time, every thread count run, client-bound above 50% CPU. */
    public RunPlan(String runId, String planName, List<Target> targets, List<WorkloadSpec> workloads,
                   List<Integer> threads, int rounds, Duration warmup, Duration measure, int intervalSeconds,
                   boolean prepare, Set<SampleStatus> ignoredErrors, List<String> variables) {
        this(runId, planName, targets, workloads, threads, rounds, warmup, measure, intervalSeconds, prepare,
                ignoredErrors, variables, null, null, null, DEFAULT_CLIENT_CPU_LIMIT_PCT);
    }

    /**
     * The error classes a step on {@code target} ignores: the plan's, or the default of the target's product when the
     * plan names none.
     */
    public Set<SampleStatus> ignoredErrorsFor(Target target) {
        return ignoredErrors != null ? ignoredErrors : Dialect.forUrl(target.jdbcUrl()).defaultIgnoredErrors();
    }

    /** A plan that prepares the data, ignores each product's default errors and captures the dialects' variables. */
    public static RunPlan of(String runId, String planName, List<Target> targets, List<WorkloadSpec> workloads,
                             List<Integer> threads, int rounds, Duration warmup, Duration measure,
                             int intervalSeconds) {
        return new RunPlan(runId, planName, targets, workloads, threads, rounds, warmup, measure, intervalSeconds,
                true, null, null);
    }

    /** The same plan with another prepare flag. */
    public RunPlan withPrepare(boolean prepareData) {
        return new RunPlan(runId, planName, targets, workloads, threads, rounds, warmup, measure, intervalSeconds,
                prepareData, ignoredErrors, variables, transactions, rate, plateau, clientCpuLimitPct, accept,
                reconnectTimeout, producers, serverCounters);
    }

    /** The same plan with another driver: transaction limit, open-loop rate, plateau stop and client CPU limit. */
    public RunPlan withDriver(Long transactionLimit, Double totalRate, Plateau plateauStop, double cpuLimitPct) {
        return new RunPlan(runId, planName, targets, workloads, threads, rounds, warmup, measure, intervalSeconds,
                prepare, ignoredErrors, variables, transactionLimit, totalRate, plateauStop, cpuLimitPct, accept,
                reconnectTimeout, producers, serverCounters);
    }

    /** The same plan with another run id. */
    public RunPlan withRunId(String id) {
        return new RunPlan(id, planName, targets, workloads, threads, rounds, warmup, measure, intervalSeconds,
                prepare, ignoredErrors, variables, transactions, rate, plateau, clientCpuLimitPct, accept,
                reconnectTimeout, producers, serverCounters);
    }

    /** The same plan with console interval lines every {@code seconds} (0: none). */
    public RunPlan withIntervalSeconds(int seconds) {
        return new RunPlan(runId, planName, targets, workloads, threads, rounds, warmup, measure, seconds,
                prepare, ignoredErrors, variables, transactions, rate, plateau, clientCpuLimitPct, accept,
                reconnectTimeout, producers, serverCounters);
    }

    /** The same plan waiving {@code checks} (ids of {@link #CHECKS}). */
    public RunPlan withAccept(java.util.Collection<String> checks) {
        return new RunPlan(runId, planName, targets, workloads, threads, rounds, warmup, measure, intervalSeconds,
                prepare, ignoredErrors, variables, transactions, rate, plateau, clientCpuLimitPct, List.copyOf(checks),
                reconnectTimeout, producers, serverCounters);
    }

    /** The same plan with another reconnect timeout. */
    public RunPlan withReconnectTimeout(Duration timeout) {
        return new RunPlan(runId, planName, targets, workloads, threads, rounds, warmup, measure, intervalSeconds,
                prepare, ignoredErrors, variables, transactions, rate, plateau, clientCpuLimitPct, accept, timeout,
                producers, serverCounters);
    }

    /** The same plan run by {@code group}. */
    public RunPlan withProducers(ProducerGroup group) {
        return new RunPlan(runId, planName, targets, workloads, threads, rounds, warmup, measure, intervalSeconds,
                prepare, ignoredErrors, variables, transactions, rate, plateau, clientCpuLimitPct, accept,
                reconnectTimeout, group, serverCounters);
    }

    /** The same plan with the server counters read or not. */
    public RunPlan withServerCounters(boolean read) {
        return new RunPlan(runId, planName, targets, workloads, threads, rounds, warmup, measure, intervalSeconds,
                prepare, ignoredErrors, variables, transactions, rate, plateau, clientCpuLimitPct, accept,
                reconnectTimeout, producers, read);
    }

    /** Largest thread count: what each target's pool is sized to (plus one for metadata). */
    public int maxThreads() {
        return threads.stream().mapToInt(Integer::intValue).max().orElse(1);
    }

    /** Steps the plan runs at most (a plateau stop may end a sweep early). */
    public int stepCount() {
        return targets.size() * workloads.size() * threads.size() * rounds;
    }
}
