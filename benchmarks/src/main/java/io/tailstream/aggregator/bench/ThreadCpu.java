package io.tailstream.aggregator.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * CPU time consumed by this JVM's threads, grouped by role from thread names (aggregator stream threads, their Kafka
 * producers, the in-process broker, the benchmark's own reader). On a shared machine wall-clock throughput depends on
 * what else runs; CPU per sample does not, so benchmarks report both.
 */
final class ThreadCpu {

    static final String STREAM_THREADS = "aggregator stream threads";
    static final String STREAM_PRODUCERS = "aggregator producers";
    static final String BROKER = "broker";
    static final String BENCH = "benchmark reader (main)";
    static final String OTHER = "other";

    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

    private final Map<Long, Long> nanosByThread;
    private final Map<Long, String> groupByThread;

    private ThreadCpu(Map<Long, Long> nanosByThread, Map<Long, String> groupByThread) {
        this.nanosByThread = nanosByThread;
        this.groupByThread = groupByThread;
    }

    static ThreadCpu snapshot() {
        Map<Long, Long> nanos = new HashMap<>();
        Map<Long, String> groups = new HashMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            long cpu = MX.getThreadCpuTime(t.getId());
            if (cpu >= 0) {
                nanos.put(t.getId(), cpu);
                groups.put(t.getId(), groupOf(t.getName()));
            }
        }
        return new ThreadCpu(nanos, groups);
    }

    /** CPU used since {@code earlier}, per thread (threads that ended in between are not counted). */
    ThreadCpu minus(ThreadCpu earlier) {
        Map<Long, Long> diff = new HashMap<>();
        nanosByThread.forEach((id, ns) -> diff.put(id, ns - earlier.nanosByThread.getOrDefault(id, 0L)));
        return new ThreadCpu(diff, groupByThread);
    }

    long nanosOf(String group) {
        long sum = 0;
        for (Map.Entry<Long, Long> e : nanosByThread.entrySet()) {
            if (group.equals(groupByThread.get(e.getKey()))) {
                sum += e.getValue();
            }
        }
        return sum;
    }

    /** "group ns, ..." per sample, and the total. */
    String perSample(long samples) {
        Map<String, Long> byGroup = new LinkedHashMap<>();
        for (String g : new String[] {STREAM_THREADS, STREAM_PRODUCERS, BROKER, BENCH, OTHER}) {
            byGroup.put(g, nanosOf(g));
        }
        StringJoiner out = new StringJoiner(", ");
        long total = 0;
        for (Map.Entry<String, Long> e : byGroup.entrySet()) {
            out.add(String.format("%s %.1f", e.getKey(), e.getValue() / (double) samples));
            total += e.getValue();
        }
        out.add(String.format("total %.1f", total / (double) samples));
        return out.toString();
    }

    private static String groupOf(String name) {
        if (name.contains("StreamThread") && name.contains("producer")) {
            return STREAM_PRODUCERS;
        }
        if (name.contains("StreamThread")) {
            return STREAM_THREADS;
        }
        if (name.equals("main")) {
            return BENCH;
        }
        if (name.startsWith("data-plane") || name.startsWith("kafka-") || name.startsWith("quorum")
                || name.startsWith("broker") || name.startsWith("controller") || name.contains("raft")
                || name.startsWith("ExpirationReaper") || name.startsWith("LogDirFailureHandler")
                || name.startsWith("transaction") || name.startsWith("group-coordinator")) {
            return BROKER;
        }
        return OTHER;
    }
}
