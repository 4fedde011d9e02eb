package io.tailstream.producer.workload.sysbench;

/**
 * The sysbench OLTP scripts built from {@code oltp_common.lua}: which statement groups each event runs, in the
 * order of the script's {@code event()} function.
 */
public enum OltpScript {
    /** {@code oltp_point_select.lua}: one point select, no transaction ({@code point_selects} forced to 1). */
    POINT_SELECT("oltp_point_select", false, true, false, false),
    /** {@code oltp_read_only.lua}: BEGIN, point selects, the four range groups, COMMIT. */
    READ_ONLY("oltp_read_only", true, true, true, false),
    /** {@code oltp_read_write.lua}: BEGIN, point selects, range groups, updates, delete/insert, COMMIT. */
    READ_WRITE("oltp_read_write", true, true, true, true),
    /** {@code oltp_write_only.lua}: BEGIN, index and non-index updates, delete/insert, COMMIT. */
    WRITE_ONLY("oltp_write_only", true, false, false, true);

    private final String scriptName;
    private final boolean transactional;
    private final boolean pointSelects;
    private final boolean rangeSelects;
    private final boolean writes;

    OltpScript(String scriptName, boolean transactional, boolean pointSelects, boolean rangeSelects,
               boolean writes) {
        this.scriptName = scriptName;
        this.transactional = transactional;
        this.pointSelects = pointSelects;
        this.rangeSelects = rangeSelects;
        this.writes = writes;
    }

    /** The script's name without {@code .lua}: the workload name. */
    public String scriptName() {
        return scriptName;
    }

    /** Wraps the event in BEGIN/COMMIT unless {@code skip_trx}. */
    boolean transactional() {
        return transactional;
    }

    boolean pointSelects() {
        return pointSelects;
    }

    /** Runs the range groups if {@code range_selects} is on. */
    boolean rangeSelects() {
        return rangeSelects;
    }

    boolean writes() {
        return writes;
    }

    /** The script's options: {@code oltp_point_select} forces {@code point_selects=1} as its Lua code does. */
    SysbenchOptions adjust(SysbenchOptions o) {
        return this == POINT_SELECT ? o.withPointSelects(1) : o;
    }

    /** Statements of one event, BEGIN and COMMIT included. */
    int queriesPerEvent(SysbenchOptions o) {
        int q = 0;
        if (transactional && !o.skipTrx()) {
            q += 2;
        }
        if (pointSelects) {
            q += o.pointSelects();
        }
        if (rangeSelects && o.rangeSelects()) {
            q += o.simpleRanges() + o.sumRanges() + o.orderRanges() + o.distinctRanges();
        }
        if (writes) {
            q += o.indexUpdates() + o.nonIndexUpdates() + 2 * o.deleteInserts();
        }
        return q;
    }
}
