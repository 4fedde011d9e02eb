package io.tailstream.reporter;

import io.tailstream.schemas.Topics;
import io.tailstream.schemas.event.ClientHealth;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.ServerCounters;
import io.tailstream.schemas.event.StallEvent;
import io.tailstream.schemas.event.StepSummary;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The stall, step-summary and client-health records an aggregator and producers would add to a {@link SyntheticRun}:
 * per step one stall published three times while open and once closed (the archive must keep only the last), one
 * closed latency stall, one summary per step (published twice, the second with a later {@code atEpochMs}), and
 * {@link #HEALTH_PER_PRODUCER_AND_STEP} client-health events per producer and step.
 */
public final class HistoryEvents {

    public static final int HEALTH_PER_PRODUCER_AND_STEP = 3;

    public final List<StallEvent> stalls = new ArrayList<>();
    public final List<StepSummary> summaries = new ArrayList<>();
    public final List<ClientHealth> health = new ArrayList<>();
    /** Per producer and step: two readings of the target's counters, then one that failed. */
    public final List<ServerCounters> counters = new ArrayList<>();

    public HistoryEvents(SyntheticRun run) {
        for (int i = 0; i < run.steps.size(); i++) {
            int step = i + 1;
            long t0 = run.stepStartMs0 + 10_000L * i;
            for (int k = 1; k <= 3; k++) {
                stalls.add(new StallEvent(run.runId, step, StallEvent.HARD, t0 + 1000, t0 + 1000 + 1000L * k, true,
                        1000.0, 0.0, 2000, 0, List.of("txn"), t0 + 1000 + 1000L * k + 10));
            }
            stalls.add(new StallEvent(run.runId, step, StallEvent.HARD, t0 + 1000, t0 + 5000, false, 1000.0, 0.0,
                    2000, 0, List.of("txn"), t0 + 5010));
            stalls.add(new StallEvent(run.runId, step, StallEvent.LATENCY, t0 + 7000, t0 + 8000, false, 1000.0,
                    900.0, 2000, 9000 + step, List.of(), t0 + 8010));
            for (int version = 0; version < 2; version++) {
                summaries.add(new StepSummary(run.runId, step, "*", t0, t0 + 2000, 1000 + version, 5, Map.of("deadlock",
                        5L), 20_000, 10_000.0, 497.5, 1100.5, 1000, 1500, 1800, 2500, 4000, 9000, 2, 5000, -1.5, 0.05,
                        false, 0, 0, null, t0 + 3000 + version));
            }
            for (String p : run.producers) {
                for (int k = 0; k < HEALTH_PER_PRODUCER_AND_STEP; k++) {
                    Map<String, Double> rtt = Map.of(run.steps.get(i).target(), 0.25 + k);
                    // the first producer writes event version 2 (the CPU split), the others version 1
                    health.add(run.producers.indexOf(p) == 0
                            ? new ClientHealth(run.runId, t0 + 1000L * k, p, step, 10.0 + k, 50.0 + k, k, 0, rtt,
                                    k == 2, 4.0 + k, 3.0 + k, 2.0 + k)
                            : new ClientHealth(run.runId, t0 + 1000L * k, p, step, 10.0 + k, 50.0 + k, k, 0, rtt,
                                    k == 2));
                }
                String target = run.steps.get(i).target();
                for (int k = 0; k < 2; k++) {
                    counters.add(new ServerCounters(run.runId, t0 + 1000L * k + 5, p, step, target,
                            Map.of("Threads_running", 3L + k + step, "state.Waiting for table metadata lock", 2L * k),
                            Map.of("Innodb_os_log_written", 1_000_000L * step + 65_536L * k,
                                    "Innodb_row_lock_waits", 7L + k), 900L + k, null));
                }
                counters.add(new ServerCounters(run.runId, t0 + 2005, p, step, target, null, null, 2_000_100,
                        "Connection is not available, request timed out after 2000ms"));
            }
        }
    }

    /** {@code runRecords} (a run's own records) followed by {@link #records()}: the run with its history events. */
    public List<SyntheticRun.Rec> after(List<SyntheticRun.Rec> runRecords) {
        List<SyntheticRun.Rec> out = new ArrayList<>(runRecords);
        out.addAll(records());
        return out;
    }

    /**
     * Stalls and summaries on their topics (one partition each), client health and server counters on the control
     * topic.
     */
    public List<SyntheticRun.Rec> records() {
        byte[] key = run(stalls.isEmpty() ? "" : stalls.get(0).runId());
        List<SyntheticRun.Rec> out = new ArrayList<>();
        stalls.forEach(s -> out.add(new SyntheticRun.Rec(Topics.STALLS, 0, s.key().getBytes(StandardCharsets.UTF_8),
                Json.write(s))));
        summaries.forEach(s -> out.add(new SyntheticRun.Rec(Topics.SUMMARIES, 0,
                s.key().getBytes(StandardCharsets.UTF_8), Json.write(s))));
        health.forEach(h -> out.add(new SyntheticRun.Rec(Topics.CONTROL, 0, key, Json.write(h))));
        counters.forEach(c -> out.add(new SyntheticRun.Rec(Topics.CONTROL, 0, key, Json.write(c))));
        return out;
    }

    private static byte[] run(String runId) {
        return runId.getBytes(StandardCharsets.UTF_8);
    }
}
