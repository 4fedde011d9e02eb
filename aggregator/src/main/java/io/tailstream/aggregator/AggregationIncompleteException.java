package io.tailstream.aggregator;

import java.util.Map;

/**
 * The windows of a run did not add up to the samples its producers sent within the time allowed: samples were
 * lost, are still in flight, or (counted more than sent) were counted twice. The message lists every step with its
 * expected and counted samples.
 */
public final class AggregationIncompleteException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient Map<Integer, Long> expectedByStep;
    private final transient Map<Integer, Long> countedByStep;

    public AggregationIncompleteException(String message, Map<Integer, Long> expectedByStep,
                                          Map<Integer, Long> countedByStep) {
        super(message);
        this.expectedByStep = Map.copyOf(expectedByStep);
        this.countedByStep = Map.copyOf(countedByStep);
    }

    /** Samples sent per step id. */
    public Map<Integer, Long> expectedByStep() {
        return expectedByStep;
    }

    /** Samples counted in "all ops" windows per step id, when the wait ended. */
    public Map<Integer, Long> countedByStep() {
        return countedByStep;
    }
}
