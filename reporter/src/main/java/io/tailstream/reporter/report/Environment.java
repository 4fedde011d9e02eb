package io.tailstream.reporter.report;

import java.util.List;
import java.util.Map;

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
}
