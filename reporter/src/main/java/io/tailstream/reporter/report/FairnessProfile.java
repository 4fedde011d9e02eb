package io.tailstream.reporter.report;

import io.tailstream.schemas.event.TargetInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a target's captured server variables say about the work behind a commit and what a transaction sees, in
 * terms that mean the same for MySQL/MariaDB (InnoDB), PostgreSQL and H2 (MVStore): targets are compared by
 * profile, never by variable names. Immutable; {@link #of} is a pure function of the product name and the
 * variables, decided by the rule tables of {@link FairnessRules} (one row per product, variable and value) and, for
 * the data set against the buffer pool, by the sizes read here.
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
 *                   {@link FairnessRules#SEMANTICS})
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
    public static final String DATA_BYTES = TargetInfo.DATA_BYTES_VARIABLE;
    /** H2's storage: {@code mem} or {@code file}. */
    public static final String H2_STORAGE = "tailstream.h2.storage";

    // ---- building a profile ----

    /** The profile of a target from its product name (as the driver reports it) and its captured variables. */
    public static FairnessProfile of(String target, String product, Map<String, String> variables) {
        Map<String, String> vars = variables == null ? Map.of() : variables;
        String family = familyOf(product, vars);
        return new FairnessProfile(target, family,
                FairnessRules.aspect(family, "durability", vars, FairnessRules.DURABILITY_LEVELS),
                FairnessRules.aspect(family, "replication", vars, FairnessRules.REPLICATION_LEVELS),
                FairnessRules.aspect(family, "tornPages", vars, FairnessRules.TORN_PAGE_LEVELS),
                FairnessRules.isolation(family, vars), memory(family, vars));
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

    // ---- data set against the buffer pool ----

    /** The buffer pool's variable per product and the bytes of one unit of it. */
    static final Map<String, List<String>> POOL = Map.of(
            MYSQL, List.of("innodb_buffer_pool_size", "1"),
            POSTGRESQL, List.of("shared_buffers", "1"),
            H2, List.of("CACHE_SIZE", "1024"));

    /** Data set against the buffer pool: {@code larger}, {@code fits}, {@code memory}, {@code unknown}. */
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
}
