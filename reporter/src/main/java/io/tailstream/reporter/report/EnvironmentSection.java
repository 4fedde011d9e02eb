package io.tailstream.reporter.report;

import io.tailstream.reporter.report.Environment.Duration;
import io.tailstream.reporter.report.Environment.TargetEnv;
import io.tailstream.reporter.report.Environment.VariableRow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The environment section: targets with their RTT probe and client health, server variables (durability settings
 * first, differences marked) and per target and workload the warm-up, measurement and rounds. Stateless.
 */
final class EnvironmentSection {

    /** Commit-durability settings, shown first and compared by the checklist (MySQL/MariaDB, PostgreSQL). */
    static final List<String> DURABILITY = List.of("innodb_flush_log_at_trx_commit", "sync_binlog", "log_bin",
            "innodb_doublewrite", "innodb_flush_method", "binlog_format", "rpl_semi_sync_master_enabled",
            "rpl_semi_sync_source_enabled", "rpl_semi_sync_master_wait_point", "synchronous_commit", "fsync",
            "full_page_writes", "wal_sync_method", "commit_delay", "synchronous_standby_names",
            FairnessProfile.H2_STORAGE, "WRITE_DELAY", "durability");
    /**
     * Settings that change results by several times (a 128 MB buffer pool against 48 GB, I/O capacity, log size),
     * shown after durability.
     */
    static final List<String> KEY_VARIABLES = List.of("innodb_buffer_pool_size", "innodb_io_capacity",
            "innodb_io_capacity_max", "innodb_log_file_size", "innodb_redo_log_capacity", "max_connections",
            "shared_buffers", "effective_cache_size", "CACHE_SIZE", FairnessProfile.DATA_BYTES, "thread_handling",
            FairnessProfile.ISOLATION, "transaction_isolation", "tx_isolation", "default_transaction_isolation");

    /** Client health of one step: the client CPU figure the checks use, and whether the producer flagged it. */
    record Health(Double cpuPct, boolean clientBound) {}

    private EnvironmentSection() {}

    static Environment environment(Map<String, TargetEnv> targets, Map<String, Map<String, String>> variables,
                                   List<StepInfo> steps) {
        return new Environment(List.copyOf(targets.values()), variableRows(variables), durations(steps));
    }

    private static List<VariableRow> variableRows(Map<String, Map<String, String>> variables) {
        Set<String> names = new TreeSet<>();
        variables.values().forEach(v -> names.addAll(v.keySet()));
        List<String> order = new ArrayList<>();
        DURABILITY.stream().filter(names::contains).forEach(order::add);
        KEY_VARIABLES.stream().filter(names::contains).forEach(order::add);
        names.stream().filter(n -> !order.contains(n)).forEach(order::add);
        List<VariableRow> rows = new ArrayList<>();
        for (String n : order) {
            Map<String, String> values = new TreeMap<>();
            variables.forEach((t, v) -> {
                if (v.containsKey(n) && v.get(n) != null) {
                    values.put(t, v.get(n));
                }
            });
            boolean differs = new TreeSet<>(values.values()).size() > 1 || values.size() < variables.size();
            rows.add(new VariableRow(n, values, DURABILITY.contains(n), differs));
        }
        return rows;
    }

    private static List<Duration> durations(List<StepInfo> steps) {
        Map<String, List<StepInfo>> byTw = new TreeMap<>();
        steps.forEach(s -> byTw.computeIfAbsent(s.target() + "\u0000" + s.workload(), k -> new ArrayList<>()).add(s));
        List<Duration> durations = new ArrayList<>();
        for (List<StepInfo> group : byTw.values()) {
            StepInfo f = group.get(0);
            Map<Integer, Integer> roundsByThreads = new TreeMap<>();
            group.forEach(s -> roundsByThreads.merge(s.threads(), 1, Integer::sum));
            durations.add(new Duration(f.target(), f.workload(),
                    group.stream().mapToLong(StepInfo::warmupMs).min().orElse(0),
                    group.stream().mapToLong(StepInfo::warmupMs).max().orElse(0),
                    group.stream().mapToLong(StepInfo::measureMs).min().orElse(0),
                    group.stream().mapToLong(StepInfo::measureMs).max().orElse(0),
                    roundsByThreads.values().stream().mapToInt(Integer::intValue).min().orElse(0),
                    List.copyOf(roundsByThreads.keySet()), producerSplits(group)));
        }
        return durations;
    }

    /** How the steps run by several producers split their threads, e.g. {@code "4 = gen-a 2 + gen-b 2"}; distinct. */
    private static List<String> producerSplits(List<StepInfo> steps) {
        Set<String> out = new LinkedHashSet<>();
        for (StepInfo s : steps) {
            if (s.producerThreads().size() > 1) {
                StringBuilder b = new StringBuilder().append(s.threads()).append(" = ");
                s.producerThreads().forEach((producer, threads) -> b.append(producer).append(' ').append(threads)
                        .append(" + "));
                out.add(b.substring(0, b.length() - 3));
            }
        }
        return List.copyOf(out);
    }

    /** Per target, the median over its steps of the RTT probe's median, in ms (targets without probes absent). */
    static Map<String, Double> probeRttMs(List<StepInfo> steps, Map<StepKey, EvidenceLoader.StepFacts> facts) {
        Map<String, List<Double>> by = new TreeMap<>();
        for (StepInfo s : steps) {
            EvidenceLoader.StepFacts f = facts.get(StepKey.of(s));
            if (f != null && f.probe() != null) {
                by.computeIfAbsent(s.target(), k -> new ArrayList<>()).add(f.probe().p50Us() / 1000);
            }
        }
        Map<String, Double> out = new HashMap<>();
        by.forEach((t, v) -> out.put(t, RttCheck.median(v)));
        return out;
    }

    /** Targets with their median probe RTT, their highest step client CPU and their client-bound steps. */
    static Map<String, TargetEnv> withHealth(Map<String, TargetEnv> targets, List<StepInfo> steps,
                                             Map<StepKey, Health> health, Map<String, Double> rtt) {
        if (health.isEmpty() && rtt.isEmpty()) {
            return targets;
        }
        Map<String, Double> cpuMax = new HashMap<>();
        Map<String, List<String>> bound = new HashMap<>();
        for (StepInfo s : steps) {
            Health h = health.get(StepKey.of(s));
            if (h == null) {
                continue;
            }
            if (h.cpuPct() != null) {
                cpuMax.merge(s.target(), h.cpuPct(), Math::max);
            }
            if (h.clientBound()) {
                // the row already names the target: workload and concurrency are what tell the steps apart
                String label = s.workload() + " @" + s.threads() + (s.round() > 1 ? " r" + s.round() : "");
                List<String> labels = bound.computeIfAbsent(s.target(), k -> new ArrayList<>());
                if (!labels.contains(label)) {
                    labels.add(label);
                }
            }
        }
        Map<String, TargetEnv> out = new TreeMap<>();
        targets.forEach((name, t) -> out.put(name, new TargetEnv(t.name(), t.product(), t.version(), t.url(),
                t.nodes(), t.monthlyCost(), t.currency(), rtt.get(name), cpuMax.get(name),
                bound.getOrDefault(name, List.of()), t.costItems())));
        return out;
    }
}
