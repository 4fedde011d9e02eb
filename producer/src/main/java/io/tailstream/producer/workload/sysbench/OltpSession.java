package io.tailstream.producer.workload.sysbench;

import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.target.TransactionControl;
import io.tailstream.producer.workload.TransactionOutcome;
import io.tailstream.producer.workload.WorkloadSession;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * One worker's sysbench event loop: the statements of {@code oltp_common.lua}, prepared once per table, executed in
 * the script's order with sysbench's draws. As in sysbench 1.0.20 each statement group ({@code
 * execute_point_selects}, {@code execute_range(...)}, ...) draws its own table uniformly. Not thread safe.
 */
final class OltpSession implements WorkloadSession {

    private final OltpScript script;
    private final SysbenchOptions o;
    private final SysbenchRandom rand;
    private final TransactionControl tx;
    private final List<PreparedStatement> all = new ArrayList<>();
    // index 0 unused: tables are numbered from 1 as in sysbench
    private final PreparedStatement[] point;
    private final PreparedStatement[] simple;
    private final PreparedStatement[] sum;
    private final PreparedStatement[] order;
    private final PreparedStatement[] distinct;
    private final PreparedStatement[] indexUpdate;
    private final PreparedStatement[] nonIndexUpdate;
    private final PreparedStatement[] delete;
    private final PreparedStatement[] insert;

    OltpSession(OltpScript script, SysbenchOptions o, Connection c, Dialect dialect, SysbenchRandom rand)
            throws SQLException {
        this.script = script;
        this.o = o;
        this.rand = rand;
        boolean ranges = script.rangeSelects() && o.rangeSelects();
        try {
            this.tx = script.transactional() && !o.skipTrx() ? dialect.transactions(c) : null;
            this.point = script.pointSelects() ? prepare(c, OltpSql::pointSelect) : null;
            this.simple = ranges ? prepare(c, OltpSql::simpleRange) : null;
            this.sum = ranges ? prepare(c, OltpSql::sumRange) : null;
            this.order = ranges ? prepare(c, OltpSql::orderRange) : null;
            this.distinct = ranges ? prepare(c, OltpSql::distinctRange) : null;
            this.indexUpdate = script.writes() ? prepare(c, OltpSql::indexUpdate) : null;
            this.nonIndexUpdate = script.writes() ? prepare(c, OltpSql::nonIndexUpdate) : null;
            this.delete = script.writes() ? prepare(c, OltpSql::delete) : null;
            this.insert = script.writes() ? prepare(c, OltpSql::insert) : null;
        } catch (SQLException e) {
            closeQuietly(e);
            throw e;
        }
    }

    private PreparedStatement[] prepare(Connection c, IntFunction<String> sql) throws SQLException {
        PreparedStatement[] out = new PreparedStatement[o.tables() + 1];
        for (int t = 1; t <= o.tables(); t++) {
            out[t] = c.prepareStatement(sql.apply(t));
            all.add(out[t]);
        }
        return out;
    }

    @Override
    public void execute(TransactionOutcome out) throws SQLException {
        out.reset();
        out.op(0);
        try {
            if (tx != null) {
                out.statement();
                tx.begin();
            }
            if (point != null) {
                PreparedStatement ps = point[table()];
                for (int i = 0; i < o.pointSelects(); i++) {
                    ps.setInt(1, id());
                    out.statement();
                    query(ps);
                }
            }
            if (simple != null) {
                range(simple, o.simpleRanges(), out);
                range(sum, o.sumRanges(), out);
                range(order, o.orderRanges(), out);
                range(distinct, o.distinctRanges(), out);
            }
            if (indexUpdate != null) {
                writes(out);
            }
            if (tx != null) {
                out.statement();
                tx.commit();
            }
        } catch (SQLException e) {
            if (tx != null) {
                try {
                    tx.rollback();
                } catch (SQLException r) {
                    e.addSuppressed(r);
                }
            }
            throw e;
        }
    }

    private void range(PreparedStatement[] stmts, int count, TransactionOutcome out) throws SQLException {
        PreparedStatement ps = stmts[table()];
        for (int i = 0; i < count; i++) {
            int id = id();
            ps.setInt(1, id);
            ps.setInt(2, id + o.rangeSize() - 1);
            out.statement();
            query(ps);
        }
    }

    private void writes(TransactionOutcome out) throws SQLException {
        PreparedStatement ps = indexUpdate[table()];
        for (int i = 0; i < o.indexUpdates(); i++) {
            ps.setInt(1, id());
            out.statement();
            ps.executeUpdate();
        }
        ps = nonIndexUpdate[table()];
        for (int i = 0; i < o.nonIndexUpdates(); i++) {
            ps.setString(1, rand.string(OltpSql.C_TEMPLATE));
            ps.setInt(2, id());
            out.statement();
            ps.executeUpdate();
        }
        int t = table();
        PreparedStatement del = delete[t];
        PreparedStatement ins = insert[t];
        for (int i = 0; i < o.deleteInserts(); i++) {
            int id = id();
            int k = id();
            del.setInt(1, id);
            ins.setInt(1, id);
            ins.setInt(2, k);
            ins.setString(3, rand.string(OltpSql.C_TEMPLATE));
            ins.setString(4, rand.string(OltpSql.PAD_TEMPLATE));
            out.statement();
            del.executeUpdate();
            out.statement();
            ins.executeUpdate();
        }
    }

    private static void query(PreparedStatement ps) throws SQLException {
        // read every row, as sysbench stores each result set
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                // rows are fetched, not inspected
            }
        }
    }

    private int table() {
        return (int) rand.uniform(1, o.tables());
    }

    private int id() {
        return (int) rand.next(1, o.tableSize());
    }

    @Override
    public void close() throws SQLException {
        SQLException first = null;
        first = closeQuietly(first);
        if (first != null) {
            throw first;
        }
    }

    private SQLException closeQuietly(SQLException first) {
        for (PreparedStatement ps : all) {
            try {
                ps.close();
            } catch (SQLException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        all.clear();
        if (tx != null) {
            try {
                tx.close();
            } catch (SQLException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        return first;
    }
}
