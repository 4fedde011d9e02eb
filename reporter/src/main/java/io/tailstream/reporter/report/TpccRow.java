package io.tailstream.reporter.report;

import io.tailstream.reporter.query.TpccSamples;
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
 * @param skippedDeliveries completed Deliveries that skipped a district without an undelivered order
 * @param skippedDeliveriesPct {@code skippedDeliveries} in % of the completed Deliveries, or null without one
 * @param tpmCPerWarehouse tpmC / warehouses (the specification caps it at 12.86 with keying and think times), or
 *                        null when the pooled steps differ in warehouses
 * @param types           the five transaction types, in the specification's order
 * @param costPer1000TpmC the target's monthly cost / tpmC * 1000, or null without a cost
 * @param currency        the cost's currency, or null
 * @param consistency     the consistency conditions as checked after the pooled steps
 * @param efficiencyPct   with keying and think times (every pooled step): tpmC in % of the specification's maximum
 *                        of 12.86 per warehouse; null without them or when the steps differ in warehouses
 * @param roundTpmC       tpmC of each pooled step alone, oldest first, as {@link SummaryRow#roundQps()} (empty
 *                        where it is): the rounds a TPC-C verdict weighs
 */
public record TpccRow(String target, int threads, List<Integer> warehouses, double minutes, long newOrders,
                      long rolledBack, double tpmC, double nopm, Double rolledBackPct, long skippedDeliveries,
                      Double skippedDeliveriesPct, Double tpmCPerWarehouse,
                      List<Type> types, Double costPer1000TpmC, String currency, Consistency consistency,
                      Double efficiencyPct, List<Double> roundTpmC) {
    public TpccRow {
        warehouses = List.copyOf(warehouses);
        types = List.copyOf(types);
        roundTpmC = List.copyOf(roundTpmC);
    }

    /** This row with the consistency checks of its steps. */
    TpccRow withConsistency(Consistency checked) {
        return new TpccRow(target, threads, warehouses, minutes, newOrders, rolledBack, tpmC, nopm, rolledBackPct,
                skippedDeliveries, skippedDeliveriesPct, tpmCPerWarehouse, types, costPer1000TpmC, currency, checked,
                efficiencyPct, roundTpmC);
    }

    /**
     * The consistency conditions 1 to 4 as the producer checked them on the database after each step of the row.
     *
     * @param steps   the steps of the row
     * @param checked the steps after which the checks ran
     * @param broken  each condition that did not hold, as {@code run#step condition: what was found}
     * @param errors  each step whose checks could not run, as {@code run#step: why}
     */
    public record Consistency(int steps, int checked, List<String> broken, List<String> errors) {
        public Consistency {
            broken = List.copyOf(broken);
            errors = List.copyOf(errors);
        }

        /** No step checked (the option {@code check} off, or producers without the checks). */
        static Consistency unchecked(int steps) {
            return new Consistency(steps, 0, List.of(), List.of());
        }

        /** {@code held}, {@code partly} (held where checked), {@code broken}, {@code error} or {@code unchecked}. */
        public String status() {
            return !broken.isEmpty() ? "broken" : checked == steps && steps > 0 ? "held" : checked > 0 ? "partly"
                    : !errors.isEmpty() ? "error" : "unchecked";
        }

        /** The status as a sentence. */
        public Text text() {
            String status = status();
            return switch (status) {
                case "broken" -> Text.of("tpcc.consistency.broken", String.join("; ", broken));
                case "held" -> Text.of("tpcc.consistency.held", steps);
                case "partly" -> Text.of("tpcc.consistency.partly", checked, steps);
                case "error" -> Text.of("tpcc.consistency.error", String.join("; ", errors));
                default -> Text.of("tpcc.consistency.unchecked");
            };
        }
    }

    /**
     * Whether every type's 90th percentile is within its limit, every type meets its minimum share and the skipped
     * Deliveries are within {@link #skippedDeliveriesAllowed()}.
     */
    public boolean withinSpecification() {
        return types.stream().allMatch(t -> t.withinLimit() && t.meetsMinimumShare())
                && skippedDeliveries <= skippedDeliveriesAllowed();
    }

    /**
     * The most skipped Deliveries clause 5.4.5 allows: 1% of the completed Deliveries, or one, whichever is greater.
     */
    public double skippedDeliveriesAllowed() {
        long deliveries = types.stream().filter(t -> t.type().equals(TpccSamples.DELIVERY))
                .mapToLong(Type::completed).sum();
        return Math.max(1, deliveries / 100.0);
    }

    /**
     * One transaction type.
     *
     * @param type            {@code new_order}, {@code payment}, {@code order_status}, {@code delivery} or
     *                        {@code stock_level}
     * @param completed       transactions completed (New-Order: committed and rolled back; Delivery: skipping a
     *                        district or not)
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
