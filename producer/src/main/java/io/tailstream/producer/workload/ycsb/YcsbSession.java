package io.tailstream.producer.workload.ycsb;

import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.target.SqlResources;
import io.tailstream.producer.workload.TransactionOutcome;
import io.tailstream.producer.workload.WorkloadSession;
import io.tailstream.producer.workload.ycsb.YcsbGenerators.KeyGenerator;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One worker's YCSB client ({@code CoreWorkload.doTransaction}): chooses the operation by its proportion, the key
 * by the request distribution, and runs the operation's statement(s) in auto-commit mode. Not thread safe.
 */
final class YcsbSession implements WorkloadSession {

    /** Characters of generated values: printable ASCII without quote or backslash. */
    private static final char[] ALPHABET =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&()*+,-./:;<=>?@[]^_{|}~".toCharArray();

    private final YcsbOptions o;
    private final Dialect dialect;
    private final SplittableRandom random;
    private final InsertCounter inserts;
    private final KeyGenerator keys;
    private final KeyGenerator scanLength;
    private final boolean ordered;
    private final double[] cumulative = new double[5];
    private final char[] buf;
    private final List<PreparedStatement> all = new ArrayList<>();
    // index f: one field; the last index: every field
    private final PreparedStatement[] read;
    private final PreparedStatement[] scan;
    private final PreparedStatement[] update;
    private final PreparedStatement insert;

    YcsbSession(YcsbOptions o, Connection c, Dialect dialect, SplittableRandom random, InsertCounter inserts)
            throws SQLException {
        this.dialect = dialect;
        this.o = o;
        this.random = random;
        this.inserts = inserts;
        this.ordered = o.insertOrder().equals("ordered");
        this.buf = new char[o.fieldLength()];
        long first = o.insertStart();
        long last = o.insertStart() + o.recordCount() - 1;
        this.keys = switch (o.requestDistribution()) {
            case "uniform" -> new YcsbGenerators.Uniform(random, first, last);
            // YCSB: ScrambledZipfianGenerator(insertstart, insertstart + insertcount + expectednewkeys)
            case "zipfian" -> new YcsbGenerators.ScrambledZipfian(random, first, last + 1 + o.expectedNewKeys());
            case "latest" -> new YcsbGenerators.SkewedLatest(random, inserts);
            default -> throw new IllegalArgumentException("requestdistribution " + o.requestDistribution());
        };
        this.scanLength = o.scanLengthDistribution().equals("uniform")
                ? new YcsbGenerators.Uniform(random, 1, o.maxScanLength())
                : new YcsbGenerators.Zipfian(random, 1, o.maxScanLength());
        double[] p = {o.readProportion(), o.updateProportion(), o.insertProportion(), o.scanProportion(),
                o.readModifyWriteProportion()};
        double sum = 0;
        for (int i = 0; i < p.length; i++) {
            sum += p[i];
            cumulative[i] = sum;
        }
        for (int i = 0; i < p.length; i++) {
            cumulative[i] /= sum;
        }
        int n = o.fieldCount();
        read = new PreparedStatement[n + 1];
        scan = new PreparedStatement[n + 1];
        update = new PreparedStatement[n + 1];
        try {
            boolean reads = o.readProportion() > 0 || o.readModifyWriteProportion() > 0;
            boolean updates = o.updateProportion() > 0 || o.readModifyWriteProportion() > 0;
            for (int f = 0; f <= n; f++) {
                int field = f == n ? -1 : f;
                if (reads && (o.readAllFields() == (field < 0))) {
                    read[f] = prepare(c, YcsbSql.read(o, field));
                }
                if (o.scanProportion() > 0 && (o.readAllFields() == (field < 0))) {
                    scan[f] = prepare(c, YcsbSql.scan(o, field));
                }
                if (updates && (o.writeAllFields() == (field < 0))) {
                    update[f] = prepare(c, YcsbSql.update(o, field));
                }
            }
            insert = o.insertProportion() > 0 ? prepare(c, YcsbSql.insert(o, 1)) : null;
        } catch (SQLException e) {
            close();
            throw e;
        }
    }

    private PreparedStatement prepare(Connection c, String sql) throws SQLException {
        PreparedStatement ps = dialect.prepare(c, sql);
        all.add(ps);
        return ps;
    }

    /** {@code RandomByteIterator}-like value: {@code buf.length} random printable characters. */
    static String value(SplittableRandom random, char[] buf) {
        for (int i = 0; i < buf.length; i++) {
            buf[i] = ALPHABET[random.nextInt(ALPHABET.length)];
        }
        return new String(buf);
    }

    @Override
    public void execute(TransactionOutcome out) throws SQLException {
        out.reset();
        int op = chooseOp();
        out.op(op);
        switch (op) {
            case YcsbWorkload.READ -> read(out);
            case YcsbWorkload.UPDATE -> update(out, nextKey());
            case YcsbWorkload.INSERT -> insert(out);
            case YcsbWorkload.SCAN -> scan(out);
            default -> {
                // YCSB's doTransactionReadModifyWrite: read the record, then update it, two calls, no transaction
                String key = read(out);
                update(out, key);
            }
        }
    }

    /** {@code DiscreteGenerator} over the proportions, in YCSB's order: read, update, insert, scan, rmw. */
    int chooseOp() {
        double u = random.nextDouble();
        for (int i = 0; i < cumulative.length - 1; i++) {
            if (u < cumulative[i]) {
                return i;
            }
        }
        return cumulative.length - 1;
    }

    /** {@code nextKeynum}: redraw while the key is beyond the last acknowledged insert. */
    long nextKeyNum() {
        long keyNum;
        do {
            keyNum = keys.next();
        } while (keyNum > inserts.lastValue());
        return keyNum;
    }

    private String nextKey() {
        return YcsbSql.keyName(nextKeyNum(), o.zeroPadding(), ordered);
    }

    private int fieldIndex() {
        return o.readAllFields() ? o.fieldCount() : random.nextInt(o.fieldCount());
    }

    private String read(TransactionOutcome out) throws SQLException {
        String key = nextKey();
        PreparedStatement ps = read[fieldIndex()];
        ps.setString(1, key);
        out.statement();
        drain(ps);
        return key;
    }

    private void scan(TransactionOutcome out) throws SQLException {
        String start = nextKey();
        PreparedStatement ps = scan[fieldIndex()];
        ps.setString(1, start);
        ps.setInt(2, (int) scanLength.next());
        out.statement();
        drain(ps);
    }

    private void update(TransactionOutcome out, String key) throws SQLException {
        if (o.writeAllFields()) {
            PreparedStatement ps = update[o.fieldCount()];
            int p = 1;
            for (int f = 0; f < o.fieldCount(); f++) {
                ps.setString(p++, value(random, buf));
            }
            ps.setString(p, key);
            out.statement();
            ps.executeUpdate();
        } else {
            PreparedStatement ps = update[random.nextInt(o.fieldCount())];
            ps.setString(1, value(random, buf));
            ps.setString(2, key);
            out.statement();
            ps.executeUpdate();
        }
    }

    private void insert(TransactionOutcome out) throws SQLException {
        long keyNum = inserts.next();
        try {
            insert.setString(1, YcsbSql.keyName(keyNum, o.zeroPadding(), ordered));
            for (int f = 0; f < o.fieldCount(); f++) {
                insert.setString(f + 2, value(random, buf));
            }
            out.statement();
            insert.executeUpdate();
        } finally {
            inserts.acknowledge(keyNum);
        }
    }

    private static void drain(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                // YCSB reads every returned row into its result map; fetching is the cost that matters here
            }
        }
    }

    @Override
    public void close() throws SQLException {
        try {
            SqlResources.closeAllOrThrow(all);
        } finally {
            all.clear();
        }
    }
}
