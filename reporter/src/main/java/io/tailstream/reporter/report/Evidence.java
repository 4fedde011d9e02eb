package io.tailstream.reporter.report;

import io.tailstream.schemas.event.Json;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The evidence behind a report: every step with what the checks need ({@link StepData}), and the plans' settings per
 * run ({@link CheckSettings}); {@link ValidityChecks} and {@link Checklist} judge it. Immutable, so thread safe.
 */
record Evidence(List<StepData> steps, Map<String, CheckSettings> runs) {
    public Evidence {
        steps = List.copyOf(steps);
        runs = Map.copyOf(runs);
    }

    /** No steps: verdicts are judged on the figures alone (for callers without step data). */
    public static final Evidence NONE = new Evidence(List.of(), Map.of());

    CheckSettings settings(String runId) {
        return runs.getOrDefault(runId, CheckSettings.DEFAULT);
    }

    /** The steps behind the given rows of a workload (target -> threads compared). */
    List<StepData> stepsOf(String workload, Map<String, Set<Integer>> rows) {
        return steps.stream().filter(s -> s.info().workload().equals(workload)
                && rows.getOrDefault(s.info().target(), Set.of()).contains(s.info().threads())).toList();
    }

    /** True when every run behind the steps waives the check. */
    boolean waived(String check, Collection<StepData> behind) {
        return !behind.isEmpty() && behind.stream().allMatch(s -> settings(s.info().runId()).accept()
                .contains(check));
    }

    /**
     * The RTT probe taken before a step (µs).
     *
     * @param method how it was measured, as the producer describes it
     */
    public record Probe(double p50Us, double p99Us, int samples, String method) {}

    /**
     * What the checks need of one step.
     *
     * @param warmupSamples   samples flagged as warm-up
     * @param warmupTailQps   mean QPS of the last quarter of the warm-up windows, or null without windows
     * @param measuredQps     mean QPS of the measured windows, or null
     * @param clientCpuPct    the client's CPU during the step, % of its machine: the load generator's own threads
     *                        ({@code cpuSource} {@code loadGen}) or, in archives without that figure, the whole
     *                        process ({@code process}); null without figures
     * @param clientBound     the producer flagged the step client-bound
     * @param variables       the target's variables captured at the step's start
     * @param product         the target's product name, or null
     * @param cpuSource       {@code loadGen} or {@code process}, or null with {@code clientCpuPct}
     * @param measuredSamples measured (non-warm-up) transactions, or null when the samples are not archived
     * @param measuredErrors  of those, the failed ones
     * @param probe           the RTT probe before the step, or null
     */
    public record StepData(StepInfo info, long warmupSamples, Double warmupTailQps, Double measuredQps,
                           Double clientCpuPct, boolean clientBound, Map<String, String> variables, String product,
                           String cpuSource, Long measuredSamples, Long measuredErrors, Probe probe) {
        /** CPU of the load generator's own threads. */
        public static final String LOAD_GEN = "loadGen";
        /** CPU of the whole client process (older archives). */
        public static final String PROCESS = "process";
        /** Name of the target variable that marks a database running on the load generator's threads. */
        public static final String EMBEDDED = "tailstream.embedded";

        public StepData {
            variables = variables == null ? Map.of() : Map.copyOf(variables);
        }

        public StepData(StepInfo info, long warmupSamples, Double warmupTailQps, Double measuredQps,
                        Double clientCpuPct, boolean clientBound, Map<String, String> variables) {
            this(info, warmupSamples, warmupTailQps, measuredQps, clientCpuPct, clientBound, variables, null,
                    clientCpuPct == null ? null : LOAD_GEN, null, null, null);
        }

        public StepData(StepInfo info, long warmupSamples, Double warmupTailQps, Double measuredQps,
                        Double clientCpuPct, boolean clientBound) {
            this(info, warmupSamples, warmupTailQps, measuredQps, clientCpuPct, clientBound, Map.of());
        }

        /** Failed share of the measured transactions in %, or null when unknown. */
        public Double errorPct() {
            return measuredSamples == null || measuredErrors == null || measuredSamples == 0 ? null
                    : measuredErrors * 100.0 / measuredSamples;
        }

        /**
         * True if the step's database ran inside the load generator's process (H2 in memory or on a local file), as
         * the producer marks it, or, in archives from before that mark, as an H2 URL without a TCP or SSL server says.
         */
        public boolean embedded() {
            if ("true".equals(variables.get(EMBEDDED))) {
                return true;
            }
            String url = info.url();
            return url != null && url.startsWith("jdbc:h2:") && !url.matches("(?i)jdbc:h2:(tcp|ssl):.*");
        }

        /** The profile of the step's target as the step saw it. */
        public FairnessProfile profile() {
            return FairnessProfile.of(info.target(), product, variables);
        }
    }

    /**
     * What a run's plan says about the checks.
     *
     * @param clientCpuLimitPct the client-bound limit the run used ({@code clientCpuLimitPct}, default 50)
     * @param accept            checks the plan waives for verdicts
     * @param unknownAccept     names in the plan's {@code accept} that are not checks a plan may waive (ignored)
     */
    public record CheckSettings(double clientCpuLimitPct, Set<String> accept, List<String> unknownAccept) {
        public CheckSettings {
            accept = Set.copyOf(accept);
            unknownAccept = List.copyOf(unknownAccept);
        }

        public static final CheckSettings DEFAULT = new CheckSettings(ValidityChecks.MAX_CLIENT_CPU_PCT, Set.of(),
                List.of());

        /**
         * From a run's settings as archived ({@code runs.settings}: {@link io.tailstream.schemas.event.RunSettings}
         * JSON of either version): {@code clientCpuLimitPct} and {@code accept}.
         *
         * @throws IllegalStateException when the settings are not JSON, naming the run
         */
        public static CheckSettings of(String runId, String settingsJson) {
            if (settingsJson == null || settingsJson.isBlank()) {
                return DEFAULT;
            }
            io.tailstream.schemas.event.RunSettings s;
            try {
                s = Json.read(settingsJson, io.tailstream.schemas.event.RunSettings.class);
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("runs dataset: settings of run " + runId + ": " + e.getMessage(), e);
            }
            if (s == null) {
                return DEFAULT;
            }
            Set<String> accept = new TreeSet<>();
            List<String> unknown = new ArrayList<>();
            (s.accept() == null ? List.<String>of() : s.accept())
                    .forEach(x -> (ValidityChecks.WAIVABLE.contains(x) ? accept : unknown).add(x));
            return new CheckSettings(s.clientCpuLimitPct() == null ? ValidityChecks.MAX_CLIENT_CPU_PCT
                    : s.clientCpuLimitPct(), accept, unknown);
        }
    }
}
