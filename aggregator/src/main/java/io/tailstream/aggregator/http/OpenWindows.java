package io.tailstream.aggregator.http;

import io.tailstream.schemas.event.WindowStats;
import java.util.List;

/**
 * The windows of a scope that are still open (collecting samples), oldest first: what the live monitor shows as
 * "current" next to the closed windows {@link LiveWindows} keeps. The aggregator answers it with Kafka Streams
 * interactive queries of its window store ({@code Aggregator#openWindows}).
 */
@FunctionalInterface
public interface OpenWindows {

    /** Answers nothing: for a monitor without a running aggregator (tests of the closed windows). */
    OpenWindows NONE = (run, step, op) -> List.of();

    /**
     * @throws RuntimeException if the windows cannot be read right now (Kafka Streams starting or rebalancing); the
     *                          monitor reports it and keeps serving the closed windows
     */
    List<WindowStats> open(String runId, int stepId, String op);
}
