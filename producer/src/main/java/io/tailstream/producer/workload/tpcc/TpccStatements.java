package io.tailstream.producer.workload.tpcc;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/** The prepared statements of {@link TpccSql} on one connection (New-Order's stock reads excepted). */
final class TpccStatements {

    /** Prepares one statement on the session's connection. */
    @FunctionalInterface
    interface Preparer {
        PreparedStatement prepare(String sql) throws SQLException;
    }

    final PreparedStatement noWarehouse;
    final PreparedStatement noDistrict;
    final PreparedStatement noDistrictNext;
    final PreparedStatement noCustomer;
    final PreparedStatement noOrder;
    final PreparedStatement noNewOrder;
    final PreparedStatement noItem;
    final PreparedStatement noStockUpdate;
    final PreparedStatement noOrderLine;
    final PreparedStatement payWarehouse;
    final PreparedStatement payWarehouseRead;
    final PreparedStatement payDistrict;
    final PreparedStatement payDistrictRead;
    final PreparedStatement customersByName;
    final PreparedStatement payCustomer;
    final PreparedStatement payCustomerUpdate;
    final PreparedStatement payCustomerBadCredit;
    final PreparedStatement payHistory;
    final PreparedStatement osCustomer;
    final PreparedStatement osLastOrder;
    final PreparedStatement osOrderLines;
    final PreparedStatement dlOldestNewOrder;
    final PreparedStatement dlDeleteNewOrder;
    final PreparedStatement dlOrderCustomer;
    final PreparedStatement dlOrderCarrier;
    final PreparedStatement dlOrderLines;
    final PreparedStatement dlOrderAmount;
    final PreparedStatement dlCustomer;
    final PreparedStatement slDistrict;
    final PreparedStatement slLowStock;

    TpccStatements(Preparer p) throws SQLException {
        noWarehouse = p.prepare(TpccSql.NO_WAREHOUSE);
        noDistrict = p.prepare(TpccSql.NO_DISTRICT);
        noDistrictNext = p.prepare(TpccSql.NO_DISTRICT_NEXT);
        noCustomer = p.prepare(TpccSql.NO_CUSTOMER);
        noOrder = p.prepare(TpccSql.NO_ORDER);
        noNewOrder = p.prepare(TpccSql.NO_NEW_ORDER);
        noItem = p.prepare(TpccSql.NO_ITEM);
        noStockUpdate = p.prepare(TpccSql.NO_STOCK_UPDATE);
        noOrderLine = p.prepare(TpccSql.NO_ORDER_LINE);
        payWarehouse = p.prepare(TpccSql.PAY_WAREHOUSE);
        payWarehouseRead = p.prepare(TpccSql.PAY_WAREHOUSE_READ);
        payDistrict = p.prepare(TpccSql.PAY_DISTRICT);
        payDistrictRead = p.prepare(TpccSql.PAY_DISTRICT_READ);
        customersByName = p.prepare(TpccSql.CUSTOMERS_BY_NAME);
        payCustomer = p.prepare(TpccSql.PAY_CUSTOMER);
        payCustomerUpdate = p.prepare(TpccSql.PAY_CUSTOMER_UPDATE);
        payCustomerBadCredit = p.prepare(TpccSql.PAY_CUSTOMER_UPDATE_BAD_CREDIT);
        payHistory = p.prepare(TpccSql.PAY_HISTORY);
        osCustomer = p.prepare(TpccSql.OS_CUSTOMER);
        osLastOrder = p.prepare(TpccSql.OS_LAST_ORDER);
        osOrderLines = p.prepare(TpccSql.OS_ORDER_LINES);
        dlOldestNewOrder = p.prepare(TpccSql.DL_OLDEST_NEW_ORDER);
        dlDeleteNewOrder = p.prepare(TpccSql.DL_DELETE_NEW_ORDER);
        dlOrderCustomer = p.prepare(TpccSql.DL_ORDER_CUSTOMER);
        dlOrderCarrier = p.prepare(TpccSql.DL_ORDER_CARRIER);
        dlOrderLines = p.prepare(TpccSql.DL_ORDER_LINES);
        dlOrderAmount = p.prepare(TpccSql.DL_ORDER_AMOUNT);
        dlCustomer = p.prepare(TpccSql.DL_CUSTOMER);
        slDistrict = p.prepare(TpccSql.SL_DISTRICT);
        slLowStock = p.prepare(TpccSql.SL_LOW_STOCK);
    }
}
