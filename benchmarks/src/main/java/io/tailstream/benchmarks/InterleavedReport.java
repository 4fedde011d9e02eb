package io.tailstream.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The statistics and the printed result of {@link EmissionInterleavedMain}: from its measured segments (whole quartets
 * A B B A), the ratio of the B segments' mean TPS over the A segments', its 95% bootstrap interval over quartets, the
 * conservative figure that charges A for its idle emission threads, and CPU per transaction by thread role. TPS is
 * transactions per second of wall-clock time, CPU in nanoseconds. Stateless.
 */
final class InterleavedReport {

    private static final int BOOTSTRAP_RESAMPLES = 10_000;

    private InterleavedReport() {}

    /** Prints every segment's TPS, the ratio B/A with its interval, the verdict and the CPU split. */
    static void print(List<Segment> segments) {
        StringBuilder line = new StringBuilder("segment TPS:");
        for (int i = 0; i < segments.size(); i++) {
            Segment s = segments.get(i);
            line.append(i % 4 == 0 ? "\n  " : " ").append(s.emitting ? "B " : "A ")
                    .append(String.format(Locale.ROOT, "%,.0f", s.tps()));
        }
        System.out.println(line);
        List<Quartet> quartets = new ArrayList<>();
        for (int q = 0; q + 3 < segments.size(); q += 4) {
            quartets.add(Quartet.of(segments.subList(q, q + 4)));
        }
        double ratio = ratioOfMeans(quartets);
        double[] ci = bootstrapInterval(quartets);
        System.out.printf(Locale.ROOT, "TPS B/A (mean TPS of the B segments over that of the A segments, %d quartets):"
                + " %.4f (95%% bootstrap interval over quartets %.4f .. %.4f)%n", quartets.size(), ratio, ci[0], ci[1]);
        // A segments keep the emitter's and the Kafka client's threads alive and idle, which --no-emit does not
        // start: a CPU-bound A would be faster without them by at most their share of its CPU, so the ratio is also
        // given against that faster A (conservative)
        double idleShare = idleEmissionShare(segments);
        double conservative = 1 - idleShare;
        System.out.printf(Locale.ROOT, "emission changes maximum TPS by %+.2f%% (95%% interval %+.2f%% .. %+.2f%%)%n",
                (ratio - 1) * 100, (ci[0] - 1) * 100, (ci[1] - 1) * 100);
        System.out.printf(Locale.ROOT, "idle emitter and Kafka client threads in A: %.2f%% of A's CPU; against an A"
                        + " without them: %+.2f%% (95%% interval %+.2f%% .. %+.2f%%)%n", idleShare * 100,
                (ratio * conservative - 1) * 100, (ci[0] * conservative - 1) * 100, (ci[1] * conservative - 1) * 100);
        // the question is a cost: emission lowering maximum TPS by 3% or more
        double low = ci[0] * conservative;
        System.out.printf(Locale.ROOT, "target: emission costs less than 3%% of maximum TPS -> %s%n", low > 0.97
                ? "shown (a cost of 3% or more is outside the conservative interval)"
                : ratio * conservative > 0.97 ? "not shown (the estimate is within 3%, the interval is not)"
                        : "not met");
        cpuSplit(segments);
    }

    /**
     * Mean TPS of the B segments over mean TPS of the A segments. Not the mean of per-quartet ratios: with segments
     * this noisy, a mean of ratios is biased upwards (a quartet whose A segments happened to be slow weighs more).
     */
    private static double ratioOfMeans(List<Quartet> quartets) {
        double a = 0;
        double b = 0;
        for (Quartet q : quartets) {
            a += q.aTps;
            b += q.bTps;
        }
        return b / a;
    }

    /** 2.5th and 97.5th percentiles of {@link #ratioOfMeans} over quartets resampled with replacement (fixed seed). */
    private static double[] bootstrapInterval(List<Quartet> quartets) {
        SplittableRandom random = new SplittableRandom(20261130L);
        double[] ratios = new double[BOOTSTRAP_RESAMPLES];
        List<Quartet> sample = new ArrayList<>(quartets.size());
        for (int r = 0; r < BOOTSTRAP_RESAMPLES; r++) {
            sample.clear();
            for (int i = 0; i < quartets.size(); i++) {
                sample.add(quartets.get(random.nextInt(quartets.size())));
            }
            ratios[r] = ratioOfMeans(sample);
        }
        Arrays.sort(ratios);
        return new double[] {ratios[(int) (0.025 * BOOTSTRAP_RESAMPLES)],
                ratios[(int) (0.975 * BOOTSTRAP_RESAMPLES) - 1]};
    }

    /** Summed TPS of a quartet's two A and two B segments. */
    private record Quartet(double aTps, double bTps) {
        static Quartet of(List<Segment> four) {
            double a = 0;
            double b = 0;
            int emitting = 0;
            for (Segment s : four) {
                if (s.emitting) {
                    b += s.tps();
                    emitting++;
                } else {
                    a += s.tps();
                }
            }
            if (emitting != 2) {
                throw new IllegalStateException("a quartet needs two A and two B segments, had " + emitting + " B");
            }
            return new Quartet(a, b);
        }
    }

    /** The emitter's and Kafka client's share of the process CPU in A segments, where they only idle. */
    private static double idleEmissionShare(List<Segment> segments) {
        long idle = 0;
        long process = 0;
        for (Segment s : segments) {
            if (!s.emitting) {
                idle += s.cpuByRole.getOrDefault(EmissionRoles.EMITTER, 0L)
                        + s.cpuByRole.getOrDefault(EmissionRoles.KAFKA_CLIENT, 0L);
                process += s.processCpuNanos;
            }
        }
        return (double) idle / process;
    }

    /** CPU per transaction by thread role, over all A and all B segments. */
    private static void cpuSplit(List<Segment> segments) {
        for (boolean emitting : new boolean[] {false, true}) {
            long transactions = 0;
            long processCpu = 0;
            double seconds = 0;
            Map<String, Long> byRole = new TreeMap<>();
            for (Segment s : segments) {
                if (s.emitting == emitting) {
                    transactions += s.transactions;
                    processCpu += s.processCpuNanos;
                    seconds += s.seconds;
                    s.cpuByRole.forEach((role, ns) -> byRole.merge(role, ns, Long::sum));
                }
            }
            double meanSegmentTps = segments.stream().filter(s -> s.emitting == emitting)
                    .mapToDouble(Segment::tps).average().orElseThrow();
            System.out.printf(Locale.ROOT, "%s %,d transactions in %.1f s: %,.0f TPS (mean of segments %,.0f)%n",
                    emitting ? "B emit   " : "A no-emit", transactions, seconds, transactions / seconds,
                    meanSegmentTps);
            StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                    "%s process CPU %.2f cores; CPU per transaction: process %.0f ns;", emitting ? "B emit   "
                            : "A no-emit", processCpu / seconds / 1e9, (double) processCpu / transactions));
            long n = transactions;
            byRole.forEach((role, ns) -> out.append(String.format(Locale.ROOT, "  %s %.1f", role, (double) ns / n)));
            System.out.println(out);
        }
    }

    /** One measured segment: emission on or off, transactions counted and CPU used over its steady part. */
    record Segment(boolean emitting, long transactions, double seconds, long processCpuNanos,
                   Map<String, Long> cpuByRole) {
        double tps() {
            return transactions / seconds;
        }
    }
}
