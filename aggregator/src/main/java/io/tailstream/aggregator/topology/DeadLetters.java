package io.tailstream.aggregator.topology;

/**
 * Header names of records on {@link io.tailstream.schemas.Topics#DEAD_LETTER}. A dead letter is the undecodable
 * sample block exactly as read (key and value bytes), with the original headers plus these (UTF-8 text values).
 */
public final class DeadLetters {

    /** Why the block could not be processed ({@link io.tailstream.schemas.block.CorruptBlockException} message). */
    public static final String REASON = "tailstream.dlq.reason";
    /** Topic the block was read from. */
    public static final String TOPIC = "tailstream.dlq.topic";
    /** Partition it was read from, decimal. */
    public static final String PARTITION = "tailstream.dlq.partition";
    /** Offset it was read at, decimal. */
    public static final String OFFSET = "tailstream.dlq.offset";

    private DeadLetters() {}
}
