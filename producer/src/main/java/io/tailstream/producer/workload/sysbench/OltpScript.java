package io.tailstream.producer.workload.sysbench;

import java.util.EnumSet;
import java.util.Set;

/**
 * The sysbench 1.0.20 OLTP scripts built from {@code oltp_common.lua}: which statement groups each event runs, in the
 * order of the script's {@code event()} function, and whether it is wrapped in BEGIN/COMMIT.
 */
public enum OltpScript {
    /** {@code oltp_point_select.lua}: one point select, no transaction ({@code point_selects} forced to 1). */
    POINT_SELECT("oltp_point_select", false, Group.POINT_SELECTS),
    /** {@code oltp_read_only.lua}: BEGIN, point selects, the four range groups, COMMIT. */
    READ_ONLY("oltp_read_only", true, Group.POINT_SELECTS, Group.RANGES),
    /** {@code oltp_read_write.lua}: BEGIN, point selects, range groups, updates, delete/insert, COMMIT. */
    READ_WRITE("oltp_read_write", true, Group.POINT_SELECTS, Group.RANGES, Group.INDEX_UPDATES,
            Group.NON_INDEX_UPDATES, Group.DELETE_INSERTS),
    /** {@code oltp_write_only.lua}: BEGIN, index and non-index updates, delete/insert, COMMIT. */
    WRITE_ONLY("oltp_write_only", true, Group.INDEX_UPDATES, Group.NON_INDEX_UPDATES, Group.DELETE_INSERTS),
    /**
     * {@code oltp_insert.lua}: one INSERT sent as text (not prepared), no transaction; with {@code auto_inc=off}
     * the ids come from {@code sysbench.rand.unique()} and {@code prepare} creates empty tables.
     */
    INSERT("oltp_insert", false, Group.INSERT),
    /** {@code oltp_update_index.lua}: {@code index_updates} UPDATEs of {@code k}, no transaction. */
    UPDATE_INDEX("oltp_update_index", false, Group.INDEX_UPDATES),
    /** {@code oltp_update_non_index.lua}: {@code non_index_updates} UPDATEs of {@code c}, no transaction. */
    UPDATE_NON_INDEX("oltp_update_non_index", false, Group.NON_INDEX_UPDATES),
    /** {@code oltp_delete.lua}: one DELETE by id, no transaction. */
    DELETE("oltp_delete", false, Group.DELETE);

    /** The statement groups of {@code oltp_common.lua} ({@code execute_point_selects}, ...). */
    enum Group { POINT_SELECTS, RANGES, INDEX_UPDATES, NON_INDEX_UPDATES, DELETE_INSERTS, INSERT, DELETE }

    private final String scriptName;
    private final boolean transactional;
    private final Set<Group> groups;

    OltpScript(String scriptName, boolean transactional, Group first, Group... rest) {
        this.scriptName = scriptName;
        this.transactional = transactional;
        this.groups = EnumSet.of(first, rest);
    }

    /** The script's name without {@code .lua}: the workload name. */
    public String scriptName() {
        return scriptName;
    }

    /** The script wraps its event in BEGIN/COMMIT unless {@code skip_trx} (only the multi-statement scripts do). */
    boolean transactional() {
        return transactional;
    }

    boolean runs(Group g) {
        return groups.contains(g);
    }

    /** Runs the range groups: the script has them and {@code range_selects} is on. */
    boolean rangeSelects(SysbenchOptions o) {
        return groups.contains(Group.RANGES) && o.rangeSelects();
    }

    /** The script's options: {@code oltp_point_select} forces {@code point_selects=1} as its Lua code does. */
    SysbenchOptions adjust(SysbenchOptions o) {
        return this == POINT_SELECT ? o.withPointSelects(1) : o;
    }

    /**
     * Rows per table that {@code prepare} loads: {@code oltp_insert.lua} sets {@code table_size=0} on prepare when
     * {@code auto_inc} is off, so client-generated ids cannot collide with loaded rows.
     */
    int preparedRows(SysbenchOptions o) {
        return this == INSERT && !o.autoInc() ? 0 : o.tableSize();
    }

    /** Statements of one event, BEGIN and COMMIT included. */
    int queriesPerEvent(SysbenchOptions o) {
        int q = 0;
        if (transactional && !o.skipTrx()) {
            q += 2;
        }
        if (runs(Group.POINT_SELECTS)) {
            q += o.pointSelects();
        }
        if (rangeSelects(o)) {
            q += o.simpleRanges() + o.sumRanges() + o.orderRanges() + o.distinctRanges();
        }
        if (runs(Group.INDEX_UPDATES)) {
            q += o.indexUpdates();
        }
        if (runs(Group.NON_INDEX_UPDATES)) {
            q += o.nonIndexUpdates();
        }
        if (runs(Group.DELETE_INSERTS)) {
            q += 2 * o.deleteInserts();
        }
        if (runs(Group.INSERT) || runs(Group.DELETE)) {
            q += 1;
        }
        return q;
    }
}
