package io.tailstream.aggregator.topology;

import io.tailstream.aggregator.window.WindowAggregate;

/** What stage 1 emits for a block: partials to merge, or the block itself for the dead-letter topic. */
sealed interface StageOne permits StageOne.Partial, StageOne.DeadLetter {

    /** A partial of one scope and window; the record key is the scope key, the timestamp the window start. */
    record Partial(WindowAggregate aggregate) implements StageOne {}

    /**
     * An undecodable block, key and value as read (the record headers carry reason and coordinates), with the run its
     * key names ("" if none) and its reason code, for the run summary.
     */
    record DeadLetter(byte[] key, byte[] value, String runId, String reason) implements StageOne {}
}
