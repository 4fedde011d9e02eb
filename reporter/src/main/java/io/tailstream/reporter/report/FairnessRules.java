package io.tailstream.reporter.report;

import static io.tailstream.reporter.report.FairnessProfile.H2;
import static io.tailstream.reporter.report.FairnessProfile.H2_STORAGE;
import static io.tailstream.reporter.report.FairnessProfile.ISOLATION;
import static io.tailstream.reporter.report.FairnessProfile.MYSQL;
import static io.tailstream.reporter.report.FairnessProfile.POSTGRESQL;
import static io.tailstream.reporter.report.FairnessProfile.UNKNOWN;

import io.tailstream.reporter.report.FairnessProfile.Aspect;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * How each product's server variables read as the {@link FairnessProfile}'s commit durability, replication wait,
 * torn-page protection and isolation: the rule tables, one row per product, variable and value (the specification:
 * FairnessProfileTest has a test per row), and their evaluation. Stateless, the tables immutable; thread safe.
 */
final class FairnessRules {

    private FairnessRules() {}

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

    private static final Condition BINLOG_ON = new Condition("log_bin", FairnessRules::on);
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
            new Rule(MYSQL, "durability", "log_bin", null, FairnessRules::on, "yes", "fair.note.binlogOn"),
            new Rule(MYSQL, "durability", "log_bin", null, FairnessRules::off, "yes", null),
            new Rule(MYSQL, "durability", "sync_binlog", BINLOG_ON, is("1"), "yes", null),
            new Rule(MYSQL, "durability", "sync_binlog", BINLOG_ON, intAbove(1), "group", "fair.note.syncBinlogN"),
            new Rule(MYSQL, "durability", "sync_binlog", BINLOG_ON, is("0"), "no-os", "fair.note.syncBinlog0"),
            // PostgreSQL: fsync=off still writes the WAL at commit; synchronous_commit=off does not wait for it
            new Rule(POSTGRESQL, "durability", "fsync", null, FairnessRules::on, "yes", null),
            new Rule(POSTGRESQL, "durability", "fsync", null, FairnessRules::off, "no-os", "fair.note.fsyncOff"),
            new Rule(POSTGRESQL, "durability", "synchronous_commit", null,
                    is("on", "local", "remote_write", "remote_apply"), "yes", null),
            new Rule(POSTGRESQL, "durability", "synchronous_commit", null, FairnessRules::off, "no-delayed",
                    "fair.note.syncCommitOff"),
            new Rule(POSTGRESQL, "durability", "commit_delay", null, intAbove(0), "yes", "fair.note.commitDelay"),
            new Rule(POSTGRESQL, "durability", "commit_delay", null, v -> true, "yes", null),
            // H2 2.x (MVStore): a commit with WRITE_DELAY=0 writes its chunk to the file but never calls fsync
            // (FileChannel.force runs only at CHECKPOINT SYNC and close); a non-zero delay writes in the background
            new Rule(H2, "durability", H2_STORAGE, null, is("mem"), "no-memory", "fair.note.h2mem"),
            new Rule(H2, "durability", H2_STORAGE, null, is("file"), "yes", null),
            new Rule(H2, "durability", "WRITE_DELAY", H2_FILE, is("0"), "no-os", "fair.note.h2writeDelay0"),
            new Rule(H2, "durability", "WRITE_DELAY", H2_FILE, intAbove(0), "no-delayed", "fair.note.h2writeDelay"),

            new Rule(MYSQL, "replication", "log_bin", null, FairnessRules::off, "none", null),
            new Rule(MYSQL, "replication", "log_bin", null, FairnessRules::on, "async", "fair.note.replicaUnknown"),
            new Rule(MYSQL, "replication", "rpl_semi_sync_master_enabled", BINLOG_ON, FairnessRules::on, "semi",
                    "fair.note.semiSync"),
            new Rule(MYSQL, "replication", "rpl_semi_sync_master_enabled", BINLOG_ON, v -> true, "none", null),
            new Rule(MYSQL, "replication", "rpl_semi_sync_source_enabled", BINLOG_ON, FairnessRules::on, "semi",
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
            new Rule(POSTGRESQL, "tornPages", "full_page_writes", null, FairnessRules::on, "yes", null),
            new Rule(POSTGRESQL, "tornPages", "full_page_writes", null, FairnessRules::off, "no", null),
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

    // ---- reading the variables ----

    /**
     * An aspect from the rule table: every variable with rules for it (whose condition holds) must be captured
     * (unless {@link #OPTIONAL}) and have a value a rule knows; the aspect is the level latest in {@code order} among
     * those the rules give.
     */
    static Aspect aspect(String family, String aspect, Map<String, String> vars, List<String> order) {
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
        return found.stream().max(Comparator.comparingInt(order::indexOf)).orElseThrow();
    }

    /**
     * The isolation level the connections run at ({@link FairnessProfile#ISOLATION}), else the server default (with
     * a note saying so); its compare key is the level's behaviour in that product ({@link #SEMANTICS}).
     */
    static Aspect isolation(String family, Map<String, String> vars) {
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

    // ---- value matchers ----

    private static boolean holds(Condition c, Map<String, String> vars) {
        if (c == null) {
            return true;
        }
        String v = vars.get(c.variable());
        return v != null && c.matches().test(v.trim());
    }

    private static Predicate<String> is(String... values) {
        List<String> lower = Arrays.stream(values).map(s -> s.toLowerCase(Locale.ROOT)).toList();
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
