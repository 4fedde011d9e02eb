package io.tailstream.producer.workload.sysbench;

import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.target.SqlResources;
import io.tailstream.producer.target.TransactionControl;
import io.tailstream.producer.workload.TransactionOutcome;
import io.tailstream.producer.workload.WorkloadSession;
import io.tailstream.producer.workload.sysbench.OltpScript.Group;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
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
    private final Dialect dialect;
    private final SysbenchUnique unique;
    private final TransactionControl tx;
    private final List<PreparedStatement> all = new ArrayList<>();
    // index 0 unused: tables are numbered from 1 as in sysbench; null where the script does not run the group
    private final PreparedStatement[] point;
    private final PreparedStatement[] simple;
    private final PreparedStatement[] sum;
    private final PreparedStatement[] order;
    private final PreparedStatement[] distinct;
    private final PreparedStatement[] indexUpdate;
    private final PreparedStatement[] nonIndexUpdate;
    private final PreparedStatement[] delete;
    private final PreparedStatement[] insert;
    /** oltp_insert.lua sends its INSERT as text through {@code con:query}, not as a prepared statement. */
    private final Statement text;

    OltpSession(OltpScript script, SysbenchOptions o, Connection c, Dialect dialect, SysbenchRandom rand,
                SysbenchUnique unique) throws SQLException {
        this.script = script;
        this.o = o;
        this.rand = rand;
        this.dialect = dialect;
        this.unique = unique;
        boolean ranges = script.rangeSelects(o);
        boolean deleteInserts = script.runs(Group.DELETE_INSERTS);
        TransactionControl t = null;
        Statement st = null;
        try {
            // the Lua scripts prepare in this order: BEGIN/COMMIT, then the groups of the event
            t = script.transactional() && !o.skipTrx() ? dialect.transactions(c) : null;
            this.point = script.runs(Group.POINT_SELECTS) ? prepare(c, OltpSql::pointSelect) : null;
            this.simple = ranges ? prepare(c, OltpSql::simpleRange) : null;
            this.sum = ranges ? prepare(c, OltpSql::sumRange) : null;
            this.order = ranges ? prepare(c, OltpSql::orderRange) : null;
            this.distinct = ranges ? prepare(c, OltpSql::distinctRange) : null;
            this.indexUpdate = script.runs(Group.INDEX_UPDATES) ? prepare(c, OltpSql::indexUpdate) : null;
            this.nonIndexUpdate = script.runs(Group.NON_INDEX_UPDATES) ? prepare(c, OltpSql::nonIndexUpdate) : null;
            this.delete = deleteInserts || script.runs(Group.DELETE) ? prepare(c, OltpSql::delete) : null;
            this.insert = deleteInserts ? prepare(c, OltpSql::insert) : null;
            st = script.runs(Group.INSERT) ? c.createStatement() : null;
        } catch (SQLException e) {
            this.tx = t;
            this.text = st;
            closeQuietly(e);
            throw e;
        }
        this.tx = t;
        this.text = st;
    }

    private PreparedStatement[] prepare(Connection c, IntFunction<String> sql) throws SQLException {
        PreparedStatement[] out = new PreparedStatement[o.tables() + 1];
        for (int t = 1; t <= o.tables(); t++) {
            out[t] = dialect.prepare(c, sql.apply(t));
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
                indexUpdates(out);
            }
            if (nonIndexUpdate != null) {
                nonIndexUpdates(out);
            }
            if (insert != null) {
                deleteInserts(out);
            } else if (delete != null) {
                deleteOne(out);
            }
            if (text != null) {
                insertText(out);
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

    /** {@code execute_index_updates}. */
    private void indexUpdates(TransactionOutcome out) throws SQLException {
        PreparedStatement ps = indexUpdate[table()];
        for (int i = 0; i < o.indexUpdates(); i++) {
            ps.setInt(1, id());
            out.statement();
            ps.executeUpdate();
        }
    }

    /** {@code execute_non_index_updates}: the new {@code c} is drawn before the id, as the Lua sets it first. */
    private void nonIndexUpdates(TransactionOutcome out) throws SQLException {
        PreparedStatement ps = nonIndexUpdate[table()];
        for (int i = 0; i < o.nonIndexUpdates(); i++) {
            ps.setString(1, rand.string(OltpSql.C_TEMPLATE));
            ps.setInt(2, id());
            out.statement();
            ps.executeUpdate();
        }
    }

    /** {@code execute_delete_inserts}. */
    private void deleteInserts(TransactionOutcome out) throws SQLException {
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

    /** {@code oltp_delete.lua}'s event: one DELETE of a random id from a random table. */
    private void deleteOne(TransactionOutcome out) throws SQLException {
        PreparedStatement ps = delete[table()];
        ps.setInt(1, id());
        out.statement();
        ps.executeUpdate();
    }

    /** {@code oltp_insert.lua}'s event: table, k, c, pad drawn in the Lua's order, sent as one text statement. */
    private void insertText(TransactionOutcome out) throws SQLException {
        int t = table();
        int k = id();
        String c = rand.string(OltpSql.C_TEMPLATE);
        String pad = rand.string(OltpSql.PAD_TEMPLATE);
        String sql;
        if (!o.autoInc()) {
            // sysbench.rand.unique() - 2147483648: a uint32 unique across the run, as SQL INT
            sql = OltpSql.insertText(t, unique.next() - 2147483648L, k, c, pad);
        } else if (dialect.autoIncrementFromZero()) {
            sql = OltpSql.insertText(t, 0, k, c, pad);
        } else {
            sql = OltpSql.insertTextAutoId(t, k, c, pad);
        }
        out.statement();
        text.executeUpdate(sql);
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
        SQLException first = closeQuietly(null);
        if (first != null) {
            throw first;
        }
    }

    /** Closes every statement and the transaction control; returns the first failure, later ones suppressed. */
    private SQLException closeQuietly(SQLException first) {
        first = SqlResources.closeAll(first, all);
        all.clear();
        return SqlResources.closeAll(first, text, tx);
    }
}
