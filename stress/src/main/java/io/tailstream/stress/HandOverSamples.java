package io.tailstream.stress;

import io.tailstream.schemas.block.Sample;
import io.tailstream.schemas.block.SampleBlockEncoder;
import io.tailstream.schemas.block.SampleStatus;
import java.util.List;

/**
 * The samples the owner adds in every stress test: wide values (6-byte start deltas, 4-byte latencies), so that the
 * encoder's smallest buffer (64 bytes) grows while the reader may be reading.
 */
final class HandOverSamples {

    static final int COUNT = 6;
    static final List<String> OPS = List.of("txn");
    private static final long T0 = 1_764_000_000_000_000L;

    private HandOverSamples() {}

    static long start(int i) {
        return T0 + i * 1_000_003_001L;
    }

    static long latency(int i) {
        return 123_456_789L + i;
    }

    static void addAll(SampleBlockEncoder encoder) {
        for (int i = 0; i < COUNT; i++) {
            encoder.add(start(i), latency(i), 0, 0, SampleStatus.OK, i + 1, false);
        }
    }

    /** True if {@code got} are the first {@code got.size()} samples of {@link #addAll}, exactly. */
    static boolean isPrefix(List<Sample> got, int from) {
        for (int k = 0; k < got.size(); k++) {
            Sample s = got.get(k);
            int i = from + k;
            if (s.startEpochMicros() != start(i) || s.latencyMicros() != latency(i) || s.queries() != i + 1
                    || s.status() != SampleStatus.OK || s.opIndex() != 0 || s.warmup()) {
                return false;
            }
        }
        return true;
    }
}
