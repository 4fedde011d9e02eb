package io.tailstream.producer.group;

import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.ProducerReady;
import io.tailstream.schemas.event.RunEnded;
import io.tailstream.schemas.event.RunStarted;
import io.tailstream.schemas.event.StepGo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The rule by which the producers of a shared run agree on each step's start, from the run's control events in the
 * order of the control topic (one partition per run: every producer reads the same order). A step is decided by
 * whichever comes first:
 * <ul>
 *   <li>the {@link ProducerReady} that makes {@code expected} distinct producers ready (producers whose run ended
 *       count as ready to be left out): the step starts with the ready ones at the latest of their readiness times
 *       plus {@link ProducerReady#START_DELAY_MS};</li>
 *   <li>a {@link StepGo}: its participants and start.</li>
 * </ul>
 * Later events of a decided step change nothing. Every producer applies the rule to the same sequence and reaches
 * the same decision without a coordinator.
 *
 * <p>Not thread safe.
 */
final class StepAgreement {

    /**
     * A decided step.
     *
     * @param startAtEpochMs the agreed start, ms since the epoch
     * @param participants   the producers that run it, sorted
     */
    public record Agreed(long startAtEpochMs, List<String> participants) {
        public Agreed {
            participants = List.copyOf(participants);
        }
    }

    private final int expected;
    private final TreeSet<String> known = new TreeSet<>();
    private final TreeSet<String> ended = new TreeSet<>();
    private final Map<Integer, LinkedHashMap<String, Long>> ready = new HashMap<>();
    private final Map<Integer, Agreed> decided = new HashMap<>();

    /** @param expected producers the run was started with */
    public StepAgreement(int expected) {
        if (expected < 1) {
            throw new IllegalArgumentException("expected must be >= 1, was " + expected);
        }
        this.expected = expected;
    }

    /** Takes the run's next control event, in topic order. */
    public void accept(ControlEvent event) {
        if (event instanceof RunStarted e) {
            known.add(e.producerId());
        } else if (event instanceof ProducerReady e) {
            known.add(e.producerId());
            if (!decided.containsKey(e.stepId())) {
                ready.computeIfAbsent(e.stepId(), k -> new LinkedHashMap<>()).putIfAbsent(e.producerId(),
                        e.atEpochMs());
                decideIfComplete(e.stepId());
            }
        } else if (event instanceof StepGo e) {
            if (!decided.containsKey(e.stepId())) {
                decided.put(e.stepId(), new Agreed(e.startAtEpochMs(), e.participants()));
                ready.remove(e.stepId());
            }
        } else if (event instanceof RunEnded e) {
            known.add(e.producerId());
            if (ended.add(e.producerId())) {
                for (Integer step : List.copyOf(ready.keySet())) {
                    decideIfComplete(step);
                }
            }
        }
    }

    private void decideIfComplete(int stepId) {
        LinkedHashMap<String, Long> r = ready.get(stepId);
        if (r == null || r.isEmpty()) {
            return;
        }
        long gone = ended.stream().filter(p -> !r.containsKey(p)).count();
        if (r.size() + gone >= expected) {
            long latest = r.values().stream().mapToLong(Long::longValue).max().orElseThrow();
            decided.put(stepId, new Agreed(latest + ProducerReady.START_DELAY_MS, new ArrayList<>(new TreeSet<>(
                    r.keySet()))));
            ready.remove(stepId);
        }
    }

    /** The step's decision, once the events read so far made one. */
    public Optional<Agreed> decided(int stepId) {
        return Optional.ofNullable(decided.get(stepId));
    }

    /** Producers ready for a step not yet decided, in the order they became ready. */
    public List<String> ready(int stepId) {
        LinkedHashMap<String, Long> r = ready.get(stepId);
        return r == null ? List.of() : List.copyOf(r.keySet());
    }

    /**
     * What a producer whose join timeout passed publishes for an undecided step: a start {@code delayMs} from now
     * with the producers ready so far, naming the others the run knows of.
     */
    public StepGo timeoutGo(String runId, String producerId, int stepId, long nowMs) {
        TreeSet<String> participants = new TreeSet<>(ready(stepId));
        participants.add(producerId);
        TreeSet<String> missing = new TreeSet<>(known);
        missing.removeAll(participants);
        missing.removeAll(ended);
        int unseen = (int) Math.max(0, expected - participants.size() - missing.size()
                - ended.stream().filter(p -> !participants.contains(p)).count());
        return new StepGo(runId, nowMs, producerId, stepId, nowMs + ProducerReady.START_DELAY_MS,
                new ArrayList<>(participants), new ArrayList<>(missing), unseen);
    }
}
