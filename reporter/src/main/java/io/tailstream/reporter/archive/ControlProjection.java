package io.tailstream.reporter.archive;

import io.tailstream.reporter.archive.ArchiveRows.RunRow;
import io.tailstream.reporter.archive.ArchiveRows.StepRow;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RttProbe;
import io.tailstream.schemas.event.RunEnded;
import io.tailstream.schemas.event.RunStarted;
import io.tailstream.schemas.event.Secrets;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.TargetInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Folds one run's control events (in topic order) into its {@code steps} rows and its {@code runs} row. Several
 * producers may run the same step or run: counts and threads are summed (each producer's threads as its
 * {@code step_started} says), start is the earliest, end the latest, CPU figures the highest, the round-trip probe
 * is the first producer's that measured one, and the outcome is {@code completed} only if every producer completed.
 * Of the periodic events ({@code client_health}, {@code server_counters}) only the producer and the time count (the
 * run's producers, and its start when no {@code run_started} was archived): {@link ControlHistory} relies on that. A pure function: the archiver recomputes
 * it from the run's complete {@code control} dataset whenever new control events arrive, which is what makes the
 * derived files safe to replace after a crash.
 */
final class ControlProjection {

    private ControlProjection() {}

    static List<StepRow> steps(List<ControlEvent> events) {
        Map<Integer, StepStarted> started = new TreeMap<>();
        Map<Integer, TreeSet<String>> producers = new TreeMap<>();
        Map<Integer, Map<String, Integer>> threads = new TreeMap<>();
        // a control event re-sent after a lost acknowledgement arrives twice: the last one per producer counts
        Map<Integer, Map<String, StepEnded>> ended = new TreeMap<>();
        Map<Integer, Long> firstStart = new TreeMap<>();
        Map<Integer, RttProbe> rtt = new TreeMap<>();
        for (ControlEvent e : events) {
            if (e instanceof StepStarted s) {
                started.putIfAbsent(s.stepId(), s);
                if (s.rtt() != null) {
                    rtt.putIfAbsent(s.stepId(), s.rtt());
                }
                firstStart.merge(s.stepId(), s.atEpochMs(), Math::min);
                producers.computeIfAbsent(s.stepId(), k -> new TreeSet<>()).add(s.producerId());
                threads.computeIfAbsent(s.stepId(), k -> new TreeMap<>()).put(s.producerId(), s.threads());
            } else if (e instanceof StepEnded s) {
                ended.computeIfAbsent(s.stepId(), k -> new TreeMap<>()).put(s.producerId(), s);
            }
        }
        List<StepRow> rows = new ArrayList<>();
        for (StepStarted s : started.values()) {
            int id = s.stepId();
            int producerCount = producers.get(id).size();
            List<StepEnded> ends = List.copyOf(ended.getOrDefault(id, Map.of()).values());
            // a step is ended when every producer that started it said so
            boolean complete = !ends.isEmpty() && ends.size() >= producerCount;
            TargetInfo t = s.target();
            rows.add(new StepRow(id,
                    t == null ? "" : t.name(),
                    t == null ? null : t.product(),
                    t == null ? null : t.version(),
                    t == null ? null : Secrets.redactUrl(t.url()),
                    s.workload(), threads.get(id).values().stream().mapToInt(Integer::intValue).sum(), s.round(),
                    s.warmupMs(), s.measureMs(), s.queriesPerTransaction(),
                    Json.writeString(s.ops()),
                    Json.writeString(new TreeMap<>(s.options())),
                    complete ? ends.stream().mapToLong(StepEnded::samplesSent).sum() : null,
                    complete ? ends.stream().mapToLong(StepEnded::blocksSent).sum() : null,
                    complete ? ends.stream().mapToLong(StepEnded::errors).sum() : null,
                    complete ? outcome(ends.stream().map(StepEnded::outcome).toList()) : null,
                    firstStart.get(id),
                    complete ? ends.stream().mapToLong(StepEnded::atEpochMs).max().orElseThrow() : null,
                    Json.writeString(t == null ? Map.of() : new TreeMap<>(t.variables())),
                    t == null ? null : t.monthlyCost(),
                    t == null ? null : t.currency(),
                    t == null ? null : t.nodes(),
                    producerCount,
                    t == null || t.costItems() == null ? null : Json.writeString(t.costItems()),
                    complete ? anyTrue(ends.stream().map(StepEnded::clientBound).toList()) : null,
                    complete ? sum(ends.stream().map(StepEnded::blocksSpooled).toList()) : null,
                    complete ? sum(ends.stream().map(StepEnded::controlEventsSpooled).toList()) : null,
                    complete ? max(ends.stream().map(StepEnded::maxSpoolBytes).toList()) : null,
                    complete ? boundary(ends, StepEnded::startEpochMicros, false) : null,
                    complete ? boundary(ends, StepEnded::measureStartEpochMicros, false) : null,
                    complete ? boundary(ends, StepEnded::measureEndEpochMicros, true) : null,
                    complete ? sum(ends.stream().map(StepEnded::reconnects).toList()) : null,
                    complete ? maxDouble(ends.stream().map(StepEnded::loadGenCpuPct).toList()) : null,
                    complete ? maxDouble(ends.stream().map(StepEnded::processCpuPct).toList()) : null,
                    rtt.get(id),
                    Json.writeString(threads.get(id))));
        }
        return rows;
    }

    static Optional<RunRow> run(List<ControlEvent> events) {
        if (events.isEmpty()) {
            return Optional.empty();
        }
        RunStarted first = null;
        TreeSet<String> producers = new TreeSet<>();
        Map<String, RunEnded> lastEnd = new TreeMap<>();
        long startedAt = Long.MAX_VALUE;
        for (ControlEvent e : events) {
            producers.add(e.producerId());
            if (e instanceof RunStarted s) {
                if (first == null) {
                    first = s;
                }
                startedAt = Math.min(startedAt, s.atEpochMs());
            } else if (e instanceof RunEnded r) {
                lastEnd.put(r.producerId(), r);
            }
        }
        List<RunEnded> ends = List.copyOf(lastEnd.values());
        if (startedAt == Long.MAX_VALUE) {
            startedAt = events.stream().mapToLong(ControlEvent::atEpochMs).min().orElseThrow();
        }
        boolean complete = !ends.isEmpty() && ends.size() >= producers.size();
        List<TargetInfo> targets = first == null ? List.of() : first.targets().stream()
                .map(t -> new TargetInfo(t.name(), Secrets.redactUrl(t.url()), t.product(), t.version(),
                        t.variables(), t.monthlyCost(), t.currency(), t.nodes(), t.notes(), t.costItems()))
                .toList();
        return Optional.of(new RunRow(
                first == null ? "(unknown: no run_started event)" : first.planName(),
                startedAt,
                complete ? ends.stream().mapToLong(RunEnded::atEpochMs).max().orElseThrow() : null,
                Json.writeString(List.copyOf(producers)),
                complete ? ends.stream().mapToLong(RunEnded::blocksSent).sum() : null,
                complete ? ends.stream().mapToLong(RunEnded::samplesSent).sum() : null,
                complete ? outcome(ends.stream().map(RunEnded::outcome).toList()) : null,
                Json.writeString(targets),
                Json.writeString(first == null ? Map.of() : new TreeMap<>(first.client())),
                Json.writeString(first == null ? Map.of() : first.settings()),
                complete ? anyTrue(ends.stream().map(RunEnded::clientBound).toList()) : null,
                complete ? sum(ends.stream().map(RunEnded::blocksSpooled).toList()) : null,
                complete ? sum(ends.stream().map(RunEnded::controlEventsSpooled).toList()) : null,
                complete ? max(ends.stream().map(RunEnded::maxSpoolBytes).toList()) : null));
    }

    /** True if any producer said so; null when none reported it (producers before event version 2). */
    private static Boolean anyTrue(List<Boolean> values) {
        return values.stream().anyMatch(Boolean.TRUE::equals) ? Boolean.TRUE
                : values.stream().anyMatch(java.util.Objects::nonNull) ? Boolean.FALSE : null;
    }

    /** The sum over the producers that reported it; null when none did. */
    private static Long sum(List<Long> values) {
        return values.stream().anyMatch(java.util.Objects::nonNull)
                ? values.stream().filter(java.util.Objects::nonNull).mapToLong(Long::longValue).sum() : null;
    }

    /**
     * A phase boundary over the producers: the earliest start or the latest end, so the step's span covers every
     * producer's. Null unless every producer reported it: a span missing one producer's part would not be exact.
     */
    private static Long boundary(List<StepEnded> ends, Function<StepEnded, Long> get, boolean latest) {
        if (ends.stream().map(get).anyMatch(java.util.Objects::isNull)) {
            return null;
        }
        return ends.stream().map(get).reduce(latest ? Math::max : Math::min).orElse(null);
    }

    /** The highest figure one producer reported (the busiest load generator); null when none did. */
    private static Double maxDouble(List<Double> values) {
        return values.stream().filter(java.util.Objects::nonNull).max(Double::compare).orElse(null);
    }

    /** The largest one producer reported (each spool is its own); null when none did. */
    private static Long max(List<Long> values) {
        return values.stream().filter(java.util.Objects::nonNull).max(Long::compare).orElse(null);
    }

    private static String outcome(List<String> outcomes) {
        return outcomes.stream().filter(o -> !"completed".equals(o)).findFirst().orElse("completed");
    }
}
