package io.tailstream.reporter.query;

/**
 * What the reporter reads of TPC-C's samples, in one place for the report, its verdicts and the history: the
 * workload's name and which samples are completed New-Orders, the ones tpmC counts.
 */
public final class TpccSamples {

    /** The workload's name, as the producer registers it. */
    public static final String WORKLOAD = "tpcc";
    /** The op of a New-Order that committed. */
    public static final String NEW_ORDER = "new_order";
    /** The op of a New-Order that its unused item rolled back, as the specification has 1% of them do. */
    public static final String NEW_ORDER_ROLLBACK = "new_order_rollback";
    /** The op of a Delivery that delivered an order in every district of its warehouse. */
    public static final String DELIVERY = "delivery";
    /** The op of a Delivery that skipped a district without an undelivered order (clause 2.7.4.2). */
    public static final String DELIVERY_SKIPPED = "delivery_skipped";
    /**
     * SQL condition on a sample {@code s}: a completed New-Order, committed or rolled back by its unused item (a
     * failed one, a deadlock say, is not). The specification counts the rolled-back ones as completed (clause 5.1.2)
     * and has them included in tpmC (clause 5.4.2).
     */
    public static final String COMPLETED_NEW_ORDER = completedNewOrder("s");

    /** {@link #COMPLETED_NEW_ORDER} on the {@code status} and {@code op} columns of {@code table}. */
    public static String completedNewOrder(String table) {
        return table + ".status = 'ok' AND " + table + ".op IN ('" + NEW_ORDER + "', '" + NEW_ORDER_ROLLBACK + "')";
    }

    /** Whether {@code workload} is TPC-C, whose throughput is tpmC. */
    public static boolean isTpcc(String workload) {
        return WORKLOAD.equals(workload);
    }

    private TpccSamples() {}
}
