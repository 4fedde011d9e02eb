package io.tailstream.reporter.report;

import io.tailstream.reporter.query.TpccSamples;
import io.tailstream.reporter.report.Environment.TargetEnv;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * TPC-C figures from the latencies of one target's measured samples at one concurrency, by op and outcome: the
 * specification's figures (clause 5: tpmC, the mix, the 90th percentile response times against their limits, the
 * skipped Deliveries) and the rolled-back share. Pure computation; {@link TpccQuery} reads the latencies.
 */
final class TpccFigures {

    /** The five types, in the specification's order. */
    static final List<String> TYPES = List.of("new_order", "payment", "order_status", "delivery", "stock_level");
    /** Minimum share (%) of each type in the mix; New-Order has none (it is what the others leave). */
    private static final Map<String, Double> MINIMUM_SHARE_PCT = Map.of("payment", 43.0, "order_status", 4.0,
            "delivery", 4.0, "stock_level", 4.0);
    /** The ops of each type besides the type's own: the New-Orders rolled back, the Deliveries that skipped. */
    private static final Map<String, String> VARIANT = Map.of(TpccSamples.NEW_ORDER, TpccSamples.NEW_ORDER_ROLLBACK,
            TpccSamples.DELIVERY, TpccSamples.DELIVERY_SKIPPED);
    /** Limit (ms) on each type's 90th percentile response time. */
    private static final Map<String, Double> LIMIT_MS = Map.of("new_order", 5_000.0, "payment", 5_000.0,
            "order_status", 5_000.0, "delivery", 80_000.0, "stock_level", 20_000.0);

    /**
     * The most New-Orders a warehouse's 10 terminals complete a minute with keying and think times: 45% of the
     * 60 s / 20.99 s mean cycle of the mix, times 10.
     */
    static final double MAX_TPMC_PER_WAREHOUSE = 12.86;

    private TpccFigures() {}

    /**
     * Latency counts of one op and outcome: latency in µs to the number of samples with it.
     *
     * @param ok whether the samples succeeded
     */
    record Counts(String op, boolean ok, NavigableMap<Long, Long> byLatencyUs) {
        long total() {
            return byLatencyUs.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /**
     * The figures of {@code row} (its measured span and concurrency) from its samples' latency counts.
     *
     * @param thinkTimes whether every pooled step ran with keying and think times
     */
    static TpccRow row(SummaryRow row, List<Integer> warehouses, boolean thinkTimes, List<Counts> counts,
                       TargetEnv target) {
        double seconds = row.measuredSeconds();
        double minutes = seconds / 60;
        long rolledBack = completed(counts, TpccSamples.NEW_ORDER_ROLLBACK);
        long committed = completed(counts, "new_order");
        long skipped = completed(counts, TpccSamples.DELIVERY_SKIPPED);
        long deliveries = completed(counts, TpccSamples.DELIVERY) + skipped;
        long all = TYPES.stream().mapToLong(t -> completed(counts, t)).sum() + rolledBack + skipped;
        List<TpccRow.Type> types = new ArrayList<>();
        for (String type : TYPES) {
            NavigableMap<Long, Long> latencies = new TreeMap<>();
            long errors = 0;
            for (Counts c : counts) {
                if (!c.op().equals(type) && !c.op().equals(VARIANT.get(type))) {
                    continue;
                }
                if (c.ok()) {
                    c.byLatencyUs().forEach((latency, n) -> latencies.merge(latency, n, Long::sum));
                } else {
                    errors += c.total();
                }
            }
            long completed = latencies.values().stream().mapToLong(Long::longValue).sum();
            Long p90 = nearestRank(latencies, 90);
            types.add(new TpccRow.Type(type, completed, errors, rate(completed, seconds),
                    all == 0 ? 0 : completed * 100.0 / all, MINIMUM_SHARE_PCT.get(type),
                    p90 == null ? null : p90 / 1000.0, LIMIT_MS.get(type)));
        }
        long newOrders = committed + rolledBack;
        double tpmC = minutes > 0 ? newOrders / minutes : 0;
        Double cost = target == null || target.monthlyCost() == null || target.monthlyCost() <= 0 || tpmC <= 0 ? null
                : target.monthlyCost() / tpmC * 1000;
        return new TpccRow(row.target(), row.threads(), warehouses, minutes, newOrders, rolledBack, tpmC,
                minutes > 0 ? committed / minutes : 0, newOrders == 0 ? null : rolledBack * 100.0 / newOrders,
                skipped, deliveries == 0 ? null : skipped * 100.0 / deliveries,
                warehouses.size() == 1 ? tpmC / warehouses.get(0) : null, types, cost,
                cost == null ? null : target.currency(), TpccRow.Consistency.unchecked(row.rounds()),
                thinkTimes && warehouses.size() == 1 ? tpmC / (MAX_TPMC_PER_WAREHOUSE * warehouses.get(0)) * 100
                        : null, row.roundTpmC());
    }

    /**
     * The {@code pct}th percentile by nearest rank: the smallest latency with at least {@code pct}% of the samples at
     * or below it, i.e. sorted[ceil(pct / 100 × n) - 1]; null without a sample.
     */
    static Long nearestRank(NavigableMap<Long, Long> byLatency, int pct) {
        long n = byLatency.values().stream().mapToLong(Long::longValue).sum();
        long upto = 0;
        for (Map.Entry<Long, Long> e : byLatency.entrySet()) {
            upto += e.getValue();
            if (upto * 100 >= n * pct) {
                return e.getKey();
            }
        }
        return null;
    }

    private static long completed(List<Counts> counts, String op) {
        return counts.stream().filter(c -> c.ok() && c.op().equals(op)).mapToLong(Counts::total).sum();
    }

    private static double rate(long count, double seconds) {
        return seconds > 0 ? count / seconds : 0;
    }
}
