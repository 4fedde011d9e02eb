package io.tailstream.producer.workload.largerow;

import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.target.SqlResources;
import io.tailstream.producer.workload.LoadProgress;
import io.tailstream.producer.workload.ParallelLoad;
import io.tailstream.producer.workload.TransactionOutcome;
import io.tailstream.producer.workload.Workload;
import io.tailstream.producer.workload.WorkloadSession;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * {@code large_row_insert}: append-only inserts of large rows into many tables, for write-stall soaks (the
 * storage engine's flushing, compaction or checkpointing falls behind and commits stall). Each row is
 * {@code (id BIGINT PRIMARY KEY, k VARCHAR(index_key_bytes), v <binary>)} with a random, incompressible value of
 * {@code value_bytes} and a random key under a secondary index, so every insert also lands on a random index leaf.
 * Ids are client-generated per table, in order, continuing after the table's largest id. One INSERT per
 * transaction in auto-commit mode. Thread safe (the id counters are atomic).
 */
public final class LargeRowInsertWorkload implements Workload {

    public static final String NAME = "large_row_insert";
    private static final char[] KEY_CHARS = "0123456789abcdefghijklmnopqrstuvwxyz".toCharArray();

    private final LargeRowOptions options;
    /** Next id per table, index 0 unused; null until a session first reads the table's largest id. */
    private final AtomicLong[] nextId;

    public LargeRowInsertWorkload(LargeRowOptions options) {
        this.options = options;
        this.nextId = new AtomicLong[options.tables() + 1];
    }

    public static LargeRowInsertWorkload create(Map<String, String> options) {
        try {
            return new LargeRowInsertWorkload(LargeRowOptions.parse(options));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("workload " + NAME + ": " + e.getMessage(), e);
        }
    }

    public LargeRowOptions largeRowOptions() {
        return options;
    }

    static String table(int t) {
        return "lrtest" + t;
    }

    static String createTable(int t, LargeRowOptions o, Dialect dialect) {
        return ("CREATE TABLE " + table(t) + " (id BIGINT NOT NULL PRIMARY KEY, k VARCHAR(" + o.indexKeyBytes()
                + ") NOT NULL, v " + dialect.binaryColumn(o.valueBytes()) + " NOT NULL) "
                + dialect.tableOptions("innodb")).stripTrailing();
    }

    static String createIndex(int t) {
        return "CREATE INDEX " + table(t) + "_k ON " + table(t) + "(k)";
    }

    static String insert(int t, int rows) {
        StringBuilder sb = new StringBuilder("INSERT INTO ").append(table(t)).append(" (id, k, v) VALUES ");
        for (int r = 0; r < rows; r++) {
            sb.append(r == 0 ? "(?, ?, ?)" : ", (?, ?, ?)");
        }
        return sb.toString();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<String> ops() {
        return List.of("insert");
    }

    @Override
    public double queriesPerTransaction() {
        return 1;
    }

    @Override
    public Map<String, String> options() {
        return options.toMap();
    }

    @Override
    public List<String> tables() {
        return java.util.stream.IntStream.rangeClosed(1, options.tables()).mapToObj(LargeRowInsertWorkload::table)
                .toList();
    }

    @Override
    public String dataSetKey() {
        return "large_row:tables=" + options.tables() + ",value=" + options.valueBytes() + ",key="
                + options.indexKeyBytes() + ",rows=" + options.rowsPerTable();
    }

    @Override
    public void prepare(DataSource dataSource, Dialect dialect, int parallelism, PrintStream progress,
                        LoadProgress rows) throws SQLException {
        ParallelLoad.forEachTable("prepare of " + NAME, dataSource, options.tables(), parallelism, (c, table) -> {
            try (Statement st = c.createStatement()) {
                st.execute("DROP TABLE IF EXISTS " + table(table));
                progress.printf("Creating table '%s'...%n", table(table));
                st.execute(createTable(table, options, dialect));
                st.execute(createIndex(table));
            }
            load(c, table, rows);
        });
        synchronized (nextId) {
            java.util.Arrays.fill(nextId, null);
        }
    }

    @Override
    public long rowsToLoad() {
        return options.tables() * options.rowsPerTable();
    }

    private void load(Connection c, int t, LoadProgress loaded) throws SQLException {
        SplittableRandom random = new SplittableRandom(0x1A26EL * t);
        byte[] value = new byte[options.valueBytes()];
        char[] key = new char[options.indexKeyBytes()];
        try (PreparedStatement ps = c.prepareStatement(insert(t, 1))) {
            for (long id = 1; id <= options.rowsPerTable(); id++) {
                fill(ps, 1, id, random, key, value);
                ps.executeUpdate();
                loaded.rowsLoaded(1);
            }
        }
    }

    static void fill(PreparedStatement ps, int first, long id, SplittableRandom random, char[] key, byte[] value)
            throws SQLException {
        for (int i = 0; i < key.length; i++) {
            key[i] = KEY_CHARS[random.nextInt(KEY_CHARS.length)];
        }
        random.nextBytes(value);
        ps.setLong(first, id);
        ps.setString(first + 1, new String(key));
        ps.setBytes(first + 2, value);
    }

    @Override
    public void cleanup(DataSource dataSource, Dialect dialect, PrintStream progress) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            for (int t = 1; t <= options.tables(); t++) {
                progress.printf("Dropping table '%s'...%n", table(t));
                st.execute("DROP TABLE IF EXISTS " + table(t));
            }
        }
    }

    /** The id counters, each starting after its table's largest id (read once, by the first session). */
    private AtomicLong[] counters(Connection c) throws SQLException {
        synchronized (nextId) {
            if (nextId[1] == null) {
                try (Statement st = c.createStatement()) {
                    for (int t = 1; t <= options.tables(); t++) {
                        try (ResultSet rs = st.executeQuery("SELECT COALESCE(MAX(id), 0) FROM " + table(t))) {
                            rs.next();
                            nextId[t] = new AtomicLong(rs.getLong(1) + 1);
                        }
                    }
                }
            }
            return nextId.clone();
        }
    }

    @Override
    public WorkloadSession open(Connection connection, Dialect dialect, long seed) throws SQLException {
        AtomicLong[] ids = counters(connection);
        SplittableRandom random = new SplittableRandom(seed);
        PreparedStatement[] ps = new PreparedStatement[options.tables() + 1];
        try {
            for (int t = 1; t <= options.tables(); t++) {
                ps[t] = dialect.prepare(connection, insert(t, options.rowsPerInsert()));
            }
        } catch (SQLException e) {
            throw SqlResources.closeAll(e, (AutoCloseable[]) ps);
        }
        byte[] value = new byte[options.valueBytes()];
        char[] key = new char[options.indexKeyBytes()];
        int rows = options.rowsPerInsert();
        return new WorkloadSession() {
            @Override
            public void execute(TransactionOutcome out) throws SQLException {
                out.reset();
                int t = 1 + random.nextInt(options.tables());
                PreparedStatement insert = ps[t];
                long first = ids[t].getAndAdd(rows);
                for (int r = 0; r < rows; r++) {
                    fill(insert, 1 + 3 * r, first + r, random, key, value);
                }
                out.statement();
                insert.executeUpdate();
            }

            @Override
            public void close() throws SQLException {
                SqlResources.closeAllOrThrow(Arrays.asList(ps));
            }
        };
    }

    @Override
    public String toString() {
        return NAME + options.toMap();
    }
}
