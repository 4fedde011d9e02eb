package io.tailstream.aggregator.topology;

import io.tailstream.schemas.block.CorruptBlockException;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * Records on {@link io.tailstream.schemas.Topics#DEAD_LETTER}: an input record the aggregator cannot read (an
 * undecodable sample block, an unreadable control event), exactly as read (key and value bytes), with the original
 * headers plus these (UTF-8 text values). Processing continues after a dead letter; nothing else is affected.
 */
public final class DeadLetters {

    /** Why the record could not be processed (the decoder's message). */
    public static final String REASON = "tailstream.dlq.reason";
    /** The reason as a short code (one of the {@code *} constants below): the metric's {@code reason} tag. */
    public static final String REASON_CODE = "tailstream.dlq.reason-code";
    /** Topic the record was read from. */
    public static final String TOPIC = "tailstream.dlq.topic";
    /** Partition it was read from, decimal. */
    public static final String PARTITION = "tailstream.dlq.partition";
    /** Offset it was read at, decimal. */
    public static final String OFFSET = "tailstream.dlq.offset";

    /** A sample block whose first bytes are not the format's magic (not a sample block at all). */
    public static final String BAD_MAGIC = "bad_magic";
    /** A sample block of a format version this aggregator does not know. */
    public static final String UNSUPPORTED_VERSION = "unsupported_version";
    /** A sample block cut short (shorter than its fields say). */
    public static final String TRUNCATED = "truncated";
    /** A sample block whose checksum does not match its bytes (corrupted or cut short). */
    public static final String CHECKSUM = "checksum_mismatch";
    /** Any other undecodable sample block. */
    public static final String CORRUPT_BLOCK = "corrupt_block";
    /** A control record that is not JSON, or not a control event's JSON. */
    public static final String INVALID_JSON = "invalid_json";
    /** A control event whose {@code type} is missing or unknown to this aggregator. */
    public static final String UNKNOWN_EVENT_TYPE = "unknown_event_type";
    /** A control event without a run id (it cannot be routed to its run). */
    public static final String NO_RUN_ID = "no_run_id";

    private DeadLetters() {}

    /** The reason code of an undecodable sample block. */
    static String blockReason(RuntimeException e) {
        if (!(e instanceof CorruptBlockException)) {
            return CORRUPT_BLOCK;
        }
        String m = String.valueOf(e.getMessage());
        if (m.startsWith("bad magic")) {
            return BAD_MAGIC;
        }
        if (m.startsWith("unsupported block version")) {
            return UNSUPPORTED_VERSION;
        }
        if (m.contains("checksum") || m.contains("CRC")) {
            return CHECKSUM;
        }
        if (m.contains("truncated") || m.contains("shorter than") || m.contains("cannot fit")) {
            return TRUNCATED;
        }
        return CORRUPT_BLOCK;
    }

    /** The run id of a record key ({@code runId} or {@code runId/producerId}), or "" if there is none. */
    static String runId(String key) {
        if (key == null) {
            return "";
        }
        int slash = key.indexOf('/');
        return slash < 0 ? key : key.substring(0, slash);
    }

    /** The record's headers plus the dead-letter headers: reason, its code, and where the record was read. */
    static Headers headers(Headers original, ProcessorContext<?, ?> context, String code, String reason) {
        Headers headers = new RecordHeaders(original.toArray());
        String topic = "";
        String partition = "";
        String offset = "";
        if (context.recordMetadata().isPresent()) {
            RecordMetadata m = context.recordMetadata().get();
            topic = m.topic();
            partition = String.valueOf(m.partition());
            offset = String.valueOf(m.offset());
        }
        headers.add(REASON, utf8(reason));
        headers.add(REASON_CODE, utf8(code));
        headers.add(TOPIC, utf8(topic));
        headers.add(PARTITION, utf8(partition));
        headers.add(OFFSET, utf8(offset));
        return headers;
    }

    /** Where the current record was read, for log lines: {@code topic-partition offset N}. */
    static String where(ProcessorContext<?, ?> context) {
        return context.recordMetadata().map(m -> m.topic() + "-" + m.partition() + " offset " + m.offset())
                .orElse("(unknown offset)");
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
