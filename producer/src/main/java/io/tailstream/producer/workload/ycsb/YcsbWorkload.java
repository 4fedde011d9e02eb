package io.tailstream.producer.workload.ycsb;

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
import java.util.SplittableRandom;
import javax.sql.DataSource;

/**
 * A YCSB core workload ({@link YcsbPreset}) over {@code usertable}: one operation per transaction in auto-commit
 * mode, as YCSB's JDBC binding runs it, and one op per sample, so read and write latencies come out separately.
 * Thread safe: the insert key sequence is shared by every session of the workload (and so continues across the
 * steps of a run, as YCSB's counter continues across a run's operations).
 */
public final class YcsbWorkload implements Workload {

    /** Op indexes of {@link #ops()}. */
    static final int READ = 0;
    static final int UPDATE = 1;
    static final int INSERT = 2;
    static final int SCAN = 3;
    static final int READ_MODIFY_WRITE = 4;
    static final List<String> OPS = List.of("read", "update", "insert", "scan", "read_modify_write");

    /** Rows per INSERT statement while loading. */
    static final int ROWS_PER_INSERT = 100;

    private final YcsbPreset preset;
    private final YcsbOptions options;
    private final InsertCounter inserts;

    public YcsbWorkload(YcsbPreset preset, YcsbOptions options) {
        this.preset = preset;
        this.options = options;
        // the load phase inserts every key from insertstart into an empty table; the others add after the loaded ones
        this.inserts = new InsertCounter(preset == YcsbPreset.LOAD ? options.insertStart()
                : options.insertStart() + options.recordCount());
    }

    /** The preset with options given as text over it. */
    public static YcsbWorkload create(YcsbPreset preset, Map<String, String> options) {
        try {
            return new YcsbWorkload(preset, YcsbOptions.parse(preset.options(), options));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("workload " + preset.workloadName() + ": " + e.getMessage(), e);
        }
    }

    public YcsbOptions ycsbOptions() {
        return options;
    }

    InsertCounter inserts() {
        return inserts;
    }

    @Override
    public String name() {
        return preset.workloadName();
    }

    @Override
    public List<String> ops() {
        return OPS;
    }

    /** Statements per operation on average: every op is one statement, a read-modify-write two. */
    @Override
    public double queriesPerTransaction() {
        YcsbOptions o = options;
        double sum = o.readProportion() + o.updateProportion() + o.insertProportion() + o.scanProportion()
                + o.readModifyWriteProportion();
        return (sum + o.readModifyWriteProportion()) / sum;
    }

    /** Only reads and scans (workload C, or a custom mix without writes). */
    @Override
    public boolean readOnly() {
        return options.updateProportion() == 0 && options.insertProportion() == 0
                && options.readModifyWriteProportion() == 0;
    }

    @Override
    public Map<String, String> options() {
        return options.toMap();
    }

    @Override
    public List<String> tables() {
        return List.of(options.table());
    }

    @Override
    public String dataSetKey() {
        return "ycsb:" + options.table() + ",records=" + (preset == YcsbPreset.LOAD ? 0 : options.recordCount())
                + ",fields=" + options.fieldCount() + "x" + options.fieldLength() + ",insertstart="
                + options.insertStart() + ",order=" + options.insertOrder() + ",padding=" + options.zeroPadding();
    }

    /** Creates the table and, except for the load phase, loads {@code recordcount} records in parallel key ranges. */
    @Override
    public void prepare(DataSource dataSource, Dialect dialect, int parallelism, PrintStream progress,
                        LoadProgress rows) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            st.execute(YcsbSql.dropTable(options));
            progress.printf("Creating table '%s'...%n", options.table());
            st.execute(YcsbSql.createTable(options, dialect));
        }
        if (preset == YcsbPreset.LOAD) {
            return;
        }
        long first = options.insertStart();
        long count = options.recordCount();
        int threads = (int) Math.max(1, Math.min(parallelism, (count + ROWS_PER_INSERT - 1) / ROWS_PER_INSERT));
        progress.printf("Inserting %d records into '%s' (%d loaders)%n", count, options.table(), threads);
        List<ParallelLoad.Task> tasks = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            long from = first + count * i / threads;
            long to = first + count * (i + 1) / threads;
            tasks.add(() -> {
                try (Connection c = dataSource.getConnection()) {
                    load(c, from, to, rows);
                }
            });
        }
        ParallelLoad.run("loading " + options.table(), threads, tasks);
    }

    @Override
    public long rowsToLoad() {
        return preset == YcsbPreset.LOAD ? 0 : options.recordCount();
    }

    /** Inserts key numbers {@code [from, to)}. */
    private void load(Connection c, long from, long to, LoadProgress loaded) throws SQLException {
        SplittableRandom random = new SplittableRandom(0x9C5BL * 31 + from);
        boolean ordered = options.insertOrder().equals("ordered");
        int fields = options.fieldCount();
        char[] buf = new char[options.fieldLength()];
        MultiRowInsert.insert(c, from, to, ROWS_PER_INSERT, rows -> YcsbSql.insert(options, rows), (ps, first, k) -> {
            int p = first;
            ps.setString(p++, YcsbSql.keyName(k, options.zeroPadding(), ordered));
            for (int f = 0; f < fields; f++) {
                ps.setString(p++, YcsbSession.value(random, buf));
            }
            return p;
        }, loaded);
    }

    @Override
    public void cleanup(DataSource dataSource, Dialect dialect, PrintStream progress) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            progress.printf("Dropping table '%s'...%n", options.table());
            st.execute(YcsbSql.dropTable(options));
        }
    }

    @Override
    public WorkloadSession open(Connection connection, Dialect dialect, long seed) throws SQLException {
        return new YcsbSession(options, connection, dialect, new SplittableRandom(seed), inserts);
    }

    @Override
    public String toString() {
        return name() + options.toMap();
    }
}
