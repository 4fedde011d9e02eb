package io.tailstream.reporter.query;

import io.tailstream.analysis.PercentChange;
import io.tailstream.analysis.RoundStats;
import io.tailstream.analysis.interval.BlockBootstrap;
import io.tailstream.analysis.interval.Fieller;
import io.tailstream.analysis.interval.PercentInterval;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The 95% confidence intervals of a matched step's changes, candidate against baseline, in QPS and P99, and for TPC-C
 * in tpmC (completed New-Orders per measured minute, the throughput it is judged on). Where both have at least 2
 * completed rounds, the variation between rounds is the noise: Fieller's interval of the ratio of the rounds' mean
 * figures ({@link Fieller}). Otherwise the variation within the steps: the moving block bootstrap over their seconds
 * ({@link BlockBootstrap}, {@link StepSeconds}), which knows nothing of how much a run differs from the next. The
 * estimates are the exact figures' changes. Stateless and thread safe.
 */
public final class StepIntervals {

    private StepIntervals() {}

    /** Confidence of every interval. */
    public static final double CONFIDENCE = 0.95;

    /** Where the noise of an interval comes from. */
    public enum Method {
        /** Between rounds: both sides have at least 2. */
        ROUNDS,
        /** Within the steps: their per-second series, resampled in blocks. */
        SECONDS
    }

    /**
     * @param qps         the change of QPS, in percent of the baseline's
     * @param p99         the change of P99; no bounds when a side has no successful sample
     * @param method      where the noise comes from
     * @param qpsNoisePct the measured noise of QPS: the larger coefficient of variation over rounds (sample standard
     *                    deviation in % of the mean) of the two runs, of those with 2 or more rounds; null when
     *                    neither has
     * @param p99NoisePct the same of P99
     * @param tpmC        the change of tpmC for TPC-C, whose throughput it is; null for other workloads
     * @param tpmCNoisePct the measured noise of tpmC, as {@code qpsNoisePct}; null for other workloads
     */
    public record Intervals(PercentInterval qps, PercentInterval p99, Method method, Double qpsNoisePct,
                            Double p99NoisePct, PercentInterval tpmC, Double tpmCNoisePct) {

        /** The interval the throughput is judged on: tpmC's for TPC-C, QPS's otherwise. */
        public PercentInterval throughput() {
            return tpmC != null ? tpmC : qps;
        }

        /** The measured noise of {@link #throughput()}. */
        public Double throughputNoisePct() {
            return tpmC != null ? tpmCNoisePct : qpsNoisePct;
        }
    }

    /** True if the intervals of these two figures need their steps' seconds ({@link #of}'s {@code seconds}). */
    public static boolean needsSeconds(StepFigure baseline, StepFigure candidate) {
        return baseline.rounds() < 2 || candidate.rounds() < 2;
    }

    /**
     * The intervals of {@code candidate} against {@code baseline}, both completed figures of one key; with tpmC's for
     * TPC-C: between rounds as QPS's, else within the steps from their completed New-Orders per second.
     *
     * @param seconds   the per-second series of the runs' steps, by run and step id ({@link StepSecondsQuery#of});
     *                  read only when {@link #needsSeconds}
     * @param newOrders the steps' New-Orders per unit ({@link StepSecondsQuery#newOrders}), by run and step id; read
     *                  only for TPC-C when {@link #needsSeconds}
     */
    public static Intervals of(StepFigure baseline, StepFigure candidate,
                               Map<String, Map<Integer, StepSeconds>> seconds,
                               Map<String, Map<Integer, StepSeconds>> newOrders) {
        Intervals i = withoutTpmC(baseline, candidate, seconds);
        if (!baseline.tpcc()) {
            return i;
        }
        double change = PercentChange.orInfinity(candidate.tpmC(), baseline.tpmC());
        Double noise = noise(StepFigure::tpmC, baseline, candidate);
        PercentInterval tpmC;
        if (i.method() == Method.ROUNDS) {
            tpmC = rounds(change, baseline, candidate, StepFigure::tpmC);
        } else {
            StepSeconds base = seconds(newOrders, baseline);
            StepSeconds cand = seconds(newOrders, candidate);
            tpmC = base == null || cand == null ? unbounded(change) : rateWithinSteps(change, base, cand);
        }
        return new Intervals(i.qps(), i.p99(), i.method(), i.qpsNoisePct(), i.p99NoisePct(), tpmC, noise);
    }

    private static Intervals withoutTpmC(StepFigure baseline, StepFigure candidate,
                                         Map<String, Map<Integer, StepSeconds>> seconds) {
        double qpsChange = PercentChange.orInfinity(candidate.qps(), baseline.qps());
        double p99Change = PercentChange.orInfinity(candidate.p99Us(), baseline.p99Us());
        Double qpsNoise = noise(StepFigure::qps, baseline, candidate);
        Double p99Noise = noise(f -> f.p99Us(), baseline, candidate);
        if (baseline.rounds() >= 2 && candidate.rounds() >= 2) {
            return new Intervals(rounds(qpsChange, baseline, candidate, StepFigure::qps),
                    rounds(p99Change, baseline, candidate, f -> f.p99Us()), Method.ROUNDS, qpsNoise, p99Noise, null,
                    null);
        }
        StepSeconds base = seconds(seconds, baseline);
        StepSeconds cand = seconds(seconds, candidate);
        if (base == null || cand == null) {
            return new Intervals(unbounded(qpsChange), unbounded(p99Change), Method.SECONDS, qpsNoise, p99Noise, null,
                    null);
        }
        PercentInterval[] within = withinSteps(qpsChange, p99Change, base, cand,
                baseline.ok() != null && candidate.ok() != null);
        return new Intervals(within[0], within[1], Method.SECONDS, qpsNoise, p99Noise, null, null);
    }

    /**
     * The QPS and P99 intervals from the steps' per-second units: the moving block bootstrap with each side's block
     * length from its per-unit QPS (in a closed loop, throughput and latency vary together). Without
     * {@code latencies} (a side with no successful sample) the P99 interval has no bounds.
     */
    static PercentInterval[] withinSteps(double qpsChange, double p99Change, StepSeconds base, StepSeconds cand,
                                         boolean latencies) {
        int baseBlock = BlockBootstrap.blockLength(perUnit(base));
        int candBlock = BlockBootstrap.blockLength(perUnit(cand));
        PercentInterval qps = BlockBootstrap.ratio(qpsChange, base.units(), baseBlock, base::qps, cand.units(),
                candBlock, cand::qps, CONFIDENCE, BlockBootstrap.RESAMPLES);
        PercentInterval p99 = !latencies ? unbounded(p99Change)
                : BlockBootstrap.ratio(p99Change, base.units(), baseBlock, u -> orZero(base.percentileUs(u, 0.99)),
                        cand.units(), candBlock, u -> orZero(cand.percentileUs(u, 0.99)), CONFIDENCE,
                        BlockBootstrap.RESAMPLES);
        return new PercentInterval[] {qps, p99};
    }

    /**
     * The interval of a change in the rate of what the units count ({@link StepSeconds#qps}: statements, or TPC-C's
     * New-Orders) from the steps' per-second units: the moving block bootstrap, each side's block length from its own
     * series.
     */
    static PercentInterval rateWithinSteps(double change, StepSeconds base, StepSeconds cand) {
        return BlockBootstrap.ratio(change, base.units(), BlockBootstrap.blockLength(perUnit(base)), base::qps,
                cand.units(), BlockBootstrap.blockLength(perUnit(cand)), cand::qps, CONFIDENCE,
                BlockBootstrap.RESAMPLES);
    }

    /** The larger coefficient of variation over rounds, %, of the figures with 2 or more rounds; null if none has. */
    static Double noise(ToDoubleFunction<StepFigure> figure, StepFigure... figures) {
        Double out = null;
        for (StepFigure f : figures) {
            Double cv = f.rounds() < 2 ? null
                    : RoundStats.of(f.perStep().stream().mapToDouble(figure).toArray()).cvPct();
            if (cv != null) {
                out = out == null ? cv : Math.max(out, cv);
            }
        }
        return out;
    }

    private static PercentInterval rounds(double change, StepFigure baseline, StepFigure candidate,
                                          ToDoubleFunction<StepFigure> figure) {
        double[] b = baseline.perStep().stream().mapToDouble(figure).toArray();
        double[] c = candidate.perStep().stream().mapToDouble(figure).toArray();
        PercentInterval f = Fieller.ratioOfMeans(c, b, CONFIDENCE);
        return new PercentInterval(change, f.lowPct(), f.highPct(), CONFIDENCE);
    }

    private static StepSeconds seconds(Map<String, Map<Integer, StepSeconds>> seconds, StepFigure figure) {
        List<StepSeconds> parts = new ArrayList<>();
        for (StepFigure.StepRef ref : figure.steps()) {
            StepSeconds s = seconds.getOrDefault(ref.runId(), Map.of()).get(ref.stepId());
            if (s != null && s.units() > 0) {
                parts.add(s);
            }
        }
        return parts.isEmpty() ? null : StepSeconds.concat(parts);
    }

    private static double[] perUnit(StepSeconds s) {
        double[] out = new double[s.units()];
        for (int u = 0; u < out.length; u++) {
            out[u] = s.qps(u);
        }
        return out;
    }

    private static double orZero(double v) {
        return Double.isNaN(v) ? 0 : v;
    }

    private static PercentInterval unbounded(double change) {
        return new PercentInterval(change, null, null, CONFIDENCE);
    }
}
