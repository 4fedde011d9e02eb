package io.tailstream.producer.group;

import java.time.Duration;
import java.util.List;

/**
 * Several load generators running one run: the same plan and run id on each, every step started together.
 *
 * @param count        how many producers run the run (1: a producer alone, no coordination)
 * @param splitThreads true: a step's {@code threads} are the step's total, shared out over its producers (the
 *                     report reads as with one client); false: each producer runs the full thread count (the step
 *                     runs {@code count} times the threads)
 * @param joinTimeout  how long a producer ready for a step waits for the others before the step starts without them
 */
public record ProducerGroup(int count, boolean splitThreads, Duration joinTimeout) {

    /** Long enough for a producer started by hand on another machine, short enough to notice one that never comes. */
    public static final Duration DEFAULT_JOIN_TIMEOUT = Duration.ofMinutes(5);

    /** At most this many producers share a run. */
    public static final int MAX_PRODUCERS = 256;

    /** A producer that runs alone. */
    public static final ProducerGroup ALONE = new ProducerGroup(1, true, null);

    public ProducerGroup {
        if (count < 1 || count > MAX_PRODUCERS) {
            throw new IllegalArgumentException("producers must be in 1.." + MAX_PRODUCERS + ", was " + count);
        }
        joinTimeout = joinTimeout == null ? DEFAULT_JOIN_TIMEOUT : joinTimeout;
        if (joinTimeout.isNegative() || joinTimeout.isZero()) {
            throw new IllegalArgumentException("joinTimeout must be > 0, was " + joinTimeout);
        }
    }

    /** Whether the run is shared with other producers. */
    public boolean shared() {
        return count > 1;
    }

    /**
     * This producer's threads of a step: the full count, or its share of {@code total} when threads are split (the
     * participants in id order, the first {@code total % n} of them one thread more); 0 when the step has fewer
     * threads than producers and this one gets none.
     *
     * @param participants the step's producers, sorted
     */
    public int threadsOf(int total, List<String> participants, String producerId) {
        if (!splitThreads) {
            return total;
        }
        return share(total, participants, producerId);
    }

    /**
     * This producer's part in a step decided by {@link StepAgreement}: whether it runs the step, with how many
     * threads, and who runs it (with threads split over more producers than threads, the first producers in id order
     * run one thread each and the others sit the step out).
     */
    StepCoordinator.Start start(int stepId, int threads, StepAgreement.Agreed agreed, String producerId) {
        List<String> participants = agreed.participants();
        if (!participants.contains(producerId)) {
            return StepCoordinator.Start.skip("step " + stepId + " started without this producer (its producers: "
                    + String.join(", ", participants) + ")");
        }
        int mine = threadsOf(threads, participants, producerId);
        if (mine == 0) {
            return StepCoordinator.Start.skip("step " + stepId + " has " + threads + " threads for "
                    + participants.size() + " producers: none falls to this one");
        }
        List<String> running = splitThreads && threads < participants.size()
                ? participants.subList(0, threads) : participants;
        return new StepCoordinator.Start(true, agreed.startAtEpochMs(), running, mine, null);
    }

    /**
     * Where a producer's workers stand among all the step's workers.
     *
     * @param first the index of its first worker
     * @param all   the step's workers over every producer
     */
    public record Workers(int first, int all) {}

    /**
     * Numbers the step's workers over its producers: each producer's workers continue after those of the producers
     * before it (in {@code participants} order), so together they are numbered 0 to all - 1 exactly as one producer
     * with every thread would number them.
     *
     * @param threads      the step's threads in the plan
     * @param participants the producers that run the step, sorted
     * @param splitThreads whether the producers split {@code threads} ({@link #threadsOf}) or each runs them all
     */
    public static Workers workers(int threads, List<String> participants, String producerId, boolean splitThreads) {
        int index = participants.indexOf(producerId);
        if (index < 0) {
            throw new IllegalArgumentException(producerId + " is not among " + participants);
        }
        int first = 0;
        for (String p : participants.subList(0, index)) {
            first += splitThreads ? share(threads, participants, p) : threads;
        }
        return new Workers(first, splitThreads ? threads : threads * participants.size());
    }

    /** {@code amount} shared out like the threads ({@link #threadsOf}); each producer's part, summing to {@code amount}. */
    public static int share(long amount, List<String> participants, String producerId) {
        int index = participants.indexOf(producerId);
        if (index < 0) {
            throw new IllegalArgumentException(producerId + " is not among " + participants);
        }
        int n = participants.size();
        return (int) (amount / n + (index < amount % n ? 1 : 0));
    }
}
