package io.tailstream.reporter.report;

import java.util.List;

/**
 * Price/performance of a target on a workload.
 *
 * @param peakQps             highest QPS over the concurrencies
 * @param peakThreads         where it was reached
 * @param costPer1000Qps      monthlyCost / peakQps * 1000
 * @param qpsPer1000Currency  peakQps / monthlyCost * 1000
 * @param atQps               QPS at the chosen concurrency, or null
 * @param atCostPer1000Qps    monthlyCost / atQps * 1000, or null
 * @param atQpsPer1000Currency atQps / monthlyCost * 1000, or null
 * @param items               the parts of the monthly cost from the plan, in plan order (empty: none listed)
 */
public record Cost(String target, double monthlyCost, String currency, double peakQps, int peakThreads,
                   double costPer1000Qps, double qpsPer1000Currency, Double atQps, Double atCostPer1000Qps,
                   Double atQpsPer1000Currency, List<CostItem> items) {
    public Cost {
        items = List.copyOf(items);
    }

    /**
     * One part of a target's monthly cost.
     *
     * @param sharePct amount / monthly cost * 100
     */
    public record CostItem(String name, double amount, double sharePct) {}
}
