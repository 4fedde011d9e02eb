package io.tailstream.reporter.report;

import io.tailstream.reporter.report.Evidence.Probe;
import io.tailstream.reporter.report.Evidence.StepData;
import io.tailstream.reporter.report.ValidityChecks.Problem;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The RTT check: whether the targets of a workload sit far enough apart in round-trip time (from the probe taken
 * before each step on an idle connection) for the difference to move their figures. Feeds the {@code rtt} verdict
 * check and checklist item. Stateless and thread safe.
 */
final class RttCheck {

    /** Probe RTTs further apart than this factor (slower / faster target) may matter ... */
    public static final double MAX_RTT_RATIO = 1.5;
    /**
     * ... when the difference, paid once per statement, adds more than this share to the faster target's mean
     * transaction latency.
     */
    public static final double MAX_RTT_LATENCY_SHARE = 0.05;

    private RttCheck() {}

    /** The RTT comparison of a workload's targets: the figures, and whether the difference may matter. */
    record Judgement(boolean matters, Text text) {}

    /**
     * Probe RTTs of the targets compared: each target's median over its steps of the probe's median (P99 likewise).
     * The difference may matter when the slower target's median exceeds the faster's by more than
     * {@link #MAX_RTT_RATIO} times and the difference, paid once per statement, adds more than
     * {@link #MAX_RTT_LATENCY_SHARE} of the faster target's mean transaction latency (its lowest over its rows of the
     * workload). Null when fewer than two of the targets have a probe.
     */
    static Judgement judgement(WorkloadSummary w, Set<String> targets, List<StepData> steps) {
        Map<String, double[]> rtt = byTarget(steps);
        List<String> with = targets.stream().filter(rtt::containsKey).sorted().toList();
        if (with.size() < 2) {
            return null;
        }
        // fastest first, then by name: with equal medians the two named are still two different targets
        List<String> byRtt = with.stream().sorted(Comparator.comparingDouble((String t) -> rtt.get(t)[0])
                .thenComparing(t -> t)).toList();
        String fast = byRtt.get(0);
        String slow = byRtt.get(byRtt.size() - 1);
        double diffUs = rtt.get(slow)[0] - rtt.get(fast)[0];
        double ratio = rtt.get(fast)[0] > 0 ? rtt.get(slow)[0] / rtt.get(fast)[0] : Double.POSITIVE_INFINITY;
        // the faster target's lowest mean latency per statement over its rows: where a round trip weighs most
        double perStatementUs = Double.POSITIVE_INFINITY;
        double txnUs = 0;
        double statements = 0;
        for (SummaryRow r : w.rows()) {
            if (!r.target().equals(fast) || r.transactions() == 0 || r.qps() <= 0) {
                continue;
            }
            double perTxn = r.qps() * r.measuredSeconds() / r.transactions();
            double us = r.avgMs() * 1000 / perTxn;
            if (us < perStatementUs) {
                perStatementUs = us;
                txnUs = r.avgMs() * 1000;
                statements = perTxn;
            }
        }
        boolean known = perStatementUs < Double.POSITIVE_INFINITY;
        double sharePct = known ? diffUs * statements / txnUs * 100 : Double.NaN;
        boolean matters = ratio > MAX_RTT_RATIO && known && diffUs * statements > MAX_RTT_LATENCY_SHARE * txnUs;
        Text t = Text.of(matters ? "finding.rtt" : "finding.rttOk", w.workload(), fast, fmt3(rtt.get(fast)[0] / 1000),
                fmt3(rtt.get(fast)[1] / 1000), slow, fmt3(rtt.get(slow)[0] / 1000), fmt3(rtt.get(slow)[1] / 1000),
                String.format(Locale.ROOT, "%.2f", ratio), known ? ValidityChecks.fmt(sharePct) : "-",
                known ? fmt3(txnUs / 1000) : "-", known ? ValidityChecks.fmt(statements) : "-");
        return new Judgement(matters, t);
    }

    /** The {@code rtt} problem of the targets compared, when their RTTs differ enough to matter. */
    static Optional<Problem> problem(WorkloadSummary w, Set<String> targets, List<StepData> steps) {
        Judgement j = judgement(w, targets, steps);
        return j == null || !j.matters() ? Optional.empty()
                : Optional.of(new Problem("rtt", w.workload(), targets, null, j.text()));
    }

    /** Per target: {median of the probes' medians, median of the probes' P99s, probes} in µs. */
    static Map<String, double[]> byTarget(List<StepData> steps) {
        Map<String, List<Probe>> by = new TreeMap<>();
        steps.stream().filter(s -> s.probe() != null)
                .forEach(s -> by.computeIfAbsent(s.info().target(), k -> new ArrayList<>()).add(s.probe()));
        Map<String, double[]> out = new TreeMap<>();
        by.forEach((t, ps) -> out.put(t, new double[] {median(ps.stream().map(Probe::p50Us).toList()),
                median(ps.stream().map(Probe::p99Us).toList()), ps.size()}));
        return out;
    }

    /** The median (mean of the middle two for an even count). */
    static double median(List<Double> values) {
        List<Double> v = values.stream().sorted().toList();
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }

    private static String fmt3(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
