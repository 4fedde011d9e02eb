package io.tailstream.producer.workload.tpcc;

/** The nine tables of TPC-C, in the order they are loaded. */
enum TpccTable {
    ITEM, WAREHOUSE, DISTRICT, CUSTOMER, HISTORY, ORDERS, NEW_ORDER, ORDER_LINE, STOCK
}
