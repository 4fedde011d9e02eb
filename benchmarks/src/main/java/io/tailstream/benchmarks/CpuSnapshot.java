package io.tailstream.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The process's CPU time at one instant, in total and per live Java thread, plus a broker process's when it runs
 * apart. Two snapshots give the CPU used between them by thread role (workers, emitter, Kafka client, broker, ...);
 * what the process used beyond its Java threads is the JVM's own (GC, JIT).
 */
record CpuSnapshot(long nanoTime, long processCpu, Map<Long, Long> threadCpu, Map<Long, String> names,
                   long brokerProcessCpu) {

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** Role of the JVM's CPU beyond its Java threads. */
    static final String JVM = "jvm (gc, jit)";
    /** Role of a broker in its own process (not part of this process's CPU). */
    static final String BROKER_PROCESS = "broker process (not counted above)";

    /** Thread names by id, looked up once per thread. */
    private static final Map<Long, String> NAMES = new ConcurrentHashMap<>();

    /**
     * Takes a snapshot without stopping the application's threads (no thread dump: ids, CPU clocks, and names looked
     * up once per new thread), so that taking snapshots often does not disturb what they measure.
     *
     * @param brokerProcessCpu CPU time of a broker in another process (ns), or 0 when it is in this one
     */
    static CpuSnapshot take(LongSupplier brokerProcessCpu) {
        Map<Long, Long> cpu = new HashMap<>();
        Map<Long, String> names = new HashMap<>();
        for (long id : THREADS.getAllThreadIds()) {
            long ns = THREADS.getThreadCpuTime(id);
            String name = NAMES.computeIfAbsent(id, CpuSnapshot::threadName);
            if (ns >= 0 && name != null) {
                cpu.put(id, ns);
                names.put(id, name);
            }
        }
        return new CpuSnapshot(System.nanoTime(), OS.getProcessCpuTime(), cpu, names, brokerProcessCpu.getAsLong());
    }

    private static String threadName(long id) {
        ThreadInfo info = THREADS.getThreadInfo(id);
        return info == null ? null : info.getThreadName();
    }

    /** Process CPU nanoseconds used since {@code from}. */
    long processCpuSince(CpuSnapshot from) {
        return processCpu - from.processCpu;
    }

    /** Wall-clock seconds since {@code from}. */
    double secondsSince(CpuSnapshot from) {
        return (nanoTime - from.nanoTime) / 1e9;
    }

    /** CPU nanoseconds used since {@code from} by thread role, the JVM's own and a separate broker's included. */
    Map<String, Long> byRoleSince(CpuSnapshot from) {
        Map<String, Long> byRole = new TreeMap<>();
        long javaThreads = 0;
        for (Map.Entry<Long, Long> e : threadCpu.entrySet()) {
            long used = e.getValue() - from.threadCpu.getOrDefault(e.getKey(), 0L);
            byRole.merge(role(names.get(e.getKey())), used, Long::sum);
            javaThreads += used;
        }
        byRole.put(JVM, processCpuSince(from) - javaThreads);
        if (brokerProcessCpu != 0) {
            byRole.put(BROKER_PROCESS, brokerProcessCpu - from.brokerProcessCpu);
        }
        return byRole;
    }

    static String role(String name) {
        if (name.startsWith("tailstream-worker")) {
            return "workers";
        }
        if (name.startsWith("tailstream-emitter") || name.startsWith("tailstream-spool")) {
            return "emitter";
        }
        if (name.startsWith("kafka-producer-network-thread")) {
            return "kafka client";
        }
        if (name.startsWith("data-plane") || name.startsWith("kafka-") || name.startsWith("quorum")
                || name.contains("raft") || name.startsWith("ExpirationReaper")
                || name.startsWith("broker") || name.startsWith("controller")) {
            return "broker";
        }
        return "other";
    }
}
