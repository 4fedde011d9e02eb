package io.tailstream.producer.workload.tpcc;

/**
 * The sizes of a TPC-C database (specification revision 5.11, clause 1.2 and 4.3.3.1): what one warehouse holds,
 * and the rows each table has once {@code warehouses} are loaded.
 */
final class TpccScale {

    /** Items, whatever the number of warehouses. */
    static final int ITEMS = 100_000;
    /** Districts of a warehouse. */
    static final int DISTRICTS_PER_WAREHOUSE = 10;
    /** Customers of a district. */
    static final int CUSTOMERS_PER_DISTRICT = 3_000;
    /** Orders a district holds after loading, one per customer. */
    static final int ORDERS_PER_DISTRICT = 3_000;
    /** The loaded orders still undelivered: the district's last 900 (2,101 to 3,000). */
    static final int NEW_ORDERS_PER_DISTRICT = 900;
    /** The id of a district's first undelivered loaded order. */
    static final int FIRST_NEW_ORDER = ORDERS_PER_DISTRICT - NEW_ORDERS_PER_DISTRICT + 1;
    /** Order lines of an order: uniform in [5, 15]. */
    static final int MIN_ORDER_LINES = 5;
    static final int MAX_ORDER_LINES = 15;

    private TpccScale() {
    }

    /**
     * Rows of each table right after loading {@code warehouses}, order lines excepted (5 to 15 per order, their sum
     * being the sum of the orders' {@code O_OL_CNT}).
     */
    static long rows(TpccTable table, int warehouses) {
        long w = warehouses;
        return switch (table) {
            case ITEM -> ITEMS;
            case WAREHOUSE -> w;
            case DISTRICT -> w * DISTRICTS_PER_WAREHOUSE;
            case CUSTOMER, HISTORY -> w * DISTRICTS_PER_WAREHOUSE * CUSTOMERS_PER_DISTRICT;
            case ORDERS -> w * DISTRICTS_PER_WAREHOUSE * ORDERS_PER_DISTRICT;
            case NEW_ORDER -> w * DISTRICTS_PER_WAREHOUSE * NEW_ORDERS_PER_DISTRICT;
            case STOCK -> w * ITEMS;
            case ORDER_LINE -> throw new IllegalArgumentException("order lines are 5 to 15 per order: count them");
        };
    }
}
