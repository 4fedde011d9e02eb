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
 * Starts work at a lower CPU priority than the rest of the process, so that it takes only the CPU the database and
 * the load generator leave: the local pipeline's broker and aggregator share the machine with both and may fall
 * behind during a step, then catch up; the samples wait in Kafka meanwhile.
 *
 * <p>On Linux every thread has its own nice value and a thread inherits it from the thread that starts it. The work
 * runs on a new thread whose nice value is first raised by {@value #NICE_INCREMENT} (at most 19) with
 * {@code renice}, which needs no privilege when it lowers a priority; every thread the work starts (the broker's,
 * the Streams threads) inherits the raised value. Elsewhere, or without {@code renice}, the work runs at normal
 * priority and a debug line says so.
 */
final class LowerPriority {

    private static final Logger LOG = LoggerFactory.getLogger(LowerPriority.class);
    /** How much the nice value is raised: a runnable thread at nice 10 gets about a tenth of the share of one at 0. */
    static final int NICE_INCREMENT = 10;
    private static final int MAX_NICE = 19;
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

    /** The nice value of the calling thread, if the OS tells it ({@code /proc/thread-self/stat}). */
    static OptionalInt currentNice() {
        try {
            String stat = Files.readString(THREAD_SELF.resolve("stat"), StandardCharsets.US_ASCII);
            // fields after the command name, which is in parentheses and may contain spaces; nice is field 19
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return OptionalInt.of(Integer.parseInt(fields[19 - 3]));
        } catch (IOException | RuntimeException e) {
            return OptionalInt.empty();
        }
    }

    private static void lowerCurrentThread() {
        OptionalInt before = currentNice();
        if (before.isEmpty()) {
            LOG.debug("thread priorities are not available here: the local pipeline runs at normal priority");
            return;
        }
        int target = Math.min(MAX_NICE, before.getAsInt() + NICE_INCREMENT);
        try {
            String tid = Files.readSymbolicLink(THREAD_SELF).getFileName().toString();
            // the value without -n is absolute in util-linux and BusyBox alike (with -n BusyBox adds it)
            Process renice = new ProcessBuilder("renice", String.valueOf(target), "-p", tid)
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            int exit = renice.waitFor();
            LOG.debug("renice {} -p {} exited with {}; nice now {}", target, tid, exit, currentNice());
        } catch (IOException e) {
            LOG.debug("cannot lower the local pipeline's priority ({}): it runs at normal priority", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
