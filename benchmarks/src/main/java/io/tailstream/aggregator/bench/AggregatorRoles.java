package io.tailstream.aggregator.bench;

import java.util.Map;
import java.util.StringJoiner;

/**
 * The thread roles by which the aggregator benchmarks split this JVM's CPU, from thread names: aggregator stream
 * threads, their Kafka producers, the in-process broker, the benchmark's own reader. Stateless.
 */
final class AggregatorRoles {

    static final String STREAM_THREADS = "aggregator stream threads";
    static final String STREAM_PRODUCERS = "aggregator producers";
    static final String BROKER = "broker";
    static final String BENCH = "benchmark reader (main)";
    static final String OTHER = "other";

    private AggregatorRoles() {}

    static String of(String threadName) {
        if (threadName.contains("StreamThread") && threadName.contains("producer")) {
            return STREAM_PRODUCERS;
        }
        if (threadName.contains("StreamThread")) {
            return STREAM_THREADS;
        }
        if (threadName.equals("main")) {
            return BENCH;
        }
        if (threadName.startsWith("data-plane") || threadName.startsWith("kafka-") || threadName.startsWith("quorum")
                || threadName.startsWith("broker") || threadName.startsWith("controller")
                || threadName.contains("raft") || threadName.startsWith("ExpirationReaper")
                || threadName.startsWith("LogDirFailureHandler") || threadName.startsWith("transaction")
                || threadName.startsWith("group-coordinator")) {
            return BROKER;
        }
        return OTHER;
    }

    /** "role ns, ..." per sample for every role, and the total of the Java threads, from CPU ns by role. */
    static String perSample(Map<String, Long> cpuByRole, long samples) {
        StringJoiner out = new StringJoiner(", ");
        long total = 0;
        for (String role : new String[] {STREAM_THREADS, STREAM_PRODUCERS, BROKER, BENCH, OTHER}) {
            long ns = cpuByRole.getOrDefault(role, 0L);
            out.add(String.format("%s %.1f", role, ns / (double) samples));
            total += ns;
        }
        out.add(String.format("total %.1f", total / (double) samples));
        return out.toString();
    }
}
