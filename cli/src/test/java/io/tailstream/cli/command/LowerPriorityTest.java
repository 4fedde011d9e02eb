package io.tailstream.cli.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class LowerPriorityTest {

    @Test
    void workAndEveryThreadItStartsRunAtTheRaisedNiceValue() throws Exception {
        OptionalInt caller = LowerPriority.currentNice();
        assumeTrue(caller.isPresent(), "thread nice values are read from /proc/thread-self (Linux)");
        int expected = Math.min(19, caller.getAsInt() + LowerPriority.NICE_INCREMENT);

        int[] seen = LowerPriority.get("lower-priority-test", () -> {
            AtomicReference<OptionalInt> child = new AtomicReference<>();
            Thread t = new Thread(() -> child.set(LowerPriority.currentNice()));
            t.start();
            try {
                t.join();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return new int[] {LowerPriority.currentNice().orElseThrow(), child.get().orElseThrow()};
        });

        assertEquals(expected, seen[0], "the work's thread");
        assertEquals(expected, seen[1], "a thread the work started");
        assertEquals(caller, LowerPriority.currentNice(), "the caller keeps its priority");
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
