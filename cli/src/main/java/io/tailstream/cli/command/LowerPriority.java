package io.tailstream.cli.command;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts work at the lowest CPU priority there is, so that it takes only the CPU the database and the load generator
 * leave: the local pipeline's broker and aggregator share the machine with both and may fall behind during a step,
 * then catch up; the samples wait in Kafka meanwhile.
 *
 * <p>On Linux a thread has its own scheduling policy and inherits it from the thread that starts it. The work runs
 * on a new thread that first switches itself to {@code SCHED_IDLE} with {@code chrt --idle}, which needs no privilege
 * (it lowers a priority); every thread the work starts (the broker's, the Streams threads) inherits the policy. Why
 * not only a higher nice value: a nice thread keeps a core until the scheduler decides its share is used up, and a
 * database thread woken by a query's packet may wait for it; a waking thread of any other policy preempts a
 * {@code SCHED_IDLE} thread at once, and the scheduler counts a core running only such threads as idle when it places
 * the waking thread. Where {@code chrt} is missing or refuses, the thread's nice value is raised to
 * {@value #FALLBACK_NICE} with {@code renice} instead; elsewhere (no {@code /proc/thread-self}) the work runs at
 * normal priority. A debug line says which.
 */
final class LowerPriority {

    private static final Logger LOG = LoggerFactory.getLogger(LowerPriority.class);
    /** Linux's number for {@code SCHED_IDLE} in {@code /proc/<pid>/task/<tid>/stat}. */
    static final int SCHED_IDLE = 5;
    /** The nice value when {@code SCHED_IDLE} cannot be had: the lowest priority a nice value gives. */
    static final int FALLBACK_NICE = 19;
    private static final Path THREAD_SELF = Path.of("/proc/thread-self");

    private LowerPriority() {
    }

    /**
     * Runs {@code work} on a new thread named {@code threadName} at lower priority, waits for it and returns its
     * result; what the work throws is rethrown here.
     *
     * @throws InterruptedException if this thread is interrupted while waiting (the work's thread is interrupted too)
     */
    static <T> T get(String threadName, Supplier<T> work) throws InterruptedException {
        FutureTask<T> task = new FutureTask<>(() -> {
            lowerCurrentThread();
            return work.get();
        });
        Thread thread = new Thread(task, threadName);
        thread.start();
        try {
            return task.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw (Error) e.getCause();
        } catch (InterruptedException e) {
            thread.interrupt();
            throw e;
        }
    }

    /** The scheduling policy of the calling thread, if the OS tells it ({@code /proc/thread-self/stat}). */
    static OptionalInt currentPolicy() {
        return statField(41);
    }

    /** The nice value of the calling thread, if the OS tells it ({@code /proc/thread-self/stat}). */
    static OptionalInt currentNice() {
        return statField(19);
    }

    private static OptionalInt statField(int field) {
        try {
            String stat = Files.readString(THREAD_SELF.resolve("stat"), StandardCharsets.US_ASCII);
            // fields after the command name, which is in parentheses and may contain spaces, start with field 3
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return OptionalInt.of(Integer.parseInt(fields[field - 3]));
        } catch (IOException | RuntimeException e) {
            return OptionalInt.empty();
        }
    }

    private static void lowerCurrentThread() {
        if (currentPolicy().isEmpty()) {
            LOG.debug("thread priorities are not available here: the local pipeline runs at normal priority");
            return;
        }
        try {
            String tid = Files.readSymbolicLink(THREAD_SELF).getFileName().toString();
            if (run("chrt", "--idle", "--pid", "0", tid) && currentPolicy().orElse(-1) == SCHED_IDLE) {
                LOG.debug("the local pipeline runs at SCHED_IDLE");
                return;
            }
            // the value without -n is absolute in util-linux and BusyBox alike (with -n BusyBox adds it)
            run("renice", String.valueOf(FALLBACK_NICE), "-p", tid);
            LOG.debug("SCHED_IDLE refused: the local pipeline runs at nice {}", currentNice());
        } catch (IOException e) {
            LOG.debug("cannot lower the local pipeline's priority ({}): it runs at normal priority", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Runs a command to its end, its output discarded; true if it exited with 0, false if it failed or is missing. */
    private static boolean run(String... command) throws InterruptedException {
        try {
            return new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor() == 0;
        } catch (IOException e) {
            LOG.debug("{} failed: {}", command[0], e.toString());
            return false;
        }
    }
}
