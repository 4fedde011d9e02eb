package io.tailstream.producer.health;

import java.lang.management.ManagementFactory;

/**
 * Where the client's CPU figures come from: the process's CPU and each Java thread's, read in batches. The JVM's
 * own implementation reads {@code com.sun.management} beans; tests pass one with known figures. Implementations are
 * thread safe.
 */
public interface ThreadCpuSource {

    /** CPU time of the whole process since it started, every thread and the JVM's own work (JIT, GC), ns. */
    long processCpuNanos();

    /** Ids of the live Java threads. */
    long[] liveThreadIds();

    /** CPU time of each thread since it started, ns; -1 for a thread that has ended. */
    long[] threadCpuNanos(long[] ids);

    /** Each thread's name; null for a thread that has ended. */
    String[] threadNames(long[] ids);

    /** CPU time of the calling thread since it started, ns. */
    long currentThreadCpuNanos();

    /** True if per-thread CPU can be read (else only the process's CPU is known). */
    boolean threadCpuSupported();

    /** The running JVM's figures. */
    static ThreadCpuSource jvm() {
        return JvmThreadCpu.INSTANCE;
    }

    /** {@link ThreadCpuSource} over {@code com.sun.management}'s operating-system and thread beans. */
    final class JvmThreadCpu implements ThreadCpuSource {
        static final JvmThreadCpu INSTANCE = new JvmThreadCpu();

        private final com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        private final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        private final boolean supported;

        private JvmThreadCpu() {
            boolean ok = threads.isThreadCpuTimeSupported();
            if (ok && !threads.isThreadCpuTimeEnabled()) {
                try {
                    threads.setThreadCpuTimeEnabled(true);
                } catch (UnsupportedOperationException | SecurityException e) {
                    ok = false;
                }
            }
            this.supported = ok;
        }

        @Override
        public long processCpuNanos() {
            return os.getProcessCpuTime();
        }

        @Override
        public long[] liveThreadIds() {
            return threads.getAllThreadIds();
        }

        @Override
        public long[] threadCpuNanos(long[] ids) {
            return threads.getThreadCpuTime(ids);
        }

        @Override
        public String[] threadNames(long[] ids) {
            java.lang.management.ThreadInfo[] infos = threads.getThreadInfo(ids, 0);
            String[] names = new String[ids.length];
            for (int i = 0; i < ids.length; i++) {
                names[i] = infos[i] == null ? null : infos[i].getThreadName();
            }
            return names;
        }

        @Override
        public long currentThreadCpuNanos() {
            return threads.getCurrentThreadCpuTime();
        }

        @Override
        public boolean threadCpuSupported() {
            return supported;
        }
    }
}
