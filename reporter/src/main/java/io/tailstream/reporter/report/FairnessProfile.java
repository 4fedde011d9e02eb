package io.tailstream.reporter.report;

import io.tailstream.reporter.report.ReportModel.Text;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a target's captured server variables say about the work behind a commit and what a transaction sees, in
 * terms that mean the same for MySQL/MariaDB (InnoDB), PostgreSQL and H2 (MVStore): targets are compared by
 * profile, never by variable names. Immutable; {@link #of} is a pure function of the product name and the
 * variables, decided by the rule tables below (one row per product, variable and value).
 *
 * <p>Whatever the tables cannot decide (a variable not captured, a value they do not know) is {@code unknown}, and
 * an unknown aspect has no {@link Aspect#compareKey()}: it never equals anything.
 *
 * @param target     the target's name
 * @param family     {@code mysql} (MySQL, MariaDB and other InnoDB servers), {@code postgresql}, {@code h2} or
 *                   {@code unknown}
 * @param durability commit durability: {@code yes} (the log is on disk before a commit returns; group commit
 *                   included), {@code group} (the binary log is synced every N commit groups), {@code no-os}
 *                   (written to the OS at commit, flushed later: survives a crash of the server, not of the OS or
 *                   the power), {@code no-delayed} (not even written at commit: a crash of the server loses the
 *                   last commits), {@code no-memory} (nothing on disk), {@code unknown}
 * @param replication whether a commit waits for a replica: {@code none} (no replication log), {@code async} (it
 *                   never waits; whether a replica is attached is not in the settings), {@code semi} (it waits
 *                   until a replica has received it), {@code sync} (until a standby has flushed or applied it),
 *                   {@code unknown}
 * @param tornPages  protection against a page half-written at a crash: {@code yes}, {@code no}, {@code n/a} (no
 *                   file), {@code unknown}
 * @param isolation  the isolation level the connections run at, normalized ({@code READ COMMITTED}, ...), or
 *                   {@code unknown}; its compare key is the level's behaviour in that product (see
 *                   {@link #SEMANTICS})
 * @param memory     data set against the buffer pool: {@code larger}, {@code fits}, {@code memory} (an in-memory
 *                   database), {@code unknown}
 */
public record FairnessProfile(String target, String family, Aspect durability, Aspect replication, Aspect tornPages,
                              Aspect isolation, Aspect memory) {

    public FairnessProfile {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(family, "family");
    }

    /**
     * One aspect of a profile.
     *
     * @param value      the normalized value (message key suffix {@code fair.<aspect>.<value>}, or the isolation level)
     * @param compareKey what the fairness checks compare: equal keys mean the same behaviour; null when unknown
     * @param basis      the captured variables that decided it, as {@code name=value}
     * @param notes      what the value means for this product, when it needs saying
     */
    public record Aspect(String value, String compareKey, List<String> basis, List<Text> notes) {
        public Aspect {
            Objects.requireNonNull(value, "value");
            basis = List.copyOf(basis);
            notes = List.copyOf(notes);
        }

        /** True when the aspect could not be decided. */
        public boolean unknown() {
            return compareKey == null;
        }
    }

    public static final String MYSQL = "mysql";
    public static final String POSTGRESQL = "postgresql";
    public static final String H2 = "h2";
    public static final String UNKNOWN = "unknown";

    /** The isolation level the workers' connections actually run at (captured for every product). */
    public static final String ISOLATION = "tailstream.isolation";
    /** Data plus index bytes of the workload's tables at step start. */
    public static final String DATA_BYTES = "tailstream.data_bytes";
    /** H2's storage: {@code mem} or {@code file}. */
    public static final String H2_STORAGE = "tailstream.h2.storage";

    // ---- the rule tables: the specification (FairnessProfileTest has a test per row) ----

    /** Commit durability, strongest first: the aspect takes the weakest level any of its variables gives. */
    static final List<String> DURABILITY_LEVELS = List.of("yes", "group", "no-os", "no-delayed", "no-memory");
    /** Replication, shortest wait first: the aspect takes the longest wait any of its variables gives. */
    static final List<String> REPLICATION_LEVELS = List.of("none", "async", "semi", "sync");
    static final List<String> TORN_PAGE_LEVELS = List.of("yes", "no", "n/a");

    /**
     * A rule: for a target of {@code family}, when {@code when} holds, {@code variable} with a value {@code matches}
     * accepts gives the aspect {@code level} and, if {@code note} is not null, that note (arguments: the variable and
     * its value).
     */
    record Rule(String family, String aspect, String variable, Condition when, Predicate<String> matches,
                String level, String note) {}

    /** A rule applies only when {@code variable}'s value satisfies {@code matches}. */
    record Condition(String variable, Predicate<String> matches) {}

    /** Variables whose absence does not make an aspect unknown (absent: the feature is off or not installed). */
    static final List<String> OPTIONAL = List.of("innodb_flush_method", "commit_delay", "rpl_semi_sync_master_enabled",
            "rpl_semi_sync_source_enabled");

    private static final Condition BINLOG_ON = new Condition("log_bin", FairnessProfile::on);
    private static final Condition H2_FILE = new Condition(H2_STORAGE, is("file"));
    private static final Condition SYNC_STANDBYS = new Condition("synchronous_standby_names", v -> !v.isBlank());

    static final List<Rule> RULES = List.of(
            // MySQL / MariaDB: the redo log, the way files are flushed, the binary log (MariaDB KB "Group Commit for
            // the Binary Log": with the binary log on and sync_binlog=0 a commit is not durable inside InnoDB either)
            new Rule(MYSQL, "durability", "innodb_flush_log_at_trx_commit", null, is("1", "3"), "yes", null),
            new Rule(MYSQL, "durability", "innodb_flush_log_at_trx_commit", null, is("2"), "no-os", "fair.note.flush2"),
            new Rule(MYSQL, "durability", "innodb_flush_log_at_trx_commit", null, is("0"), "no-delayed",
                    "fair.note.flush0"),
            new Rule(MYSQL, "durability", "innodb_flush_method", null, is("nosync"), "no-os", "fair.note.nosync"),
            new Rule(MYSQL, "durability", "innodb_flush_method", null, v -> true, "yes", null),
            new Rule(MYSQL, "durability", "log_bin", null, FairnessProfile::on, "yes", "fair.note.binlogOn"),
            new Rule(MYSQL, "durability", "log_bin", null, FairnessProfile::off, "yes", null),
            new Rule(MYSQL, "durability", "sync_binlog", BINLOG_ON, is("1"), "yes", null),
            new Rule(MYSQL, "durability", "sync_binlog", BINLOG_ON, intAbove(1), "group", "fair.note.syncBinlogN"),
            new Rule(MYSQL, "durability", "sync_binlog", BINLOG_ON, is("0"), "no-os", "fair.note.syncBinlog0"),
            // PostgreSQL: fsync=off still writes the WAL at commit; synchronous_commit=off does not wait for it
            new Rule(POSTGRESQL, "durability", "fsync", null, FairnessProfile::on, "yes", null),
            new Rule(POSTGRESQL, "durability", "fsync", null, FairnessProfile::off, "no-os", "fair.note.fsyncOff"),
            new Rule(POSTGRESQL, "durability", "synchronous_commit", null,
                    is("on", "local", "remote_write", "remote_apply"), "yes", null),
            new Rule(POSTGRESQL, "durability", "synchronous_commit", null, FairnessProfile::off, "no-delayed",
                    "fair.note.syncCommitOff"),
            new Rule(POSTGRESQL, "durability", "commit_delay", null, intAbove(0), "yes", "fair.note.commitDelay"),
            new Rule(POSTGRESQL, "durability", "commit_delay", null, v -> true, "yes", null),
            // H2 2.x (MVStore): a commit with WRITE_DELAY=0 writes its chunk to the file but never calls fsync
            // (FileChannel.force runs only at CHECKPOINT SYNC and close); a non-zero delay writes in the background
            new Rule(H2, "durability", H2_STORAGE, null, is("mem"), "no-memory", "fair.note.h2mem"),
            new Rule(H2, "durability", H2_STORAGE, null, is("file"), "yes", null),
            new Rule(H2, "durability", "WRITE_DELAY", H2_FILE, is("0"), "no-os", "fair.note.h2writeDelay0"),
            new Rule(H2, "durability", "WRITE_DELAY", H2_FILE, intAbove(0), "no-delayed", "fair.note.h2writeDelay"),

            new Rule(MYSQL, "replication", "log_bin", null, FairnessProfile::off, "none", null),
            new Rule(MYSQL, "replication", "log_bin", null, FairnessProfile::on, "async", "fair.note.replicaUnknown"),
            new Rule(MYSQL, "replication", "rpl_semi_sync_master_enabled", BINLOG_ON, FairnessProfile::on, "semi",
                    "fair.note.semiSync"),
            new Rule(MYSQL, "replication", "rpl_semi_sync_master_enabled", BINLOG_ON, v -> true, "none", null),
            new Rule(MYSQL, "replication", "rpl_semi_sync_source_enabled", BINLOG_ON, FairnessProfile::on, "semi",
                    "fair.note.semiSync"),
            new Rule(MYSQL, "replication", "rpl_semi_sync_source_enabled", BINLOG_ON, v -> true, "none", null),
            new Rule(POSTGRESQL, "replication", "synchronous_standby_names", null, String::isBlank, "async",
                    "fair.note.replicaUnknown"),
            new Rule(POSTGRESQL, "replication", "synchronous_standby_names", null, v -> true, "async", null),
            new Rule(POSTGRESQL, "replication", "synchronous_commit", SYNC_STANDBYS, is("on", "remote_apply"), "sync",
                    "fair.note.syncStandby"),
            new Rule(POSTGRESQL, "replication", "synchronous_commit", SYNC_STANDBYS, is("remote_write"), "semi",
                    "fair.note.remoteWrite"),
            new Rule(POSTGRESQL, "replication", "synchronous_commit", SYNC_STANDBYS, is("local", "off"), "async",
                    null),
            new Rule(H2, "replication", H2_STORAGE, null, v -> true, "none", null),

            // MySQL 8.0.30+: DETECT_ONLY writes no page content to the doublewrite buffer; MariaDB 11 adds "fast"
            new Rule(MYSQL, "tornPages", "innodb_doublewrite", null, is("on", "1", "detect_and_recover", "fast"),
                    "yes", null),
            new Rule(MYSQL, "tornPages", "innodb_doublewrite", null, is("off", "0", "detect_only"), "no", null),
            new Rule(POSTGRESQL, "tornPages", "full_page_writes", null, FairnessProfile::on, "yes", null),
            new Rule(POSTGRESQL, "tornPages", "full_page_writes", null, FairnessProfile::off, "no", null),
            new Rule(H2, "tornPages", H2_STORAGE, null, is("file"), "yes", "fair.note.h2cow"),
            new Rule(H2, "tornPages", H2_STORAGE, null, is("mem"), "n/a", null));

    /** Where each product keeps its isolation level when the connections' own level was not captured. */
    static final Map<String, List<String>> SERVER_ISOLATION = Map.of(
            MYSQL, List.of("transaction_isolation", "tx_isolation"),
            POSTGRESQL, List.of("default_transaction_isolation"),
            H2, List.of());

    /**
     * How each product runs each level: the isolation check compares these behaviours, not the names. Only READ
     * COMMITTED behaves alike everywhere (each statement reads the latest committed rows); PostgreSQL runs READ
     * UNCOMMITTED as READ COMMITTED. REPEATABLE READ and SERIALIZABLE differ between products (InnoDB: plain reads
     * from one snapshot, writes on the latest row version under next-key locks; PostgreSQL: snapshot isolation
     * whose conflicting writes fail with SQLState 40001), so the same name across products counts as different.
     */
    static final Map<String, String> SEMANTICS = Map.ofEntries(
            Map.entry(MYSQL + "/READ UNCOMMITTED", "dirty-read"),
            Map.entry(MYSQL + "/READ COMMITTED", "statement-snapshot"),
            Map.entry(MYSQL + "/REPEATABLE READ", "innodb-repeatable-read"),
            Map.entry(MYSQL + "/SERIALIZABLE", "innodb-serializable"),
            Map.entry(POSTGRESQL + "/READ UNCOMMITTED", "statement-snapshot"),
            Map.entry(POSTGRESQL + "/READ COMMITTED", "statement-snapshot"),
            Map.entry(POSTGRESQL + "/REPEATABLE READ", "snapshot-isolation"),
            Map.entry(POSTGRESQL + "/SERIALIZABLE", "serializable-snapshot-isolation"),
            Map.entry(H2 + "/READ UNCOMMITTED", "dirty-read"),
            Map.entry(H2 + "/READ COMMITTED", "statement-snapshot"),
            Map.entry(H2 + "/REPEATABLE READ", "h2-repeatable-read"),
            Map.entry(H2 + "/SNAPSHOT", "h2-snapshot"),
            Map.entry(H2 + "/SERIALIZABLE", "h2-serializable"));

    /** The buffer pool's variable per product and the bytes of one unit of it. */
    static final Map<String, List<String>> POOL = Map.of(
            MYSQL, List.of("innodb_buffer_pool_size", "1"),
            POSTGRESQL, List.of("shared_buffers", "1"),
            H2, List.of("CACHE_SIZE", "1024"));

    // ---- building a profile ----

    /** The profile of a target from its product name (as the driver reports it) and its captured variables. */
    public static FairnessProfile of(String target, String product, Map<String, String> variables) {
        Map<String, String> vars = variables == null ? Map.of() : variables;
        String family = familyOf(product, vars);
        return new FairnessProfile(target, family,
                ruled(family, "durability", vars, DURABILITY_LEVELS),
                ruled(family, "replication", vars, REPLICATION_LEVELS),
                ruled(family, "tornPages", vars, TORN_PAGE_LEVELS),
                isolation(family, vars), memory(family, vars));
    }

    /**
     * The product family: from the variables only that product has, else from the product name; {@code unknown}
     * when neither tells.
     */
    public static String familyOf(String product, Map<String, String> vars) {
        if (vars.containsKey("innodb_flush_log_at_trx_commit") || vars.containsKey("innodb_buffer_pool_size")) {
            return MYSQL;
        }
        if (vars.containsKey("synchronous_commit") || vars.containsKey("full_page_writes")) {
            return POSTGRESQL;
        }
        if (vars.containsKey(H2_STORAGE)) {
            return H2;
        }
        String p = product == null ? "" : product.toLowerCase(Locale.ROOT);
        if (p.contains("mysql") || p.contains("mariadb")) {
            return MYSQL;
        }
        if (p.contains("postgres")) {
            return POSTGRESQL;
        }
        return p.equals("h2") ? H2 : UNKNOWN;
    }

    /**
     * An aspect from the rule table: every variable with rules for it (whose condition holds) must be captured
     * (unless {@link #OPTIONAL}) and have a value a rule knows; the aspect is the level latest in {@code order} among
     * those the rules give.
     */
    private static Aspect ruled(String family, String aspect, Map<String, String> vars, List<String> order) {
        List<String> basis = new ArrayList<>();
        List<Text> notes = new ArrayList<>();
        List<String> found = new ArrayList<>();
        List<String> variables = RULES.stream().filter(r -> r.family().equals(family) && r.aspect().equals(aspect))
                .map(Rule::variable).distinct().toList();
        boolean unknown = variables.isEmpty();
        for (String variable : variables) {
            List<Rule> rules = RULES.stream().filter(r -> r.family().equals(family) && r.aspect().equals(aspect)
                    && r.variable().equals(variable) && holds(r.when(), vars)).toList();
            if (rules.isEmpty()) {
                continue; // its condition does not hold (e.g. sync_binlog with the binary log off)
            }
            String value = vars.get(variable);
            if (value == null) {
                if (!OPTIONAL.contains(variable)) {
                    unknown = true;
                    notes.add(Text.of("fair.note.notCaptured", variable));
                }
                continue;
            }
            basis.add(variable + "=" + value);
            Rule rule = rules.stream().filter(r -> r.matches().test(value.trim())).findFirst().orElse(null);
            if (rule == null) {
                unknown = true;
                notes.add(Text.of("fair.note.unrecognized", variable, value));
                continue;
            }
            found.add(rule.level());
            if (rule.note() != null) {
                notes.add(Text.of(rule.note(), variable, value));
            }
        }
        if (unknown || found.isEmpty()) {
            return new Aspect(UNKNOWN, null, basis, notes);
        }
        String level = last(found, order);
        String key = aspect.equals("replication") ? (level.equals("none") || level.equals("async") ? "no-wait" : level)
                : level;
        return new Aspect(level, key, basis, notes);
    }

    /** The level latest in {@code order}: the weakest durability, the longest wait. */
    private static String last(List<String> found, List<String> order) {
        return found.stream().max(java.util.Comparator.comparingInt(order::indexOf)).orElseThrow();
    }

    private static Aspect isolation(String family, Map<String, String> vars) {
        List<String> sources = new ArrayList<>();
        sources.add(ISOLATION);
        sources.addAll(SERVER_ISOLATION.getOrDefault(family, List.of()));
        for (String variable : sources) {
            String raw = vars.get(variable);
            if (raw == null || raw.isBlank()) {
                continue;
            }
            String level = raw.trim().toUpperCase(Locale.ROOT).replace('-', ' ').replace('_', ' ')
                    .replaceAll("\\s+", " ");
            String semantics = SEMANTICS.get(family + "/" + level);
            List<Text> notes = new ArrayList<>();
            if (!variable.equals(ISOLATION)) {
                notes.add(Text.of("fair.note.serverDefault", variable));
            }
            if (semantics == null) {
                notes.add(Text.of("fair.note.unrecognized", variable, raw));
                return new Aspect(UNKNOWN, null, List.of(variable + "=" + raw), notes);
            }
            notes.add(Text.of("fair.isolation." + semantics));
            return new Aspect(level, semantics, List.of(variable + "=" + raw), notes);
        }
        return new Aspect(UNKNOWN, null, List.of(), List.of(Text.of("fair.note.notCaptured", ISOLATION)));
    }

    private static Aspect memory(String family, Map<String, String> vars) {
        if (family.equals(H2) && "mem".equals(vars.get(H2_STORAGE))) {
            return new Aspect("memory", "memory", List.of(H2_STORAGE + "=mem"), List.of());
        }
        Long pool = poolBytes(family, vars);
        Long data = bytes(vars.get(DATA_BYTES));
        List<String> basis = new ArrayList<>();
        List<String> pv = POOL.get(family);
        if (pv != null && vars.containsKey(pv.get(0))) {
            basis.add(pv.get(0) + "=" + vars.get(pv.get(0)));
        }
        if (vars.containsKey(DATA_BYTES)) {
            basis.add(DATA_BYTES + "=" + vars.get(DATA_BYTES));
        }
        if (pool == null || data == null || pool <= 0) {
            return new Aspect(UNKNOWN, null, basis, List.of());
        }
        List<Text> notes = new ArrayList<>();
        notes.add(Text.of("fair.note.dataPool", mib(data), mib(pool),
                String.format(Locale.ROOT, "%.2f", (double) data / pool)));
        if (family.equals(POSTGRESQL)) {
            notes.add(Text.of("fair.note.pgPageCache"));
        }
        String v = data > pool ? "larger" : "fits";
        return new Aspect(v, v, basis, notes);
    }

    /** The buffer pool in bytes (InnoDB's pool, PostgreSQL's shared_buffers, H2's CACHE_SIZE), or null. */
    public static Long poolBytes(String family, Map<String, String> vars) {
        List<String> pv = POOL.get(family);
        if (pv == null) {
            return null;
        }
        Long b = bytes(vars.get(pv.get(0)));
        return b == null ? null : b * Long.parseLong(pv.get(1));
    }

    private static final Pattern SIZE = Pattern.compile("(\\d{1,19})\\s*(?:(\\d*)\\s*([kKMGT]?B))?");

    /**
     * A size as captured: plain bytes, or a number with a unit as PostgreSQL's {@code pg_settings} gives it
     * ({@code 16384 8kB}: 16,384 pages of 8 kB; {@code 128MB}); null when absent or not a size (e.g. "auto").
     */
    public static Long bytes(String v) {
        if (v == null) {
            return null;
        }
        Matcher m = SIZE.matcher(v.trim());
        if (!m.matches()) {
            return null;
        }
        try {
            long n = Long.parseLong(m.group(1));
            if (m.group(3) == null) {
                return n;
            }
            long per = m.group(2).isEmpty() ? 1 : Long.parseLong(m.group(2));
            long unit = switch (m.group(3).toUpperCase(Locale.ROOT)) {
                case "KB" -> 1L << 10;
                case "MB" -> 1L << 20;
                case "GB" -> 1L << 30;
                case "TB" -> 1L << 40;
                default -> 1L;
            };
            return Math.multiplyExact(n, Math.multiplyExact(per, unit));
        } catch (NumberFormatException | ArithmeticException e) {
            return null; // beyond a long: not a size the checks can compare
        }
    }

    /** "1.5 MiB (1572864 B)". */
    static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB (%d B)", bytes / 1048576.0, bytes);
    }

    // ---- value matchers ----

    private static boolean holds(Condition c, Map<String, String> vars) {
        if (c == null) {
            return true;
        }
        String v = vars.get(c.variable());
        return v != null && c.matches().test(v.trim());
    }

    private static Predicate<String> is(String... values) {
        List<String> lower = java.util.Arrays.stream(values).map(s -> s.toLowerCase(Locale.ROOT)).toList();
        return v -> lower.contains(v.toLowerCase(Locale.ROOT));
    }

    /** A boolean variable that is on, as MySQL ({@code ON}, {@code 1}) or PostgreSQL ({@code on}) report it. */
    static boolean on(String v) {
        return is("on", "1", "true", "yes").test(v);
    }

    static boolean off(String v) {
        return is("off", "0", "false", "no").test(v);
    }

    private static Predicate<String> intAbove(long min) {
        return v -> v.matches("\\d{1,18}") && Long.parseLong(v) > min;
    }
}
