package io.tailstream.producer.driver;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.producer.time.ManualClock;
import io.tailstream.schemas.histogram.LatencyHistograms;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The open-loop schedule against a simulated target, driven by a manual clock. */
class OpenLoopPacerTest {

    static final long MS = 1_000_000L;

    /**
     * A target that answers instantly except for one transaction that stalls for {@code stallMs}: the transactions
     * scheduled during the stall run late, back to back, and their latency from the intended start is exactly what
     * HdrHistogram's {@code recordValueWithExpectedInterval} fills in after the fact for the stalled value.
     */
    @Test
    void stalledTarget_correctedLatenciesGrowWithTheStall_likeRecordValueWithExpectedInterval() {
        for (long stallMs : new long[] {100, 1_000, 5_000}) {
            ManualClock clock = new ManualClock(0, 1_000_000_000_000L);
            long intervalMs = 10;
            OpenLoopPacer pacer = new OpenLoopPacer(clock, 0, intervalMs * MS);
            Histogram corrected = LatencyHistograms.create();
            Histogram service = LatencyHistograms.create();
            List<Long> correctedSeries = new ArrayList<>();
            long endNanos = 10_000 * MS; // 10 s at 100/s = 1000 intended starts
            int n = 0;
            while (pacer.peek() < endNanos) {
                long intended = pacer.awaitNext(() -> false);
                long t0 = clock.nanoTime();
                if (n == 50) {
                    clock.advanceMillis(stallMs); // the stall
                }
                long t1 = clock.nanoTime();
                service.recordValue((t1 - t0) / 1000);
                corrected.recordValue((t1 - intended) / 1000);
                correctedSeries.add((t1 - intended) / 1000);
                n++;
            }
            assertThat(n).isEqualTo(1000); // no intended start is skipped, however late
            // service time sees one slow transaction and hides the rest of the stall
            assertThat(service.getMaxValue()).isEqualTo(service.highestEquivalentValue(stallMs * 1000));
            assertThat(service.getTotalCount() - service.getCountAtValue(0)).isEqualTo(1);

            Histogram expected = LatencyHistograms.create();
            for (int i = 0; i < n; i++) {
                if (i == 50) {
                    expected.recordValueWithExpectedInterval(stallMs * 1000, intervalMs * 1000);
                } else if (i > 50 && i < 50 + stallMs / intervalMs) {
                    continue; // filled in by recordValueWithExpectedInterval
                } else {
                    expected.recordValue(0);
                }
            }
            assertThat(corrected).isEqualTo(expected);
            // the late transactions: stall, stall - 10 ms, stall - 20 ms, ... until the schedule caught up
            for (int k = 0; k < stallMs / intervalMs; k++) {
                assertThat(correctedSeries.get(50 + k)).isEqualTo((stallMs - k * intervalMs) * 1000);
            }
            assertThat(corrected.getMaxValue()).isEqualTo(corrected.highestEquivalentValue(stallMs * 1000));
            assertThat(corrected.getTotalCount() - corrected.getCountAtValue(0)).isEqualTo(stallMs / intervalMs);
        }
    }

    @Test
    void onTime_waitsForEachIntendedStart_andNeverStartsEarly() {
        ManualClock clock = new ManualClock(5 * MS, 0);
        OpenLoopPacer pacer = new OpenLoopPacer(clock, 5 * MS, 3 * MS);
        for (int i = 0; i < 100; i++) {
            long intended = pacer.awaitNext(() -> false);
            assertThat(intended).isEqualTo(5 * MS + i * 3 * MS);
            assertThat(clock.nanoTime()).isEqualTo(intended);
        }
    }

    @Test
    void stopWhileWaiting_returnsWithoutTakingTheStart() {
        ManualClock clock = new ManualClock(0, 0);
        OpenLoopPacer pacer = new OpenLoopPacer(clock, 1_000 * MS, 1 * MS);
        assertThat(pacer.awaitNext(() -> true)).isEqualTo(Long.MIN_VALUE);
        assertThat(pacer.peek()).isEqualTo(1_000 * MS);
    }
}
