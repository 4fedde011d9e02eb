package io.tailstream.producer.workload.tpcc;

import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.target.SqlResources;
import io.tailstream.producer.target.TransactionControl;
import io.tailstream.producer.workload.TransactionOutcome;
import io.tailstream.producer.workload.WorkloadSession;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;

/**
 * One TPC-C terminal on one connection: bound to a home warehouse and a district (clause 5.2.2), it runs the five
 * transactions in a mix above the specification's minimum shares (New-Order and Payment 10 of 23 each,
 * Order-Status, Delivery and Stock-Level 1 each, dealt by {@link TpccMix}) with their inputs drawn as clause 2.4.1
 * to 2.8.1 draw them, without keying or think times unless paced ({@link TpccPacing}: the session asks its worker
 * to wait before each transaction). A New-Order whose last item is the specified unused id (1% of them) reads the
 * item, finds none and rolls back: op {@link #NEW_ORDER_ROLLBACK}, not an error. A Delivery that finds a district
 * without an undelivered order skips it: op {@link #DELIVERY_SKIPPED}, which the report counts against clause 5.4.5.
 */
final class TpccSession implements WorkloadSession {

    /** The ops, indexed as samples carry them. */
    static final List<String> OPS = List.of("new_order", "payment", "order_status", "delivery", "stock_level",
            "new_order_rollback", "delivery_skipped");
    static final int NEW_ORDER = 0;
    static final int PAYMENT = 1;
    static final int ORDER_STATUS = 2;
    static final int DELIVERY = 3;
    static final int STOCK_LEVEL = 4;
    static final int NEW_ORDER_ROLLBACK = 5;
    static final int DELIVERY_SKIPPED = 6;
    /** An item id no item has: the last item of a New-Order that rolls back (clause 2.4.1.4). */
    static final int UNUSED_ITEM = TpccScale.ITEMS + 1;

    /** Where a terminal works: its home warehouse, and its district for Stock-Level. */
    record Terminal(int warehouse, int district) {
    }

    private final TpccRandom random;
    private final TpccMix mix;
    /** Keying and think times, or null without them. */
    private final TpccPacing pacing;
    /** The type of the next transaction, drawn ahead when pacing needs its keying time; -1 when not drawn. */
    private int next = -1;
    /** The wait the terminal asks for before its next transaction, ns. */
    private long pause;
    private final Terminal terminal;
    private final int warehouses;
    private final TransactionControl tx;
    private final List<PreparedStatement> all = new ArrayList<>();
    private final TpccStatements s;
    private final PreparedStatement[] noStock = new PreparedStatement[TpccScale.DISTRICTS_PER_WAREHOUSE];

    TpccSession(Connection c, Dialect dialect, TpccRandom random, Terminal terminal, int warehouses, boolean paced)
            throws SQLException {
        this.random = random;
        this.mix = new TpccMix(random);
        this.pacing = paced ? new TpccPacing(random) : null;
        if (paced) {
            next = mix.next();
            pause = pacing.keyingNanos(next);
        }
        this.terminal = terminal;
        this.warehouses = warehouses;
        TransactionControl t = dialect.transactions(c);
        try {
            s = new TpccStatements(sql -> {
                PreparedStatement ps = dialect.prepare(c, sql);
                all.add(ps);
                return ps;
            });
            for (int d = 1; d <= noStock.length; d++) {
                noStock[d - 1] = dialect.prepare(c, TpccSql.noStock(d));
                all.add(noStock[d - 1]);
            }
        } catch (SQLException e) {
            List<AutoCloseable> opened = new ArrayList<>(all);
            opened.add(t);
            throw SqlResources.closeAll(e, opened);
        }
        this.tx = t;
    }

    @Override
    public void execute(TransactionOutcome out) throws SQLException {
        out.reset();
        int op = next >= 0 ? next : mix.next();
        next = -1;
        pause = 0;
        out.op(op);
        out.statement();
        tx.begin();
        try {
            boolean commit = switch (op) {
                case NEW_ORDER -> newOrder(out);
                case PAYMENT -> payment(out);
                case ORDER_STATUS -> orderStatus(out);
                case DELIVERY -> delivery(out);
                default -> stockLevel(out);
            };
            out.statement();
            if (commit) {
                tx.commit();
            } else {
                tx.rollback();
            }
            pace(op);
        } catch (SQLException e) {
            try {
                tx.rollback();
            } catch (SQLException r) {
                e.addSuppressed(r);
            }
            pace(op);
            throw e;
        }
    }

    /** With pacing, the think time after {@code op} and the keying time of the next transaction, drawn now. */
    private void pace(int op) {
        if (pacing != null) {
            next = mix.next();
            pause = pacing.thinkNanos(op) + pacing.keyingNanos(next);
        }
    }

    @Override
    public long pauseNanos() {
        long p = pause;
        pause = 0;
        return p;
    }

    /** Clause 2.4.2; false when its unused item makes it roll back. */
    private boolean newOrder(TransactionOutcome out) throws SQLException {
        int w = terminal.warehouse();
        int d = random.uniform(1, TpccScale.DISTRICTS_PER_WAREHOUSE);
        int c = random.customerId();
        int lines = random.uniform(TpccScale.MIN_ORDER_LINES, TpccScale.MAX_ORDER_LINES);
        boolean rollback = random.uniform(1, 100) == 1;
        int[] items = new int[lines];
        int[] supply = new int[lines];
        int[] quantity = new int[lines];
        boolean allLocal = true;
        for (int i = 0; i < lines; i++) {
            items[i] = rollback && i == lines - 1 ? UNUSED_ITEM : random.itemId();
            supply[i] = warehouses > 1 && random.uniform(1, 100) == 1 ? otherWarehouse(w) : w;
            allLocal &= supply[i] == w;
            quantity[i] = random.uniform(1, 10);
        }
        query(out, s.noWarehouse, w);
        int orderId;
        try (ResultSet rs = query(out, s.noDistrict, w, d)) {
            rs.next();
            orderId = rs.getInt(2);
        }
        update(out, s.noDistrictNext, w, d);
        query(out, s.noCustomer, w, d, c).close();
        out.statement();
        s.noOrder.setInt(1, w);
        s.noOrder.setInt(2, d);
        s.noOrder.setInt(3, orderId);
        s.noOrder.setInt(4, c);
        s.noOrder.setTimestamp(5, new Timestamp(System.currentTimeMillis()));
        s.noOrder.setInt(6, lines);
        s.noOrder.setInt(7, allLocal ? 1 : 0);
        s.noOrder.executeUpdate();
        update(out, s.noNewOrder, w, d, orderId);
        for (int i = 0; i < lines; i++) {
            BigDecimal price;
            try (ResultSet rs = query(out, s.noItem, items[i])) {
                if (!rs.next()) {
                    out.op(NEW_ORDER_ROLLBACK);
                    return false;
                }
                price = rs.getBigDecimal(1);
            }
            int stock;
            String distInfo;
            try (ResultSet rs = query(out, noStock[d - 1], supply[i], items[i])) {
                rs.next();
                stock = rs.getInt(1);
                distInfo = rs.getString(3);
            }
            int left = stock >= quantity[i] + 10 ? stock - quantity[i] : stock - quantity[i] + 91;
            update(out, s.noStockUpdate, left, quantity[i], supply[i] == w ? 0 : 1, supply[i], items[i]);
            out.statement();
            PreparedStatement ol = s.noOrderLine;
            ol.setInt(1, w);
            ol.setInt(2, d);
            ol.setInt(3, orderId);
            ol.setInt(4, i + 1);
            ol.setInt(5, items[i]);
            ol.setInt(6, supply[i]);
            ol.setInt(7, quantity[i]);
            ol.setBigDecimal(8, price.multiply(BigDecimal.valueOf(quantity[i])));
            ol.setString(9, distInfo);
            ol.executeUpdate();
        }
        return true;
    }

    /** Clause 2.5.2. */
    private boolean payment(TransactionOutcome out) throws SQLException {
        int w = terminal.warehouse();
        int d = random.uniform(1, TpccScale.DISTRICTS_PER_WAREHOUSE);
        boolean home = warehouses == 1 || random.uniform(1, 100) <= 85;
        int cw = home ? w : otherWarehouse(w);
        int cd = home ? d : random.uniform(1, TpccScale.DISTRICTS_PER_WAREHOUSE);
        BigDecimal amount = BigDecimal.valueOf(random.uniform(100, 500_000), 2);
        int c = customer(out, cw, cd);
        update(out, s.payWarehouse, amount, w);
        String wName;
        try (ResultSet rs = query(out, s.payWarehouseRead, w)) {
            rs.next();
            wName = rs.getString(1);
        }
        update(out, s.payDistrict, amount, w, d);
        String dName;
        try (ResultSet rs = query(out, s.payDistrictRead, w, d)) {
            rs.next();
            dName = rs.getString(1);
        }
        String credit;
        String data;
        try (ResultSet rs = query(out, s.payCustomer, cw, cd, c)) {
            rs.next();
            credit = rs.getString(11);
            data = rs.getString(15);
        }
        if ("BC".equals(credit)) {
            String entry = c + " " + cd + " " + cw + " " + d + " " + w + " " + amount + " | ";
            String newData = (entry + data).substring(0, Math.min(500, entry.length() + data.length()));
            update(out, s.payCustomerBadCredit, amount, amount, newData, cw, cd, c);
        } else {
            update(out, s.payCustomerUpdate, amount, amount, cw, cd, c);
        }
        update(out, s.payHistory, c, cd, cw, d, w, new Timestamp(System.currentTimeMillis()), amount,
                wName + "    " + dName);
        return true;
    }

    /** Clause 2.6.2. */
    private boolean orderStatus(TransactionOutcome out) throws SQLException {
        int w = terminal.warehouse();
        int d = random.uniform(1, TpccScale.DISTRICTS_PER_WAREHOUSE);
        int c = customer(out, w, d);
        query(out, s.osCustomer, w, d, c).close();
        int orderId;
        try (ResultSet rs = query(out, s.osLastOrder, w, d, c)) {
            if (!rs.next()) {
                return true;
            }
            orderId = rs.getInt(1);
        }
        try (ResultSet rs = query(out, s.osOrderLines, w, d, orderId)) {
            while (rs.next()) {
                rs.getBigDecimal(4);
            }
        }
        return true;
    }

    /**
     * Clause 2.7.4, every district in one transaction. A district without an undelivered order (or whose oldest
     * another terminal delivered meanwhile) is skipped, as clause 2.7.4.2 has it, and the transaction's op is then
     * {@link #DELIVERY_SKIPPED}: clause 5.4.5 allows at most 1% of the Deliveries to skip.
     */
    private boolean delivery(TransactionOutcome out) throws SQLException {
        int w = terminal.warehouse();
        int carrier = random.uniform(1, 10);
        Timestamp now = new Timestamp(System.currentTimeMillis());
        boolean skipped = false;
        for (int d = 1; d <= TpccScale.DISTRICTS_PER_WAREHOUSE; d++) {
            int orderId;
            try (ResultSet rs = query(out, s.dlOldestNewOrder, w, d)) {
                if (!rs.next()) {
                    skipped = true;
                    continue;
                }
                orderId = rs.getInt(1);
            }
            if (update(out, s.dlDeleteNewOrder, w, d, orderId) == 0) {
                skipped = true; // delivered by another terminal meanwhile
                continue;
            }
            // The order and its lines are updated before they are read: the oldest undelivered order may have been
            // committed after this transaction's snapshot (REPEATABLE READ on MySQL/MariaDB, once a district has
            // run dry), and a plain read sees it only once the transaction has changed it itself.
            update(out, s.dlOrderCarrier, carrier, w, d, orderId);
            int c;
            try (ResultSet rs = query(out, s.dlOrderCustomer, w, d, orderId)) {
                rs.next();
                c = rs.getInt(1);
            }
            update(out, s.dlOrderLines, now, w, d, orderId);
            BigDecimal total;
            try (ResultSet rs = query(out, s.dlOrderAmount, w, d, orderId)) {
                rs.next();
                total = rs.getBigDecimal(1);
            }
            update(out, s.dlCustomer, total == null ? BigDecimal.ZERO : total.setScale(2, RoundingMode.UNNECESSARY),
                    w, d, c);
        }
        if (skipped) {
            out.op(DELIVERY_SKIPPED);
        }
        return true;
    }

    /** Clause 2.8.2, for the terminal's own district. */
    private boolean stockLevel(TransactionOutcome out) throws SQLException {
        int w = terminal.warehouse();
        int d = terminal.district();
        int threshold = random.uniform(10, 20);
        int next;
        try (ResultSet rs = query(out, s.slDistrict, w, d)) {
            rs.next();
            next = rs.getInt(1);
        }
        query(out, s.slLowStock, w, d, next - 20, next, threshold).close();
        return true;
    }

    /** A customer of the district: 60% by last name (the middle one of that name), 40% by id (clause 2.5.1.2). */
    private int customer(TransactionOutcome out, int w, int d) throws SQLException {
        if (random.uniform(1, 100) > 60) {
            return random.customerId();
        }
        List<Integer> ids = new ArrayList<>();
        try (ResultSet rs = query(out, s.customersByName, w, d, random.customerLastName())) {
            while (rs.next()) {
                ids.add(rs.getInt(1));
            }
        }
        if (ids.isEmpty()) {
            throw new SQLException("no customer of the last name in warehouse " + w + " district " + d
                    + ": the tables are not a TPC-C load");
        }
        return ids.get((ids.size() + 1) / 2 - 1);
    }

    private int otherWarehouse(int home) {
        int other = random.uniform(1, warehouses - 1);
        return other >= home ? other + 1 : other;
    }

    private static ResultSet query(TransactionOutcome out, PreparedStatement ps, Object... values)
            throws SQLException {
        bind(ps, values);
        out.statement();
        return ps.executeQuery();
    }

    private static int update(TransactionOutcome out, PreparedStatement ps, Object... values) throws SQLException {
        bind(ps, values);
        out.statement();
        return ps.executeUpdate();
    }

    private static void bind(PreparedStatement ps, Object... values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            ps.setObject(i + 1, values[i]);
        }
    }

    @Override
    public void close() throws SQLException {
        List<AutoCloseable> closing = new ArrayList<>(all);
        closing.add(tx);
        SqlResources.closeAllOrThrow(closing);
    }
}
