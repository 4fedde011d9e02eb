package io.tailstream.benchmarks;

import io.tailstream.producer.health.ThreadCpuSource;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * CPU time at one instant: this process's, each live Java thread's, and optionally another process's (a broker in a
 * child JVM), with the wall clock. Two snapshots give the CPU used between them, the Java threads' summed by a role
 * that the caller derives from thread names; what the process used beyond its Java threads is the JVM's own (GC,
 * JIT). On a shared machine wall-clock throughput depends on what else runs; CPU per unit of work does not, so the
 * benchmarks report both. Every benchmark reads CPU here, single clocks included ({@link #processCpuNanos()},
 * {@link #currentThreadCpuNanos()}, {@link #processCpuNanos(long)}). All figures are nanoseconds.
 *
 * <p>Immutable; {@link #take} may be called from any thread.
 */
public final class CpuSnapshot {

    private static final ThreadCpuSource JVM = ThreadCpuSource.jvm();
    /** Thread names by id, looked up once per thread. */
    private static final Map<Long, String> NAMES = new ConcurrentHashMap<>();

    private final long nanoTime;
    private final long processCpu;
    private final Map<Long, Long> threadCpu;
    private final long otherProcessCpu;

    private CpuSnapshot(long nanoTime, long processCpu, Map<Long, Long> threadCpu, long otherProcessCpu) {
        this.nanoTime = nanoTime;
        this.processCpu = processCpu;
        this.threadCpu = threadCpu;
        this.otherProcessCpu = otherProcessCpu;
    }

    /** A snapshot of this process alone. */
    public static CpuSnapshot take() {
        return take(() -> 0);
    }

    /**
     * Takes a snapshot without stopping the application's threads (no thread dump: ids, CPU clocks, and names looked
     * up once per new thread), so that taking snapshots often does not disturb what they measure.
     *
     * @param otherProcessCpu CPU time of another process read at the same instant (e.g. a broker's, with
     *                        {@link #processCpuNanos(long)}), or 0 when there is none
     */
    public static CpuSnapshot take(LongSupplier otherProcessCpu) {
        long[] ids = JVM.liveThreadIds();
        long[] cpu = JVM.threadCpuNanos(ids);
        nameNewThreads(ids);
        Map<Long, Long> threadCpu = new HashMap<>();
        for (int i = 0; i < ids.length; i++) {
            if (cpu[i] >= 0 && NAMES.containsKey(ids[i])) {
                threadCpu.put(ids[i], cpu[i]);
            }
        }
        return new CpuSnapshot(System.nanoTime(), JVM.processCpuNanos(), threadCpu, otherProcessCpu.getAsLong());
    }

    private static void nameNewThreads(long[] ids) {
        List<Long> unnamed = new ArrayList<>();
        for (long id : ids) {
            if (!NAMES.containsKey(id)) {
                unnamed.add(id);
            }
        }
        if (unnamed.isEmpty()) {
            return;
        }
        long[] lookup = unnamed.stream().mapToLong(Long::longValue).toArray();
        String[] names = JVM.threadNames(lookup);
        for (int i = 0; i < lookup.length; i++) {
            if (names[i] != null) { // null: the thread ended meanwhile
                NAMES.put(lookup[i], names[i]);
            }
        }
    }

    /** CPU time of this whole process since it started: every thread and the JVM's own work. */
    public static long processCpuNanos() {
        return JVM.processCpuNanos();
    }

    /** CPU time of the calling thread since it started. */
    public static long currentThreadCpuNanos() {
        return JVM.currentThreadCpuNanos();
    }

    /**
     * CPU time another process's live threads have run on a CPU, on Linux ({@code /proc/PID/task/TID/schedstat},
     * first field), or -1 if /proc cannot be read (not Linux, process gone). Threads that ended are not counted: call
     * it on a process whose threads live as long as the measurement (a broker).
     */
    public static long processCpuNanos(long pid) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        long total = 0;
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
            for (Path task : dir) {
                try {
                    String stat = Files.readString(task.resolve("schedstat")).trim();
                    total += Long.parseLong(stat.substring(0, stat.indexOf(' ')));
                } catch (IOException | RuntimeException e) {
                    // the thread ended between listing and reading
                }
            }
            return total;
        } catch (IOException e) {
            return -1;
        }
    }

    /** Wall-clock seconds since {@code from}. */
    public double secondsSince(CpuSnapshot from) {
        return (nanoTime - from.nanoTime) / 1e9;
    }

    /** CPU time of the whole process since {@code from}. */
    public long processCpuSince(CpuSnapshot from) {
        return processCpu - from.processCpu;
    }

    /**
     * CPU time of this snapshot's Java threads since {@code from}, summed by the role {@code roleOfName} gives each
     * thread's name, in role order. A thread that started after {@code from} counts in full, one that ended before
     * this snapshot not at all.
     */
    public SortedMap<String, Long> threadCpuByRoleSince(CpuSnapshot from, Function<String, String> roleOfName) {
        SortedMap<String, Long> byRole = new TreeMap<>();
        threadCpu.forEach((id, ns) -> byRole.merge(roleOfName.apply(NAMES.get(id)), ns - from.threadCpu(id),
                Long::sum));
        return byRole;
    }

    /**
     * CPU time of the process since {@code from} beyond this snapshot's Java threads: the JVM's own work (GC, JIT),
     * and threads that ended in between.
     */
    public long jvmCpuSince(CpuSnapshot from) {
        long javaThreads = 0;
        for (Map.Entry<Long, Long> e : threadCpu.entrySet()) {
            javaThreads += e.getValue() - from.threadCpu(e.getKey());
        }
        return processCpuSince(from) - javaThreads;
    }

    /** True if the snapshot holds another process's CPU time (a nonzero reading). */
    public boolean hasOtherProcess() {
        return otherProcessCpu != 0;
    }

    /** CPU time of the other process since {@code from} (0 when there is none). */
    public long otherProcessCpuSince(CpuSnapshot from) {
        return otherProcessCpu - from.otherProcessCpu;
    }

    private long threadCpu(long id) {
        return threadCpu.getOrDefault(id, 0L);
    }
}
