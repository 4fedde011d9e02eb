package io.tailstream.infra.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a process at the lowest CPU priority Linux has, so that it takes only the CPU that everything else on the
 * machine leaves: a Kafka broker beside the database and the load generator it records.
 *
 * <p>Two things are needed on Linux, and neither needs a privilege (both lower a priority):
 * <ul>
 * <li>Every thread of the process runs under {@code SCHED_IDLE} ({@code chrt --idle 0}, inherited by every thread
 *     the process starts). A waking thread of any other policy preempts it at once, and the scheduler counts a core
 *     that runs only such threads as idle when it places a waking thread.</li>
 * <li>The process leads a session of its own ({@code setsid}) whose scheduling group has nice 19
 *     ({@code /proc/PID/autogroup}). With autogroup on (the default of most distributions), the kernel first shares
 *     CPU between groups, one per session, and only then between the threads of a group: a {@code SCHED_IDLE}
 *     thread in the same group as the load generator takes no CPU from the load generator, but its group takes an
 *     equal share from the database, a daemon in a session of its own. A nice-19 group gets about 1.5% of the
 *     weight of a nice-0 one.</li>
 * </ul>
 * Where {@code setsid} or {@code chrt} is missing or refuses, the process runs with what works, and a debug line
 * says so. Under a cgroup CPU controller (systemd units, containers) the cgroup's share comes first and the session
 * group does not apply.
 */
public final class LowestPriority {

    private static final Logger log = LoggerFactory.getLogger(LowestPriority.class);
    /** Linux's number for {@code SCHED_IDLE}, as {@code /proc/PID/task/TID/stat} shows a thread's policy. */
    public static final int SCHED_IDLE = 5;
    /** The lowest priority a nice value gives, and the nice value of the process's session group. */
    public static final int LOWEST_NICE = 19;
    private static final List<List<String>> PREFIXES = List.of(
            List.of("setsid", "chrt", "--idle", "0"),
            List.of("chrt", "--idle", "0"));
    /** The kernel accepts a new autogroup nice value from an unprivileged process at most every 100 ms. */
    private static final int GROUP_ATTEMPTS = 20;

    private static List<String> prefix; // guarded by the class

    private LowestPriority() {}

    /**
     * The words to put before a command so that it runs under {@code SCHED_IDLE} in a session of its own: the first
     * of {@code setsid chrt --idle 0} and {@code chrt --idle 0} that runs {@code true} on this machine, else none.
     * Probed once per JVM.
     */
    public static synchronized List<String> commandPrefix() {
        if (prefix == null) {
            prefix = PREFIXES.stream().filter(LowestPriority::works).findFirst().orElse(List.of());
            log.debug("lowest priority for child processes: {}", prefix.isEmpty() ? "not available" : prefix);
        }
        return prefix;
    }

    private static boolean works(List<String> candidate) {
        return run(Stream.concat(candidate.stream(), Stream.of("true")).toList());
    }

    /** Runs {@code command}; whether it exited 0 within 10 s. */
    private static boolean run(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Gives the scheduling group of {@code pid}'s session nice {@value #LOWEST_NICE}, if {@code pid} leads a session
     * of its own (else the group is shared with other processes, e.g. this one, and is left alone).
     *
     * @return whether the group now has nice {@value #LOWEST_NICE}
     */
    public static boolean lowerSessionGroup(long pid) {
        if (sessionOf(pid).orElse(-1) != pid) {
            log.debug("process {} does not lead a session of its own: its scheduling group is left as it is", pid);
            return false;
        }
        return setGroupNice(pid, LOWEST_NICE);
    }

    /** Writes {@code nice} to {@code /proc/PID/autogroup}; whether the group then has it. */
    private static boolean setGroupNice(long pid, int nice) {
        Path group = Path.of("/proc", String.valueOf(pid), "autogroup");
        for (int attempt = 1; attempt <= GROUP_ATTEMPTS; attempt++) {
            try {
                Files.writeString(group, String.valueOf(nice), StandardCharsets.US_ASCII);
                return groupNice(pid).orElse(nice + 1) == nice;
            } catch (IOException e) {
                // EAGAIN: another group's nice value was set less than 100 ms ago; EPERM: raising needs a privilege
                if (attempt == GROUP_ATTEMPTS || !Files.exists(group) || e.getMessage() != null
                        && e.getMessage().contains("not permitted")) {
                    log.debug("cannot give the scheduling group of process {} nice {}: {}", pid, nice, e.toString());
                    return false;
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return false;
    }

    /**
     * Puts process {@code pid} back at normal priority, where the system allows it: every thread back under
     * {@code SCHED_OTHER} ({@code chrt --other --all-tasks --pid 0}) and its session group, if it leads one, back to
     * nice 0. Raising a priority takes {@code CAP_SYS_NICE} (root) or an {@code RLIMIT_NICE} that allows nice 0; else
     * the process stays at the lowest priority, and a debug line says so.
     *
     * <p>For a process whose lowest priority served a phase that has ended: a broker beside a load has the machine's
     * CPU once the load ends, unless something else keeps the cores busy, which then starves it.
     *
     * @return whether every thread left {@code SCHED_IDLE} (and the group, if any, has nice 0)
     */
    public static boolean raiseToNormal(long pid) {
        boolean threads = run(List.of("chrt", "--other", "--all-tasks", "--pid", "0", String.valueOf(pid)));
        if (!threads) {
            log.debug("cannot put the threads of process {} back under SCHED_OTHER", pid);
        }
        boolean group = sessionOf(pid).orElse(-1) != pid || setGroupNice(pid, 0);
        return threads && group;
    }

    /** The nice value of {@code pid}'s scheduling group ({@code /proc/PID/autogroup}), if the kernel has groups. */
    public static OptionalInt groupNice(long pid) {
        try {
            // "/autogroup-93 nice 19"
            String[] words = Files.readString(Path.of("/proc", String.valueOf(pid), "autogroup"),
                    StandardCharsets.US_ASCII).trim().split("\\s+");
            return OptionalInt.of(Integer.parseInt(words[words.length - 1]));
        } catch (IOException | RuntimeException e) {
            return OptionalInt.empty();
        }
    }

    /** The session id of process {@code pid} (field 6 of {@code /proc/PID/stat}), if there is one. */
    public static OptionalLong sessionOf(long pid) {
        String[] fields = statFields(Path.of("/proc", String.valueOf(pid), "stat"));
        return fields == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(fields[6 - 3]));
    }

    /** The scheduling policy of thread {@code tid} of process {@code pid} (field 41 of its stat), if any. */
    public static OptionalInt policyOf(long pid, long tid) {
        String[] fields = statFields(Path.of("/proc", String.valueOf(pid), "task", String.valueOf(tid), "stat"));
        return fields == null ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(fields[41 - 3]));
    }

    /** The thread ids of process {@code pid}; empty if it is gone or this is no Linux. */
    public static List<Long> threadsOf(long pid) {
        try (Stream<Path> tasks = Files.list(Path.of("/proc", String.valueOf(pid), "task"))) {
            return tasks.map(t -> Long.parseLong(t.getFileName().toString())).toList();
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /**
     * The fields of a {@code stat} file from field 3 (state) on, or null if it cannot be read. The command name
     * (field 2) is in parentheses and may hold spaces and parentheses itself: fields are counted after its last
     * {@code ')'}.
     */
    private static String[] statFields(Path stat) {
        try {
            String s = Files.readString(stat, StandardCharsets.US_ASCII);
            return s.substring(s.lastIndexOf(')') + 2).trim().split(" ");
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
