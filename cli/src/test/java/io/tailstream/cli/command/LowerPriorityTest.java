package io.tailstream.cli.command;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class LowerPriorityTest {

    @Test
    void workAndEveryThreadItStartsRunAtIdlePriority() throws Exception {
        OptionalInt callerPolicy = LowerPriority.currentPolicy();
        OptionalInt callerNice = LowerPriority.currentNice();
        assumeTrue(callerPolicy.isPresent(), "thread priorities are read from /proc/thread-self (Linux)");

        int[][] seen = LowerPriority.get("lower-priority-test", () -> {
            AtomicReference<int[]> child = new AtomicReference<>();
            Thread t = new Thread(() -> child.set(priority()));
            t.start();
            try {
                t.join();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return new int[][] {priority(), child.get()};
        });

        // SCHED_IDLE, or the highest nice value where chrt is missing or refuses
        int[] work = seen[0];
        assertTrue(work[0] == LowerPriority.SCHED_IDLE || work[1] == LowerPriority.FALLBACK_NICE,
                "the work's thread: policy " + work[0] + ", nice " + work[1]);
        assertArrayEquals(work, seen[1], "a thread the work started");
        assertEquals(callerPolicy, LowerPriority.currentPolicy(), "the caller keeps its policy");
        assertEquals(callerNice, LowerPriority.currentNice(), "the caller keeps its nice value");
    }

    @Test
    void withChrtOnThisMachineThePolicyIsSchedIdle() throws Exception {
        assumeTrue(LowerPriority.currentPolicy().isPresent(), "Linux only");
        assumeTrue(chrtRuns(), "util-linux chrt");
        int policy = LowerPriority.get("lower-priority-test", () -> LowerPriority.currentPolicy().orElseThrow());
        assertEquals(LowerPriority.SCHED_IDLE, policy);
    }

    private static boolean chrtRuns() throws InterruptedException {
        try {
            return new ProcessBuilder("chrt", "--version").start().waitFor() == 0;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static int[] priority() {
        return new int[] {LowerPriority.currentPolicy().orElseThrow(), LowerPriority.currentNice().orElseThrow()};
    }

    @Test
    void whatTheWorkThrowsIsRethrown() {
        IllegalStateException thrown = new IllegalStateException("broker did not start");
        assertSame(thrown, assertThrows(IllegalStateException.class,
                () -> LowerPriority.get("lower-priority-test", () -> {
                    throw thrown;
                })));
    }
}
