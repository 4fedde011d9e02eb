package io.tailstream.benchmarks;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time of another process on Linux, from the scheduler's per-thread statistics in /proc. */
final class ProcStat {

    private ProcStat() {}

    /**
     * Nanoseconds the process's live threads have run on a CPU ({@code /proc/PID/task/TID/schedstat}, first field),
     * or -1 if /proc cannot be read (not Linux, process gone). Threads that ended are not counted: call it on a
     * process whose threads live as long as the measurement (a broker).
     */
    static long cpuNanos(long pid) {
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
}
