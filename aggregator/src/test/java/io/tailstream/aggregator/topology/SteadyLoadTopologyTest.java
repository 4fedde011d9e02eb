package io.tailstream.aggregator.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.aggregator.AggregatorConfig;
import io.tailstream.aggregator.testing.TestProducer;
import io.tailstream.aggregator.testing.TopologyHarness;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleStatus;
import io.tailstream.schemas.event.StallEvent;
import io.tailstream.schemas.event.StepEnded;
import io.tailstream.schemas.event.StepStarted;
import io.tailstream.schemas.event.StepSummary;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A steady step as real servers deliver it, on a known schedule: 60 measured windows whose throughput jitters by
 * ±35% around its level, with isolated dips to 40% (one window each, shorter than the throughput rule's three) and
 * isolated P99 spikes of 2.5x (under the latency rule's 3x). The stall rules must report nothing: the jitter of a
 * healthy server is not a stall. Seeded, so the windows are the same on every run.
 */
class SteadyLoadTopologyTest {

    private static final long BASE_MS = 1_700_000_000_000L;
    private static final String RUN = "run-steady";
    private static final int STEP = 1;
    private static final List<String> OPS = List.of("oltp_write_only");
    private static final int WARMUP_WINDOWS = 2;
    private static final int WINDOWS = 62;
    private static final int LEVEL = 400;

    @TempDir
    Path stateDir;

    private TopologyHarness harness;
    private TestInputTopic<String, byte[]> samples;
    private TestOutputTopic<String, StallEvent> stalls;
    private TestOutputTopic<String, StepSummary> summaries;
    private final TestProducer producer = new TestProducer(RUN, "p1");
    private long blocksSent;

    @BeforeEach
    void setUp() {
        harness = new TopologyHarness(AggregatorConfig.defaults(), stateDir, BASE_MS);
        samples = harness.samples();
        stalls = harness.output(Topics.STALLS, StallEvent.class);
        summaries = harness.output(Topics.SUMMARIES, StepSummary.class);
    }

    @AfterEach
    void tearDown() {
        harness.close();
    }

    @Test
    void jitteryButSteadyWindows_isolatedDipsAndSpikes_reportNoStall() {
        harness.sendControl(new StepStarted(RUN, BASE_MS, "p1", STEP, null, "oltp_write_only", 2, 1,
                WARMUP_WINDOWS * 1000L, (WINDOWS - WARMUP_WINDOWS) * 1000L, OPS, 6, Map.of()));
        SplittableRandom random = new SplittableRandom(20_261_201L);
        long sent = 0;
        for (int w = 0; w < WINDOWS; w++) {
            boolean dip = w > 10 && w % 9 == 0;
            boolean spike = w > 10 && w % 7 == 0 && !dip;
            int count = dip ? LEVEL * 4 / 10 : (int) (LEVEL * (0.65 + 0.7 * random.nextDouble()));
            List<Sample> batch = window(w, count, spike, w < WARMUP_WINDOWS, random);
            long windowMs = BASE_MS + w * 1000L;
            send(producer.samples(STEP, OPS, batch, (windowMs + 990) * 1000));
            send(producer.heartbeat(STEP, OPS, (windowMs + 995) * 1000));
            sent += batch.size();
        }
        send(producer.endOfStep(STEP, OPS, (BASE_MS + WINDOWS * 1000L) * 1000));
        harness.sendControl(new StepEnded(RUN, BASE_MS + WINDOWS * 1000L, "p1", STEP, sent, blocksSent, 0,
                "completed"));
        harness.advanceWallClockTime(Duration.ofSeconds(WINDOWS + 5));

        assertThat(stalls.readValuesToList()).as("stall events of a steady step").isEmpty();
        List<StepSummary> all = summaries.readValuesToList().stream().filter(s -> s.op().equals("*")).toList();
        assertThat(all).as("step summaries").isNotEmpty();
        StepSummary last = all.get(all.size() - 1);
        assertThat(last.stallCount()).isZero();
        assertThat(last.stallMs()).isZero();
        assertThat(last.count()).isPositive();
    }

    /**
     * {@code count} write transactions completing inside window {@code w}; latencies around 2 ms, with the slowest
     * 2% at 5 ms (the window's P99), or at 12.5 ms when {@code spike} (2.5x).
     */
    private static List<Sample> window(int w, int count, boolean spike, boolean warmup, SplittableRandom random) {
        List<Sample> batch = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long latency = i % 50 == 0 ? (spike ? 12_500 : 5_000) : 1_500 + random.nextInt(1_000);
            long end = (BASE_MS + w * 1000L) * 1000 + 20_000 + (long) i * 960_000 / count;
            long start = end - latency;
            batch.add(new Sample(start, latency, start, 0, SampleStatus.OK, 6, warmup));
        }
        return batch;
    }

    private void send(byte[] block) {
        blocksSent++;
        samples.pipeInput(producer.key(), block);
    }

}
