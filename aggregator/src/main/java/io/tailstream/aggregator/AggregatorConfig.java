package io.tailstream.aggregator;

import io.tailstream.aggregator.stall.StallConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Configuration of the aggregator: what the topology computes and how the Kafka Streams application runs.
 * Immutable; validated when built, with messages naming the key and the value.
 *
 * @param applicationId          Kafka Streams {@code application.id}: consumer group, internal topic prefix and
 *                               transactional id prefix. Two aggregators with the same id share the work.
 * @param windowSize             base tumbling window, aligned to the epoch (default 1 s)
 * @param grace                  how long after a window's end (in stream time) partials are still merged into it
 *                               (default 2 s; producers seal blocks at most ~200 ms old, so lateness stays far below)
 * @param processingGuarantee    {@code exactly_once_v2} (default) or {@code at_least_once}
 * @param streamThreads          Kafka Streams threads of this instance
 * @param commitInterval         Streams {@code commit.interval.ms}: under EOS also how often output becomes visible
 * @param endOfStepCheckInterval how often (wall clock) stage 1 checks whether an ended step's last window may be
 *                               closed (see {@code io.tailstream.aggregator.topology})
 * @param clientOverrides        extra Kafka Streams / client properties passed through unchanged (SASL, TLS, ...);
 *                               their values may be secrets and are never logged
 * @param stalls                 stall rule thresholds
 * @param rollups                roll-up window sizes (whole multiples of {@code windowSize}, ascending, distinct);
 *                               roll-up windows go to the windows topic next to the base windows (their size is
 *                               {@code windowEnd - windowStart}). Empty by default so the windows topic holds only
 *                               base windows unless asked for; {@code tailstream aggregate} enables 10 s and 60 s.
 * @param stepEndWait            how long (wall clock) after the first producer of a step ended (its end-of-step tick)
 *                               the step waits for the others: its windows close when every producer of the step
 *                               ended or this has passed, and its summaries wait as long for every producer's
 *                               {@code StepEnded} and every block before they are published as incomplete (a producer
 *                               killed before its end must not hold them forever; default 60 s, {@code aggregate
 *                               --producer-timeout})
 */
public record AggregatorConfig(
        String applicationId,
        Duration windowSize,
        Duration grace,
        String processingGuarantee,
        int streamThreads,
        Duration commitInterval,
        Duration endOfStepCheckInterval,
        Map<String, String> clientOverrides,
        StallConfig stalls,
        List<Duration> rollups,
        Duration stepEndWait) {

    public static final String DEFAULT_APPLICATION_ID = "tailstream-aggregator";
    public static final String EXACTLY_ONCE_V2 = "exactly_once_v2";
    public static final String AT_LEAST_ONCE = "at_least_once";

    private static final Pattern APPLICATION_ID = Pattern.compile("[A-Za-z0-9._-]{1,200}");
    private static final Set<String> GUARANTEES = Set.of(EXACTLY_ONCE_V2, AT_LEAST_ONCE);

    public AggregatorConfig {
        Objects.requireNonNull(applicationId, "applicationId");
        if (!APPLICATION_ID.matcher(applicationId).matches()) {
            throw new IllegalArgumentException("aggregator applicationId must be 1-200 characters of [A-Za-z0-9._-], was '"
                    + applicationId + "'");
        }
        requireWholeMillis("windowSize", windowSize, 1);
        requireWholeMillis("grace", grace, 0);
        if (!GUARANTEES.contains(processingGuarantee)) {
            throw new IllegalArgumentException("aggregator processingGuarantee must be one of " + GUARANTEES + ", was '"
                    + processingGuarantee + "'");
        }
        if (streamThreads < 1 || streamThreads > 64) {
            throw new IllegalArgumentException("aggregator streamThreads must be in 1..64, was " + streamThreads);
        }
        requireWholeMillis("commitInterval", commitInterval, 1);
        requireWholeMillis("endOfStepCheckInterval", endOfStepCheckInterval, 1);
        clientOverrides = Map.copyOf(Objects.requireNonNull(clientOverrides, "clientOverrides"));
        Objects.requireNonNull(stalls, "stalls");
        rollups = List.copyOf(Objects.requireNonNull(rollups, "rollups"));
        long previous = windowSize.toMillis();
        for (Duration r : rollups) {
            requireWholeMillis("rollup", r, 1);
            if (r.toMillis() <= previous || r.toMillis() % windowSize.toMillis() != 0) {
                throw new IllegalArgumentException("aggregator rollups must be ascending, distinct multiples of the "
                        + "window size " + windowSize + " larger than it, was " + rollups);
            }
            previous = r.toMillis();
        }
        requireWholeMillis("stepEndWait", stepEndWait, 0);
    }

    /** Defaults: 1 s windows, 2 s grace, exactly once, 1 thread, commit every 100 ms. */
    public static AggregatorConfig defaults() {
        return new AggregatorConfig(DEFAULT_APPLICATION_ID, Duration.ofSeconds(1), Duration.ofSeconds(2),
                EXACTLY_ONCE_V2, 1, Duration.ofMillis(100), Duration.ofMillis(100), Map.of(),
                StallConfig.defaults(), List.of(), Duration.ofSeconds(60));
    }

    /** The roll-up sizes {@code tailstream aggregate} uses unless told otherwise: 10 s and 60 s. */
    public static List<Duration> defaultRollups() {
        return List.of(Duration.ofSeconds(10), Duration.ofSeconds(60));
    }

    public AggregatorConfig withStalls(StallConfig newStalls) {
        return new AggregatorConfig(applicationId, windowSize, grace, processingGuarantee, streamThreads,
                commitInterval, endOfStepCheckInterval, clientOverrides, newStalls, rollups, stepEndWait);
    }

    public AggregatorConfig withRollups(List<Duration> newRollups) {
        return new AggregatorConfig(applicationId, windowSize, grace, processingGuarantee, streamThreads,
                commitInterval, endOfStepCheckInterval, clientOverrides, stalls, newRollups, stepEndWait);
    }

    public AggregatorConfig withCommitInterval(Duration interval) {
        return new AggregatorConfig(applicationId, windowSize, grace, processingGuarantee, streamThreads, interval,
                endOfStepCheckInterval, clientOverrides, stalls, rollups, stepEndWait);
    }

    public AggregatorConfig withStepEndWait(Duration wait) {
        return new AggregatorConfig(applicationId, windowSize, grace, processingGuarantee, streamThreads,
                commitInterval, endOfStepCheckInterval, clientOverrides, stalls, rollups, wait);
    }

    /** Roll-up sizes in ms. */
    public List<Long> rollupsMs() {
        return rollups.stream().map(Duration::toMillis).toList();
    }

    public AggregatorConfig withApplicationId(String id) {
        return new AggregatorConfig(id, windowSize, grace, processingGuarantee, streamThreads, commitInterval,
                endOfStepCheckInterval, clientOverrides, stalls, rollups, stepEndWait);
    }

    public AggregatorConfig withWindow(Duration size, Duration newGrace) {
        return new AggregatorConfig(applicationId, size, newGrace, processingGuarantee, streamThreads, commitInterval,
                endOfStepCheckInterval, clientOverrides, stalls, rollups, stepEndWait);
    }

    public AggregatorConfig withProcessingGuarantee(String guarantee) {
        return new AggregatorConfig(applicationId, windowSize, grace, guarantee, streamThreads, commitInterval,
                endOfStepCheckInterval, clientOverrides, stalls, rollups, stepEndWait);
    }

    public AggregatorConfig withStreamThreads(int threads) {
        return new AggregatorConfig(applicationId, windowSize, grace, processingGuarantee, threads, commitInterval,
                endOfStepCheckInterval, clientOverrides, stalls, rollups, stepEndWait);
    }

    public AggregatorConfig withClientOverrides(Map<String, String> overrides) {
        return new AggregatorConfig(applicationId, windowSize, grace, processingGuarantee, streamThreads,
                commitInterval, endOfStepCheckInterval, overrides, stalls, rollups, stepEndWait);
    }

    /** Window size in ms. */
    public long windowSizeMs() {
        return windowSize.toMillis();
    }

    /** Grace in ms. */
    public long graceMs() {
        return grace.toMillis();
    }

    /** The config as text without the override values (they may hold credentials). */
    @Override
    public String toString() {
        return "AggregatorConfig[applicationId=" + applicationId + ", windowSize=" + windowSize + ", grace=" + grace
                + ", processingGuarantee=" + processingGuarantee + ", streamThreads=" + streamThreads
                + ", commitInterval=" + commitInterval
                + ", endOfStepCheckInterval=" + endOfStepCheckInterval
                + ", clientOverrides=" + clientOverrides.keySet() + ", stalls=" + stalls + ", rollups=" + rollups
                + ", stepEndWait=" + stepEndWait + "]";
    }

    private static void requireWholeMillis(String key, Duration value, long minMillis) {
        if (value == null) {
            throw new IllegalArgumentException("aggregator " + key + " must be set");
        }
        if (value.isNegative() || value.toNanos() % 1_000_000 != 0 || value.toMillis() < minMillis) {
            throw new IllegalArgumentException("aggregator " + key + " must be a whole number of milliseconds >= "
                    + minMillis + " ms, was " + value);
        }
    }
}
