package io.tailstream.schemas.block;

import java.util.List;

/**
 * The inputs of the golden test vectors in {@code src/test/resources/golden/}. Changing anything here changes
 * the expected bytes: a new format version gets new files, and the old ones stay readable.
 */
public final class GoldenBlocks {

    public static final String RUN = "run-20261130-golden";
    public static final String PRODUCER = "producer-a";
    public static final List<String> OPS = List.of("point_select", "read_write");

    private GoldenBlocks() {}

    /** Closed loop: three samples, one failed, one warm-up, starts out of order by 5 µs. */
    public static byte[] closedLoop() {
        SampleBlockEncoder e = new SampleBlockEncoder(16, false);
        e.add(1_764_474_600_000_000L, 250, 1_764_474_600_000_000L, 0, SampleStatus.OK, 1, true);
        e.add(1_764_474_600_000_120L, 13_400, 1_764_474_600_000_120L, 1, SampleStatus.OK, 20, false);
        e.add(1_764_474_600_000_115L, 2_000_000, 1_764_474_600_000_115L, 1, SampleStatus.DEADLOCK, 7, false);
        return e.seal(RUN, PRODUCER, 41, 3, 1_764_474_600_200_000L, OPS, 0);
    }

    /** Open loop: two samples started late against their schedule. */
    public static byte[] openLoop() {
        SampleBlockEncoder e = new SampleBlockEncoder(16, true);
        e.add(1_764_474_601_000_900L, 310, 1_764_474_601_000_000L, 0, SampleStatus.OK, 1, false);
        e.add(1_764_474_601_001_000L, 290, 1_764_474_601_001_000L, 0, SampleStatus.OK, 1, false);
        return e.seal(RUN, PRODUCER, 42, 3, 1_764_474_601_200_000L, OPS, 0);
    }

    public static byte[] heartbeat() {
        return SampleBlockEncoder.marker(RUN, PRODUCER, 43, 3, SampleBlock.FLAG_HEARTBEAT, 1_764_474_601_450_000L, OPS);
    }

    public static byte[] endOfStep() {
        return SampleBlockEncoder.marker(RUN, PRODUCER, 44, 3, SampleBlock.FLAG_END_OF_STEP, 1_764_474_602_000_000L, OPS);
    }
}
