package io.tailstream.reporter.report;

import java.util.List;

/**
 * TPC-C figures of one target at one concurrency: the completed steps of its summary row pooled, measured samples
 * only, over the same measured span as the row. Definitions in docs/report.md.
 *
 * @param warehouses      the steps' warehouses (several when the pooled steps differ)
 * @param minutes         the measured span, in minutes
 * @param tpmC            New-Order transactions completed per minute: committed, or rolled back by their unused
 *                        item as the specification has 1% of them do; failed ones (errors) not counted
 * @param nopm            New-Orders committed per minute: what the districts' order ids advance by
 * @param rolledBackPct   rolled-back New-Orders in % of the completed ones, or null without a New-Order
 * @param tpmCPerWarehouse tpmC / warehouses (the specification caps it at 12.86 with keying and think times), or
 *                        null when the pooled steps differ in warehouses
 * @param types           the five transaction types, in the specification's order
 * @param costPer1000TpmC the target's monthly cost / tpmC * 1000, or null without a cost
 * @param currency        the cost's currency, or null
 */
public record TpccRow(String target, int threads, List<Integer> warehouses, double minutes, long newOrders,
                      long rolledBack, double tpmC, double nopm, Double rolledBackPct, Double tpmCPerWarehouse,
                      List<Type> types, Double costPer1000TpmC, String currency) {
    public TpccRow {
        warehouses = List.copyOf(warehouses);
        types = List.copyOf(types);
    }

    /** Whether every type's 90th percentile is within its limit and every type meets its minimum share. */
    public boolean withinSpecification() {
        return types.stream().allMatch(t -> t.withinLimit() && t.meetsMinimumShare());
    }

    /**
     * One transaction type.
     *
     * @param type            {@code new_order}, {@code payment}, {@code order_status}, {@code delivery} or
     *                        {@code stock_level}
     * @param completed       transactions completed (New-Order: committed and rolled back)
     * @param errors          transactions that failed
     * @param tps             completed / measured seconds
     * @param sharePct        completed in % of all types' completed
     * @param minimumSharePct the specification's minimum share of the mix, or null (New-Order takes the rest)
     * @param p90Ms           90th percentile response time of the completed, by nearest rank, or null without any
     * @param limitMs         the specification's limit on the 90th percentile
     */
    public record Type(String type, long completed, long errors, double tps, double sharePct, Double minimumSharePct,
                       Double p90Ms, double limitMs) {

        /** The 90th percentile within the limit (true without a completed transaction: nothing exceeded it). */
        public boolean withinLimit() {
            return p90Ms == null || p90Ms <= limitMs;
        }

        /** At or above the minimum share (true for a type without one). */
        public boolean meetsMinimumShare() {
            return minimumSharePct == null || sharePct >= minimumSharePct;
        }
    }
}
