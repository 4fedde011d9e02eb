package io.tailstream.benchmarks;

import java.util.SortedMap;

/**
 * The thread roles by which the emission benchmarks split the load generator's CPU (workers, emitter, Kafka client,
 * an in-process broker, other), plus the JVM's own work and a broker in a process of its own. Stateless.
 */
final class EmissionRoles {

    static final String EMITTER = "emitter";
    static final String KAFKA_CLIENT = "kafka client";
    /** Role of the JVM's CPU beyond its Java threads. */
    static final String JVM = "jvm (gc, jit)";
    /** Role of a broker in its own process (not part of this process's CPU). */
    static final String BROKER_PROCESS = "broker process (not counted above)";

    private EmissionRoles() {}

    /** CPU nanoseconds used from {@code from} to {@code to} by role, the JVM's own and a separate broker's included. */
    static SortedMap<String, Long> cpuBetween(CpuSnapshot from, CpuSnapshot to) {
        SortedMap<String, Long> byRole = to.threadCpuByRoleSince(from, EmissionRoles::of);
        byRole.put(JVM, to.jvmCpuSince(from));
        if (to.hasOtherProcess()) {
            byRole.put(BROKER_PROCESS, to.otherProcessCpuSince(from));
        }
        return byRole;
    }

    static String of(String threadName) {
        if (threadName.startsWith("tailstream-worker")) {
            return "workers";
        }
        if (threadName.startsWith("tailstream-emitter") || threadName.startsWith("tailstream-spool")) {
            return EMITTER;
        }
        if (threadName.startsWith("kafka-producer-network-thread")) {
            return KAFKA_CLIENT;
        }
        if (threadName.startsWith("data-plane") || threadName.startsWith("kafka-") || threadName.startsWith("quorum")
                || threadName.contains("raft") || threadName.startsWith("ExpirationReaper")
                || threadName.startsWith("broker") || threadName.startsWith("controller")) {
            return "broker";
        }
        return "other";
    }
}
