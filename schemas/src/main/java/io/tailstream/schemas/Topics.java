package io.tailstream.schemas;

import java.util.List;
import java.util.Map;

/**
 * The topics of the contract, declared once and used by every stage.
 *
 * <ul>
 *   <li>{@link #SAMPLES}: binary sample blocks ({@link io.tailstream.schemas.block.SampleBlock}), key
 *       {@code runId/producerId} (UTF-8). High volume, time-retained.</li>
 *   <li>{@link #CONTROL}: JSON {@link io.tailstream.schemas.event.ControlEvent}s, key {@code runId}. Low volume,
 *       one partition so a run's control events stay in order.</li>
 *   <li>{@link #WINDOWS}: JSON {@link io.tailstream.schemas.event.WindowStats}, key {@code runId/stepId/op}.</li>
 *   <li>{@link #STALLS}: JSON {@link io.tailstream.schemas.event.StallEvent}s, key {@code StallEvent.key()}.</li>
 *   <li>{@link #SUMMARIES}: JSON {@link io.tailstream.schemas.event.StepSummary}s, key {@code StepSummary.key()}.</li>
 *   <li>{@link #RUN_SUMMARIES}: JSON {@link io.tailstream.schemas.event.RunSummary}s (across rounds, sweeps and
 *       endpoints), key {@code runId}. A topic of its own so that every record of {@link #SUMMARIES} stays a
 *       {@code StepSummary} for the consumers that already read it.</li>
 *   <li>{@link #DEAD_LETTER}: blocks the aggregator could not decode, with the reason in headers.</li>
 * </ul>
 */
public final class Topics {

    public static final String SAMPLES = "tailstream.samples";
    public static final String CONTROL = "tailstream.control";
    public static final String WINDOWS = "tailstream.windows";
    public static final String STALLS = "tailstream.stalls";
    public static final String SUMMARIES = "tailstream.summaries";
    public static final String RUN_SUMMARIES = "tailstream.run-summaries";
    public static final String DEAD_LETTER = "tailstream.deadletter";

    /** Seven days: long enough to re-aggregate or re-archive a week-end soak from the topic. */
    private static final String RETENTION_MS = String.valueOf(7L * 24 * 3600 * 1000);

    /**
     * Partitions of the samples and windows topics when nobody says otherwise ({@code broker}, {@code aggregate},
     * a producer that creates the topics, the local pipeline): more than one, so the aggregator's repartitioning path
     * always runs.
     */
    public static final int DEFAULT_SAMPLE_PARTITIONS = 2;

    private Topics() {}

    /**
     * The topic set with the given partition count for the high-volume topics.
     *
     * @param samplePartitions partitions of the samples and windows topics (more partitions, more aggregator
     *                         instances)
     */
    public static List<TopicSpec> all(int samplePartitions) {
        Map<String, String> retained = Map.of("retention.ms", RETENTION_MS, "cleanup.policy", "delete");
        return List.of(
                new TopicSpec(SAMPLES, samplePartitions, Map.of(
                        "retention.ms", RETENTION_MS,
                        "cleanup.policy", "delete",
                        // blocks are compressed by the producer; keep them as sent
                        "compression.type", "producer",
                        "max.message.bytes", String.valueOf(8 * 1024 * 1024))),
                new TopicSpec(CONTROL, 1, retained),
                new TopicSpec(WINDOWS, samplePartitions, retained),
                new TopicSpec(STALLS, 1, retained),
                new TopicSpec(SUMMARIES, 1, retained),
                new TopicSpec(RUN_SUMMARIES, 1, retained),
                new TopicSpec(DEAD_LETTER, 1, retained));
    }
}
