package io.tailstream.aggregator.step;

import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.StepSummary;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * What stage 3 remembers about a run for its {@link io.tailstream.schemas.event.RunSummary}; JSON in a change-logged
 * store, one entry per run, removed a grace period after the run summary was last published (or after a long
 * silence for a run that never ends: {@link #expired}). Times are wall clock, ms since the epoch. Immutable.
 *
 * @param plateauMinGainPct the plan's plateau threshold ({@code RunStarted.settings} {@code plateau}), or null
 * @param plateauPatience   the plan's plateau patience, or null
 * @param steps             steps that started, by step id (as a string: JSON object keys)
 * @param figures           the latest step summary figures, by {@code stepId/op}
 * @param ended             a {@code RunEnded} arrived
 * @param publishedAtMs     wall clock of the last run summary published, -1 before the first
 * @param updatedAtMs       wall clock of the last change
 * @param deadLetters       input records of the run sent to the dead-letter topic, by reason code
 */
public record RunState(String runId, Double plateauMinGainPct, Integer plateauPatience, Map<String, StepDesc> steps,
                       Map<String, StepFigures> figures, boolean ended, long publishedAtMs, long updatedAtMs,
                       Map<String, Long> deadLetters) {

    /**
     * How long a run's state outlives its last run summary: late step summaries (late corrections of windows within
     * the window grace, other producers' {@code StepEnded}) come within seconds; ten minutes is generous.
     */
    static final Duration RUN_GRACE = Duration.ofMinutes(10);
    /** A run that never ends (its producer was killed) is dropped after this long without a change: the topics'
     *  retention, past which its data could not be re-aggregated anyway. */
    static final Duration RUN_IDLE_LIMIT = Duration.ofDays(7);

    public RunState {
        steps = steps == null ? Map.of() : new TreeMap<>(steps);
        figures = figures == null ? Map.of() : new TreeMap<>(figures);
        deadLetters = deadLetters == null ? Map.of() : new TreeMap<>(deadLetters);
    }

    public static RunState start(String runId, long nowMs) {
        return new RunState(runId, null, null, Map.of(), Map.of(), false, -1, nowMs, Map.of());
    }

    RunState withPlateau(Double minGainPct, Integer patience, long nowMs) {
        return new RunState(runId, minGainPct, patience, steps, figures, ended, publishedAtMs, nowMs, deadLetters);
    }

    RunState withStep(StepDesc step, long nowMs) {
        Map<String, StepDesc> next = new TreeMap<>(steps);
        next.put(String.valueOf(step.stepId()), step);
        return new RunState(runId, plateauMinGainPct, plateauPatience, next, figures, ended, publishedAtMs,
                nowMs, deadLetters);
    }

    /** Records a producer's {@code StepStarted}: the step's target, workload and round, and the producer's threads. */
    RunState withStepStarted(StepStarted e, long nowMs) {
        String target = e.target() == null || e.target().name() == null ? "" : e.target().name();
        // several producers may run the step: its threads are all of theirs together
        StepDesc previous = steps.get(String.valueOf(e.stepId()));
        Map<String, Integer> producerThreads = new TreeMap<>(previous == null ? Map.of() : previous.producerThreads());
        producerThreads.put(e.producerId(), e.threads());
        int threads = producerThreads.values().stream().mapToInt(Integer::intValue).sum();
        return withStep(new StepDesc(e.stepId(), target, e.target() == null ? null : e.target().product(),
                e.target() == null ? null : e.target().nodes(), e.workload() == null ? "" : e.workload(), threads,
                e.round(), producerThreads), nowMs);
    }

    RunState withFigures(StepFigures f, long nowMs) {
        Map<String, StepFigures> next = new TreeMap<>(figures);
        next.put(f.stepId() + "/" + f.op(), f);
        return new RunState(runId, plateauMinGainPct, plateauPatience, steps, next, ended, publishedAtMs,
                nowMs, deadLetters);
    }

    RunState withDeadLetter(String reason, long nowMs) {
        Map<String, Long> next = new TreeMap<>(deadLetters);
        next.merge(reason, 1L, Long::sum);
        return new RunState(runId, plateauMinGainPct, plateauPatience, steps, figures, ended, publishedAtMs, nowMs,
                next);
    }

    RunState endedAt(long nowMs) {
        return new RunState(runId, plateauMinGainPct, plateauPatience, steps, figures, true, publishedAtMs,
                nowMs, deadLetters);
    }

    RunState publishedAt(long nowMs) {
        return new RunState(runId, plateauMinGainPct, plateauPatience, steps, figures, ended, nowMs,
                updatedAtMs, deadLetters);
    }

    /**
     * The state is dropped: {@link #RUN_GRACE} after its last run summary, or {@link #RUN_IDLE_LIMIT} after its last
     * change if the run never ends.
     */
    boolean expired(long nowMs) {
        boolean published = ended && publishedAtMs >= 0 && nowMs - publishedAtMs >= RUN_GRACE.toMillis();
        return published || nowMs - updatedAtMs >= RUN_IDLE_LIMIT.toMillis();
    }

    /**
     * A step as its {@code StepStarted} described it.
     *
     * @param product the target's database product, or null
     * @param nodes           nodes serving the target, or null if the plan did not say
     * @param threads         threads of every producer of the step together
     * @param producerThreads each producer's threads, by producer id
     */
    public record StepDesc(int stepId, String target, String product, Integer nodes, String workload, int threads,
                           int round, Map<String, Integer> producerThreads) {

        public StepDesc {
            producerThreads = producerThreads == null ? Map.of() : new TreeMap<>(producerThreads);
        }
    }

    /**
     * The figures of one step summary the run summary reads.
     *
     * @param seconds   the step's measured span, seconds ({@code StepSummary.measuredSeconds})
     * @param okQueries statements of the successful measured samples
     */
    public record StepFigures(int stepId, String op, long count, long errors, long queries, double seconds,
                              double qps, double tps, double meanMicros, long p95Micros, long p99Micros,
                              long okQueries) {

        static StepFigures of(StepSummary s) {
            return new StepFigures(s.stepId(), s.op(), s.count(), s.errors(), s.queries(), s.measuredSeconds(), s.qps(),
                    s.tps(), s.meanMicros(), s.p95Micros(), s.p99Micros(), s.okQueries());
        }
    }
}
