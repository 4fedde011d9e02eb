package io.tailstream.reporter.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.reporter.report.FairnessProfile.Aspect;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fairness profile's rules, one case per product and setting: this is their specification. Each case starts
 * from the product's defaults (MariaDB 10.11, PostgreSQL 16, H2 file with WRITE_DELAY=0) and changes the settings
 * named in the case.
 */
class FairnessProfileTest {

    static Map<String, String> mariadb(String... overrides) {
        Map<String, String> v = new HashMap<>(Map.of("innodb_flush_log_at_trx_commit", "1", "sync_binlog", "0",
                "log_bin", "OFF", "innodb_doublewrite", "ON", "transaction_isolation", "REPEATABLE-READ",
                "innodb_buffer_pool_size", "134217728", "rpl_semi_sync_master_enabled", "OFF",
                "innodb_flush_method", "O_DIRECT", "tailstream.isolation", "REPEATABLE READ"));
        return with(v, overrides);
    }

    static Map<String, String> postgresql(String... overrides) {
        Map<String, String> v = new HashMap<>(Map.of("fsync", "on", "synchronous_commit", "on", "full_page_writes",
                "on", "default_transaction_isolation", "read committed", "shared_buffers", "134217728",
                "synchronous_standby_names", "", "wal_sync_method", "fdatasync", "commit_delay", "0",
                "tailstream.isolation", "READ COMMITTED"));
        return with(v, overrides);
    }

    static Map<String, String> h2(String... overrides) {
        Map<String, String> v = new HashMap<>(Map.of("tailstream.h2.storage", "file", "WRITE_DELAY", "0",
                "CACHE_SIZE", "65536", "tailstream.isolation", "READ COMMITTED"));
        return with(v, overrides);
    }

    /** name=value sets, name= removes (not captured). */
    private static Map<String, String> with(Map<String, String> v, String... overrides) {
        for (String o : overrides) {
            int eq = o.indexOf('=');
            if (eq == o.length() - 1) {
                v.remove(o.substring(0, eq));
            } else {
                v.put(o.substring(0, eq), o.substring(eq + 1));
            }
        }
        return v;
    }

    static FairnessProfile mariadbProfile(String... o) {
        return FairnessProfile.of("m", "MariaDB", mariadb(o));
    }

    static FairnessProfile pgProfile(String... o) {
        return FairnessProfile.of("p", "PostgreSQL", postgresql(o));
    }

    static FairnessProfile h2Profile(String... o) {
        return FairnessProfile.of("h", "H2", h2(o));
    }

    static Stream<Arguments> durability() {
        return Stream.of(
                // MySQL / MariaDB
                Arguments.of(mariadbProfile(), "yes"),
                Arguments.of(mariadbProfile("innodb_flush_log_at_trx_commit=3"), "yes"),
                Arguments.of(mariadbProfile("innodb_flush_log_at_trx_commit=2"), "no-os"),
                Arguments.of(mariadbProfile("innodb_flush_log_at_trx_commit=0"), "no-delayed"),
                Arguments.of(mariadbProfile("innodb_flush_method=nosync"), "no-os"),
                Arguments.of(mariadbProfile("innodb_flush_method="), "yes"), // optional
                Arguments.of(mariadbProfile("log_bin=ON", "sync_binlog=1"), "yes"),
                Arguments.of(mariadbProfile("log_bin=ON", "sync_binlog=100"), "group"),
                Arguments.of(mariadbProfile("log_bin=ON", "sync_binlog=0"), "no-os"),
                Arguments.of(mariadbProfile("log_bin=ON", "sync_binlog=0", "innodb_flush_log_at_trx_commit=0"),
                        "no-delayed"),
                Arguments.of(mariadbProfile("log_bin=OFF", "sync_binlog=0"), "yes"), // no binary log to sync
                Arguments.of(mariadbProfile("log_bin=1", "sync_binlog=1"), "yes"), // SELECT @@log_bin style
                Arguments.of(mariadbProfile("innodb_flush_log_at_trx_commit="), "unknown"),
                Arguments.of(mariadbProfile("log_bin="), "unknown"),
                Arguments.of(mariadbProfile("log_bin=ON", "sync_binlog="), "unknown"),
                Arguments.of(mariadbProfile("innodb_flush_log_at_trx_commit=7"), "unknown"),
                // PostgreSQL
                Arguments.of(pgProfile(), "yes"),
                Arguments.of(pgProfile("synchronous_commit=local"), "yes"),
                Arguments.of(pgProfile("synchronous_commit=remote_write"), "yes"),
                Arguments.of(pgProfile("synchronous_commit=off"), "no-delayed"),
                Arguments.of(pgProfile("fsync=off"), "no-os"),
                Arguments.of(pgProfile("fsync=off", "synchronous_commit=off"), "no-delayed"),
                Arguments.of(pgProfile("commit_delay=1000"), "yes"), // group commit: still flushed before return
                Arguments.of(pgProfile("commit_delay="), "yes"),
                Arguments.of(pgProfile("fsync="), "unknown"),
                Arguments.of(pgProfile("synchronous_commit="), "unknown"),
                // H2
                Arguments.of(h2Profile(), "no-os"), // written at commit, never fsync'ed at commit
                Arguments.of(h2Profile("WRITE_DELAY=500"), "no-delayed"),
                Arguments.of(h2Profile("tailstream.h2.storage=mem", "WRITE_DELAY="), "no-memory"),
                Arguments.of(h2Profile("WRITE_DELAY="), "unknown"),
                Arguments.of(FairnessProfile.of("h", "H2", Map.of("durability", "sync")), "unknown"),
                // a product nothing is known about
                Arguments.of(FairnessProfile.of("x", "Oracle", Map.of("commit_write", "IMMEDIATE")), "unknown"));
    }

    @ParameterizedTest
    @MethodSource
    void durability(FairnessProfile p, String expected) {
        assertThat(p.durability().value()).as(p.durability().basis().toString()).isEqualTo(expected);
        assertThat(p.durability().unknown()).isEqualTo(expected.equals("unknown"));
        if (!expected.equals("unknown")) {
            assertThat(p.durability().compareKey()).isEqualTo(expected);
        }
    }

    static Stream<Arguments> replication() {
        return Stream.of(
                Arguments.of(mariadbProfile(), "none", "no-wait"),
                Arguments.of(mariadbProfile("log_bin=ON"), "async", "no-wait"),
                Arguments.of(mariadbProfile("log_bin=ON", "rpl_semi_sync_master_enabled=ON"), "semi", "semi"),
                Arguments.of(mariadbProfile("log_bin=ON", "rpl_semi_sync_master_enabled=",
                        "rpl_semi_sync_source_enabled=ON"), "semi", "semi"), // MySQL 8.0.26+ name
                Arguments.of(mariadbProfile("log_bin=ON", "rpl_semi_sync_master_enabled="), "async", "no-wait"),
                Arguments.of(mariadbProfile("rpl_semi_sync_master_enabled=ON"), "none", "no-wait"), // no binlog
                Arguments.of(mariadbProfile("log_bin="), "unknown", null),
                Arguments.of(pgProfile(), "async", "no-wait"),
                Arguments.of(pgProfile("synchronous_standby_names=ANY 1 (s1, s2)"), "sync", "sync"),
                Arguments.of(pgProfile("synchronous_standby_names=s1", "synchronous_commit=remote_apply"), "sync",
                        "sync"),
                Arguments.of(pgProfile("synchronous_standby_names=s1", "synchronous_commit=remote_write"), "semi",
                        "semi"),
                Arguments.of(pgProfile("synchronous_standby_names=s1", "synchronous_commit=local"), "async",
                        "no-wait"),
                Arguments.of(pgProfile("synchronous_standby_names="), "unknown", null),
                Arguments.of(h2Profile(), "none", "no-wait"));
    }

    @ParameterizedTest
    @MethodSource
    void replication(FairnessProfile p, String expected, String compareKey) {
        assertThat(p.replication().value()).isEqualTo(expected);
        assertThat(p.replication().compareKey()).isEqualTo(compareKey);
    }

    static Stream<Arguments> tornPages() {
        return Stream.of(
                Arguments.of(mariadbProfile(), "yes"),
                Arguments.of(mariadbProfile("innodb_doublewrite=OFF"), "no"),
                Arguments.of(mariadbProfile("innodb_doublewrite=DETECT_ONLY"), "no"),
                Arguments.of(mariadbProfile("innodb_doublewrite=DETECT_AND_RECOVER"), "yes"),
                Arguments.of(mariadbProfile("innodb_doublewrite=fast"), "yes"),
                Arguments.of(mariadbProfile("innodb_doublewrite="), "unknown"),
                Arguments.of(pgProfile(), "yes"),
                Arguments.of(pgProfile("full_page_writes=off"), "no"),
                Arguments.of(h2Profile(), "yes"),
                Arguments.of(h2Profile("tailstream.h2.storage=mem"), "n/a"));
    }

    @ParameterizedTest
    @MethodSource
    void tornPages(FairnessProfile p, String expected) {
        assertThat(p.tornPages().value()).isEqualTo(expected);
    }

    static Stream<Arguments> isolation() {
        return Stream.of(
                Arguments.of(mariadbProfile(), "REPEATABLE READ", "innodb-repeatable-read"),
                // the connections' own level wins over the server default
                Arguments.of(mariadbProfile("tailstream.isolation=READ COMMITTED"), "READ COMMITTED",
                        "statement-snapshot"),
                Arguments.of(mariadbProfile("tailstream.isolation=", "transaction_isolation=READ-COMMITTED"),
                        "READ COMMITTED", "statement-snapshot"),
                Arguments.of(mariadbProfile("tailstream.isolation=", "transaction_isolation=", "tx_isolation=SERIALIZABLE"),
                        "SERIALIZABLE", "innodb-serializable"),
                Arguments.of(pgProfile(), "READ COMMITTED", "statement-snapshot"),
                Arguments.of(pgProfile("tailstream.isolation=READ UNCOMMITTED"), "READ UNCOMMITTED",
                        "statement-snapshot"), // PostgreSQL runs it as READ COMMITTED
                Arguments.of(pgProfile("tailstream.isolation=REPEATABLE READ"), "REPEATABLE READ",
                        "snapshot-isolation"),
                Arguments.of(pgProfile("tailstream.isolation=", "default_transaction_isolation=serializable"),
                        "SERIALIZABLE", "serializable-snapshot-isolation"),
                Arguments.of(h2Profile(), "READ COMMITTED", "statement-snapshot"),
                Arguments.of(h2Profile("tailstream.isolation="), "unknown", null), // H2 has no server default
                Arguments.of(mariadbProfile("tailstream.isolation=SOMETIMES"), "unknown", null));
    }

    @ParameterizedTest
    @MethodSource
    void isolation(FairnessProfile p, String expected, String compareKey) {
        assertThat(p.isolation().value()).isEqualTo(expected);
        assertThat(p.isolation().compareKey()).isEqualTo(compareKey);
    }

    @Test
    void isolation_sameNameAcrossProducts_countsAsDifferentExceptReadCommitted() {
        Function<FairnessProfile, String> key = p -> p.isolation().compareKey();
        assertThat(key.apply(mariadbProfile())).isNotEqualTo(key.apply(pgProfile("tailstream.isolation=REPEATABLE READ")));
        assertThat(key.apply(mariadbProfile("tailstream.isolation=SERIALIZABLE")))
                .isNotEqualTo(key.apply(pgProfile("tailstream.isolation=SERIALIZABLE")));
        assertThat(key.apply(mariadbProfile("tailstream.isolation=READ COMMITTED"))).isEqualTo(key.apply(pgProfile()))
                .isEqualTo(key.apply(h2Profile()));
        Aspect from = mariadbProfile("tailstream.isolation=").isolation();
        assertThat(from.notes()).extracting(Text::key).contains("fair.note.serverDefault");
        assertThat(from.basis()).containsExactly("transaction_isolation=REPEATABLE-READ");
    }

    @Test
    void mariadbDefault_andPostgresqlDefault_haveTheSameDurability() {
        FairnessProfile m = mariadbProfile();
        FairnessProfile p = pgProfile();
        assertThat(m.durability().compareKey()).isEqualTo(p.durability().compareKey()).isEqualTo("yes");
        assertThat(m.replication().compareKey()).isEqualTo(p.replication().compareKey());
        assertThat(m.tornPages().compareKey()).isEqualTo(p.tornPages().compareKey());
        assertThat(m.durability().basis()).containsExactly("innodb_flush_log_at_trx_commit=1",
                "innodb_flush_method=O_DIRECT", "log_bin=OFF");
        assertThat(p.durability().basis()).containsExactly("fsync=on", "synchronous_commit=on", "commit_delay=0");
    }

    @Test
    void notes_sayWhatTheSettingMeans_andWhatWasNotCaptured() {
        assertThat(mariadbProfile("innodb_flush_log_at_trx_commit=2").durability().notes())
                .extracting(Text::key).containsExactly("fair.note.flush2");
        assertThat(h2Profile().durability().notes()).extracting(Text::key)
                .containsExactly("fair.note.h2writeDelay0");
        Aspect unknown = mariadbProfile("log_bin=ON", "sync_binlog=").durability();
        assertThat(unknown.notes()).extracting(Text::key).contains("fair.note.notCaptured");
        assertThat(unknown.notes().stream().filter(t -> t.key().equals("fair.note.notCaptured")).findFirst()
                .orElseThrow().args()).containsExactly("sync_binlog");
    }

    static Stream<Arguments> familyOf() {
        return Stream.of(
                Arguments.of("MariaDB", Map.of(), "mysql"),
                Arguments.of("MySQL", Map.of(), "mysql"),
                Arguments.of("PolarDB", Map.of("innodb_buffer_pool_size", "1"), "mysql"),
                Arguments.of("PostgreSQL", Map.of(), "postgresql"),
                Arguments.of(null, Map.of("synchronous_commit", "on"), "postgresql"),
                Arguments.of("H2", Map.of(), "h2"),
                Arguments.of(null, Map.of("tailstream.h2.storage", "mem"), "h2"),
                Arguments.of("Oracle", Map.of(), "unknown"));
    }

    @ParameterizedTest
    @MethodSource
    void familyOf(String product, Map<String, String> vars, String expected) {
        assertThat(FairnessProfile.familyOf(product, vars)).isEqualTo(expected);
    }

    static Stream<Arguments> memory() {
        return Stream.of(
                Arguments.of(mariadbProfile("tailstream.data_bytes=268435456"), "larger"),
                Arguments.of(mariadbProfile("tailstream.data_bytes=1048576"), "fits"),
                Arguments.of(mariadbProfile(), "unknown"), // data size not captured
                Arguments.of(mariadbProfile("innodb_buffer_pool_size=auto", "tailstream.data_bytes=1"), "unknown"),
                // PostgreSQL as pg_settings reports it (16384 pages of 8 kB = 128 MiB), and in bytes
                Arguments.of(pgProfile("shared_buffers=16384 8kB", "tailstream.data_bytes=134217729"), "larger"),
                Arguments.of(pgProfile("shared_buffers=16384 8kB", "tailstream.data_bytes=134217728"), "fits"),
                Arguments.of(pgProfile("tailstream.data_bytes=134217729"), "larger"),
                // H2: CACHE_SIZE in KiB (65536 KiB = 64 MiB)
                Arguments.of(h2Profile("tailstream.data_bytes=67108865"), "larger"),
                Arguments.of(h2Profile("tailstream.h2.storage=mem"), "memory"));
    }

    @ParameterizedTest
    @MethodSource
    void memory(FairnessProfile p, String expected) {
        assertThat(p.memory().value()).isEqualTo(expected);
    }

    @Test
    void bytes_plainAndWithPostgresqlUnits() {
        assertThat(FairnessProfile.bytes("134217728")).isEqualTo(134217728L);
        assertThat(FairnessProfile.bytes("16384 8kB")).isEqualTo(16384L * 8192);
        assertThat(FairnessProfile.bytes("128MB")).isEqualTo(128L << 20);
        assertThat(FairnessProfile.bytes("4GB")).isEqualTo(4L << 30);
        assertThat(FairnessProfile.bytes("auto")).isNull();
        assertThat(FairnessProfile.bytes(null)).isNull();
        assertThat(FairnessProfile.bytes("99999999999999999999")).isNull();
    }

    @Test
    void everyRuleValueAndNote_hasAMessageInEveryLanguage() {
        for (java.util.Locale l : java.util.List.of(ReportOptions.ENGLISH, ReportOptions.SIMPLIFIED_CHINESE)) {
            Messages msg = Messages.of(l);
            for (FairnessRules.Rule r : FairnessRules.RULES) {
                msg.get("fair." + r.aspect() + "." + r.level());
                if (r.note() != null) {
                    msg.get(r.note());
                }
            }
            FairnessRules.SEMANTICS.values().forEach(s -> msg.get("fair.isolation." + s));
            for (String a : java.util.List.of("durability", "replication", "tornPages", "isolation", "memory")) {
                msg.get("fair." + a + ".unknown");
                msg.get("env.aspect." + a);
            }
            for (String f : java.util.List.of("mysql", "postgresql", "h2", "unknown")) {
                msg.get("fair.family." + f);
            }
            ValidityChecks.VERDICT_CHECKS.forEach(c -> msg.get("verdict.check." + c));
        }
    }
}
