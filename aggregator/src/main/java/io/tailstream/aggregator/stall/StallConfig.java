package io.tailstream.aggregator.stall;

/**
 * Thresholds of the stall rules (see {@link StallDetector}). Immutable; validated at construction.
 *
 * @param throughputFraction   a window is a throughput-stall window when its QPS is below this fraction of the
 *                             baseline QPS (default 0.5)
 * @param throughputMinWindows consecutive such windows before a throughput stall is declared, K (default 3)
 * @param latencyMultiple      a window is a latency-spike window when its P99 is above this multiple of the baseline
 *                             P99 (default 3.0)
 * @param latencyMinWindows    consecutive such windows before a latency stall is declared (default 2)
 * @param baselineWindows      the rolling baseline is the median of at most this many preceding measured,
 *                             unstalled windows (default 60)
 * @param minBaselineWindows   throughput and latency rules apply only once the baseline has this many windows
 *                             (default 5)
 */
public record StallConfig(double throughputFraction, int throughputMinWindows, double latencyMultiple,
                          int latencyMinWindows, int baselineWindows, int minBaselineWindows) {

    public StallConfig {
        if (!(throughputFraction > 0 && throughputFraction < 1)) {
            throw new IllegalArgumentException("stall throughputFraction must be in (0, 1), was " + throughputFraction);
        }
        if (!(latencyMultiple > 1) || Double.isInfinite(latencyMultiple)) {
            throw new IllegalArgumentException("stall latencyMultiple must be a finite number > 1, was "
                    + latencyMultiple);
        }
        requireRange("throughputMinWindows", throughputMinWindows, 1, 3600);
        requireRange("latencyMinWindows", latencyMinWindows, 1, 3600);
        requireRange("baselineWindows", baselineWindows, 1, 3600);
        requireRange("minBaselineWindows", minBaselineWindows, 1, baselineWindows);
    }

    /** 50 % for 3 windows, P99 x 3 for 2 windows, baseline of up to 60 windows, at least 5. */
    public static StallConfig defaults() {
        return new StallConfig(0.5, 3, 3.0, 2, 60, 5);
    }

    private static void requireRange(String key, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException("stall " + key + " must be in " + min + ".." + max + ", was " + value);
        }
    }
}
