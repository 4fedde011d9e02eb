package io.tailstream.producer.health;

import java.util.HashMap;
import java.util.Map;

/**
 * Splits the process's CPU between two readings: the load generator's threads ({@link LoadGenThreads}), every other
 * Java thread (an in-process broker, aggregator or archiver: the pipeline), and the JVM's own work that runs on no
 * Java thread (JIT compilers, GC): the process's CPU less that of every Java thread. One batched read of every
 * thread's CPU per reading; names are read once per thread, when it is first seen. Not thread safe: one reader (the
 * health sampler).
 */
final class CpuAccount {

    /** CPU of one interval, ns, by role. */
    record Split(long wallNanos, long processNanos, long loadGenNanos, long pipelineNanos, long jvmNanos) {

        /** {@code nanos} as % of the whole machine over the interval. */
        double pct(long nanos, int cpus) {
            return wallNanos <= 0 || cpus <= 0 ? 0 : nanos * 100.0 / ((double) wallNanos * cpus);
        }
    }

    private final ThreadCpuSource source;
    private final LoadGenThreads loadGen;
    /** Each live thread's CPU at the last reading. */
    private Map<Long, Long> lastCpu = new HashMap<>();
    /** Each live thread's role, decided when it was first seen. */
    private final Map<Long, Boolean> isLoadGen = new HashMap<>();
    private long lastProcessNanos;
    private long lastWallNanos;

    /** Starts counting from now: CPU the threads used before is not attributed. */
    CpuAccount(ThreadCpuSource source, LoadGenThreads loadGen, long wallNanos) {
        this.source = source;
        this.loadGen = loadGen;
        this.lastWallNanos = wallNanos;
        if (source.threadCpuSupported()) {
            long[] ids = source.liveThreadIds();
            long[] cpu = source.threadCpuNanos(ids);
            for (int i = 0; i < ids.length; i++) {
                if (cpu[i] >= 0) {
                    lastCpu.put(ids[i], cpu[i]);
                }
            }
        }
        this.lastProcessNanos = source.processCpuNanos();
    }

    /** The CPU since the last reading, by role; without per-thread CPU everything but the process is 0. */
    Split read(long wallNanos) {
        long wall = wallNanos - lastWallNanos;
        lastWallNanos = wallNanos;
        if (!source.threadCpuSupported()) {
            return new Split(wall, processDelta(), 0, 0, 0);
        }
        long[] ids = source.liveThreadIds();
        long[] cpu = source.threadCpuNanos(ids);
        // the process after its threads, so it includes everything they were read with
        long processDelta = processDelta();
        classifyNew(ids);
        long gen = 0;
        long pipeline = 0;
        Map<Long, Long> now = new HashMap<>(ids.length * 2);
        for (int i = 0; i < ids.length; i++) {
            if (cpu[i] < 0) {
                continue; // ended between the two reads: its last interval is in the JVM's share
            }
            long delta = Math.max(0, cpu[i] - lastCpu.getOrDefault(ids[i], 0L));
            now.put(ids[i], cpu[i]);
            if (Boolean.TRUE.equals(isLoadGen.get(ids[i]))) {
                gen += delta;
            } else {
                pipeline += delta;
            }
        }
        for (Map.Entry<Long, Long> r : loadGen.takeRetired().entrySet()) {
            if (!now.containsKey(r.getKey())) {
                gen += Math.max(0, r.getValue() - lastCpu.getOrDefault(r.getKey(), 0L));
            }
        }
        isLoadGen.keySet().retainAll(now.keySet());
        lastCpu = now;
        long jvm = Math.max(0, processDelta - gen - pipeline);
        return new Split(wall, processDelta, gen, pipeline, jvm);
    }

    private long processDelta() {
        long process = source.processCpuNanos();
        long delta = Math.max(0, process - lastProcessNanos);
        lastProcessNanos = process;
        return delta;
    }

    private void classifyNew(long[] ids) {
        int unknown = 0;
        for (long id : ids) {
            if (!isLoadGen.containsKey(id)) {
                unknown++;
            }
        }
        if (unknown == 0) {
            return;
        }
        long[] fresh = new long[unknown];
        int j = 0;
        for (long id : ids) {
            if (!isLoadGen.containsKey(id)) {
                fresh[j++] = id;
            }
        }
        String[] names = source.threadNames(fresh);
        for (int i = 0; i < fresh.length; i++) {
            isLoadGen.put(fresh[i], loadGen.isLoadGen(fresh[i], names[i]));
        }
    }
}
