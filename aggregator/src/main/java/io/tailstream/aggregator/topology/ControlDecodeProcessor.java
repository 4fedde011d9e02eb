package io.tailstream.aggregator.topology;

import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import io.tailstream.aggregator.step.StepInput;
import io.tailstream.schemas.event.ControlEvent;
import io.tailstream.schemas.event.Json;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the control topic's events into stage-3 input, keyed by run id. A record that is not a control event (not
 * JSON, an unknown or missing {@code type}, no run id) is forwarded as a dead letter with its reason and coordinates
 * ({@link DeadLetters}) and counted by the listener; the control topic is written by producers only, and one bad
 * record must not stop the aggregation of every run. An empty value (a tombstone) is skipped.
 *
 * <p>Not thread safe: Kafka Streams gives each task its own instance.
 */
final class ControlDecodeProcessor implements Processor<String, byte[], String, ControlDecodeProcessor.Out> {

    private static final Logger LOG = LoggerFactory.getLogger(ControlDecodeProcessor.class);

    /** A control event for stage 3, or a dead letter. */
    sealed interface Out permits Event, DeadLetter {}

    /** A readable control event, keyed by its run id. */
    record Event(StepInput input) implements Out {}

    /**
     * An unreadable record, key and value as read (the record headers carry reason and coordinates), with the run
     * its key names ("" if none) and its reason code, for the run summary.
     */
    record DeadLetter(byte[] key, byte[] value, String runId, String reason) implements Out {}

    private final TopologyListener listener;
    private ProcessorContext<String, Out> context;

    ControlDecodeProcessor(TopologyListener listener) {
        this.listener = listener;
    }

    @Override
    public void init(ProcessorContext<String, Out> ctx) {
        this.context = ctx;
    }

    @Override
    public void process(Record<String, byte[]> record) {
        byte[] value = record.value();
        if (value == null) {
            return;
        }
        ControlEvent event;
        try {
            event = Json.read(value, ControlEvent.class);
        } catch (IllegalArgumentException e) {
            String code = e.getCause() instanceof InvalidTypeIdException ? DeadLetters.UNKNOWN_EVENT_TYPE
                    : DeadLetters.INVALID_JSON;
            deadLetter(record, code, e.getMessage());
            return;
        }
        if (event == null) {
            deadLetter(record, DeadLetters.INVALID_JSON, "not a valid ControlEvent: JSON null");
            return;
        }
        if (event.runId() == null || event.runId().isEmpty()) {
            deadLetter(record, DeadLetters.NO_RUN_ID, "control event " + event.getClass().getSimpleName()
                    + " has no runId");
            return;
        }
        listener.onControl(event);
        context.forward(new Record<>(event.runId(), new Event(StepInput.control(event)), record.timestamp()));
    }

    private void deadLetter(Record<String, byte[]> record, String code, String reason) {
        // one line: the parser's message can quote the input across lines
        String oneLine = reason == null ? code : reason.replaceAll("\\s+", " ");
        if (oneLine.length() > 300) {
            oneLine = oneLine.substring(0, 300) + "...";
        }
        String runId = DeadLetters.runId(record.key());
        LOG.warn("unreadable control event at {} (key '{}', {} bytes) sent to the dead-letter topic: {}: {}",
                DeadLetters.where(context), record.key(), record.value().length, code, oneLine);
        listener.onDeadLetter(context.recordMetadata().map(m -> m.topic()).orElse(""), code, runId);
        byte[] key = record.key() == null ? null : record.key().getBytes(StandardCharsets.UTF_8);
        context.forward(new Record<String, Out>(runId, new DeadLetter(key, record.value(), runId, code), record.timestamp(),
                DeadLetters.headers(record.headers(), context, code, oneLine)));
    }
}
