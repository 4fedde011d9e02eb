package io.tailstream.producer.workload.sysbench;

import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.workload.LoadProgress;
import io.tailstream.producer.workload.MultiRowInsert;
import io.tailstream.producer.workload.ParallelLoad;
import io.tailstream.producer.workload.Workload;
import io.tailstream.producer.workload.WorkloadSession;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * A sysbench 1.0.20 OLTP script ({@link OltpScript}) over the {@code sbtestN} tables. Immutable and thread safe.
 */
public final class SysbenchOltpWorkload implements Workload {

    /** Rows per INSERT statement during prepare (sysbench's bulk insert sends up to ~1 MB per statement). */
    static final int ROWS_PER_INSERT = 1000;

    private final OltpScript script;
    private final SysbenchOptions options;
    /** {@code sysbench.rand.unique()}: one sequence per workload, shared by its sessions as in sysbench. */
    private final SysbenchUnique unique = SysbenchUnique.seeded(System.nanoTime());

    public SysbenchOltpWorkload(OltpScript script, SysbenchOptions options) {
        this.script = script;
        this.options = script.adjust(options);
    }

    /** The workload of {@code script} with sysbench options given as text (defaults for the rest). */
    public static SysbenchOltpWorkload create(OltpScript script, Map<String, String> options) {
        try {
            return new SysbenchOltpWorkload(script, SysbenchOptions.parse(options));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("workload " + script.scriptName() + ": " + e.getMessage(), e);
        }
    }

    public SysbenchOptions sysbenchOptions() {
        return options;
    }

    public OltpScript script() {
        return script;
    }

    @Override
    public String name() {
        return script.scriptName();
    }

    @Override
    public List<String> ops() {
        // a sysbench event is one transaction type: the op is the script
        return List.of(script.scriptName());
    }

    @Override
    public double queriesPerTransaction() {
        return script.queriesPerEvent(options);
    }

    /** {@code oltp_point_select} and {@code oltp_read_only} never write. */
    @Override
    public boolean readOnly() {
        return script == OltpScript.POINT_SELECT || script == OltpScript.READ_ONLY;
    }

    @Override
    public Map<String, String> options() {
        return options.toMap();
    }

    /** {@code sbtest1..N}. */
    @Override
    public List<String> tables() {
        return java.util.stream.IntStream.rangeClosed(1, options.tables()).mapToObj(i -> "sbtest" + i).toList();
    }

    @Override
    public String dataSetKey() {
        return "sysbench:tables=" + options.tables() + ",table_size=" + script.preparedRows(options) + ",auto_inc="
                + options.autoInc() + ",create_secondary=" + options.createSecondary() + ",engine="
                + options.mysqlStorageEngine();
    }

    @Override
    public void prepare(DataSource dataSource, Dialect dialect, int parallelism, PrintStream progress,
                        LoadProgress rows) throws SQLException {
        ParallelLoad.forEachTable("prepare of " + name(), dataSource, options.tables(), parallelism,
                (c, table) -> loadTable(c, dialect, table, progress, rows));
    }

    @Override
    public long rowsToLoad() {
        return (long) options.tables() * script.preparedRows(options);
    }

    private void loadTable(Connection c, Dialect dialect, int table, PrintStream progress, LoadProgress loaded)
            throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(OltpSql.dropTable(table));
            progress.printf("Creating table 'sbtest%d'...%n", table);
            st.execute(OltpSql.createTable(table, dialect, options));
        }
        int size = script.preparedRows(options);
        if (size > 0) {
            progress.printf("Inserting %d records into 'sbtest%d'%n", size, table);
            insertRows(c, table, size, loaded);
        }
        if (options.createSecondary()) {
            progress.printf("Creating a secondary index on 'sbtest%d'...%n", table);
            try (Statement st = c.createStatement()) {
                st.execute(OltpSql.createSecondaryIndex(table));
            }
        }
    }

    private void insertRows(Connection c, int table, int size, LoadProgress loaded) throws SQLException {
        // deterministic per table, so two prepares of the same options load the same data
        SysbenchRandom rand = SysbenchRandom.seeded(options, 0x5B7E57L * table);
        // k is drawn over table_size even when oltp_insert loads no rows, as sb_rand(1, table_size) does
        int kMax = options.tableSize();
        int columns = options.autoInc() ? 3 : 4;
        MultiRowInsert.insert(c, 1, size + 1L, Math.min(ROWS_PER_INSERT, size),
                rows -> OltpSql.bulkInsert(table, options.autoInc(), rows), (ps, first, id) -> {
                    // same draw order as sysbench: c, pad, then k
                    String cVal = rand.string(OltpSql.C_TEMPLATE);
                    String padVal = rand.string(OltpSql.PAD_TEMPLATE);
                    int p = first;
                    if (!options.autoInc()) {
                        ps.setInt(p++, (int) id);
                    }
                    ps.setInt(p++, (int) rand.next(1, kMax));
                    ps.setString(p++, cVal);
                    ps.setString(p++, padVal);
                    assert p == first + columns;
                    return p;
                }, loaded);
    }

    @Override
    public void cleanup(DataSource dataSource, Dialect dialect, PrintStream progress) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            for (int t = 1; t <= options.tables(); t++) {
                progress.printf("Dropping table 'sbtest%d'...%n", t);
                st.execute(OltpSql.dropTable(t));
            }
        }
    }

    @Override
    public WorkloadSession open(Connection connection, Dialect dialect, long seed) throws SQLException {
        return new OltpSession(script, options, connection, dialect, SysbenchRandom.seeded(options, seed),
                unique);
    }

    @Override
    public String toString() {
        return name() + options.toMap();
    }
}
