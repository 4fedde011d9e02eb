package io.tailstream.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

/** Log lines: one each, library warnings of an outage summarized into a first line and a count; time on cue. */
class LogSummaryTest {

    static final String NETWORK_CLIENT = "org.apache.kafka.clients.NetworkClient";
    static final String HIKARI = "com.zaxxer.hikari.pool.ProxyConnection";
    static final String SPOOL = "io.tailstream.producer.emit.SpoolingTransport";

    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    long now;
    final LogSummary summary = new LogSummary(() -> out, () -> now, false);

    List<String> lines() {
        // without the time of day
        return bytes.toString(StandardCharsets.UTF_8).lines().map(l -> l.substring(13)).toList();
    }

    @Test
    void repeatedKafkaClientWarnings_oneLineAtTheStart_oneWithTheCountOnceQuiet() {
        for (int i = 0; i < 16; i++) {
            now = TimeUnit.MILLISECONDS.toNanos(500L * i);
            summary.log(NETWORK_CLIENT, Level.WARN, "[Producer clientId=p1] Connection to node 1 (/127.0.0.1:9092)"
                    + " could not be established. Node may not be available.", null);
            summary.endQuiet();
        }
        now += LogSummary.QUIET_NANOS - 1;
        summary.endQuiet();
        assertThat(lines()).hasSize(1);
        now += 1;
        summary.endQuiet();
        summary.endAll();
        assertThat(lines()).containsExactly(
                "WARN Kafka client: [Producer clientId=p1] Connection to node 1 (/127.0.0.1:9092) could not be"
                        + " established. Node may not be available. (repeats are counted until they stop)",
                "WARN Kafka client: 16 warnings in 7.5 s, none for 5 s now (last: [Producer clientId=p1] Connection"
                        + " to node 1 (/127.0.0.1:9092) could not be established. Node may not be available.)");
    }

    @Test
    void poolWarningsWithStackTraces_oneLineEach_withoutTrace_andAnOpenBurstEndsAtExit() {
        Exception e = new java.sql.SQLNonTransientConnectionException("(conn=132) Socket error", "08000",
                new java.io.EOFException("socket was closed by server"));
        for (int i = 0; i < 4; i++) {
            summary.log(HIKARI, Level.WARN, "tailstream-db - Connection marked as broken because of SQLSTATE(08000)",
                    e);
        }
        summary.endAll();
        assertThat(lines()).containsExactly(
                "WARN connection pool: tailstream-db - Connection marked as broken because of SQLSTATE(08000)"
                        + " (SQLNonTransientConnectionException: (conn=132) Socket error) (repeats are counted until"
                        + " they stop)",
                "WARN connection pool: 4 warnings in 0.0 s, none until exit (last: tailstream-db - Connection marked"
                        + " as broken because of SQLSTATE(08000) (SQLNonTransientConnectionException: (conn=132)"
                        + " Socket error))");
    }

    @Test
    void separateFamilies_separateBursts_otherLoggers_oneLineEach() {
        summary.log(NETWORK_CLIENT, Level.WARN, "broker gone", null);
        summary.log(HIKARI, Level.ERROR, "pool gone", new ConnectException("Connection refused"));
        summary.log("io.tailstream.producer.emit.BlockEmitter", Level.WARN, "slow", null);
        summary.log("io.tailstream.producer.emit.BlockEmitter", Level.WARN, "slow", null);
        assertThat(lines()).containsExactly(
                "WARN Kafka client: broker gone (repeats are counted until they stop)",
                "ERROR connection pool: pool gone (ConnectException: Connection refused) (repeats are counted until"
                        + " they stop)",
                "WARN BlockEmitter - slow",
                "WARN BlockEmitter - slow");
    }

    @Test
    void spoolRetriesWhileKafkaIsAway_summarized_butItsErrorsPrintedEach() {
        for (int i = 0; i < 7; i++) {
            now = TimeUnit.SECONDS.toNanos(i);
            summary.log(SPOOL, Level.WARN, "control event not acknowledged by Kafka (TimeoutException): sending it"
                    + " again", null);
        }
        summary.log(SPOOL, Level.ERROR, "closing with 3 control events not delivered (file c.spool kept)", null);
        summary.log(SPOOL, Level.ERROR, "closing with 12 blocks still spooled in /s (file kept)", null);
        summary.endAll();
        assertThat(lines()).containsExactly(
                "WARN spool: control event not acknowledged by Kafka (TimeoutException): sending it again (repeats"
                        + " are counted until they stop)",
                "ERROR SpoolingTransport - closing with 3 control events not delivered (file c.spool kept)",
                "ERROR SpoolingTransport - closing with 12 blocks still spooled in /s (file kept)",
                "WARN spool: 7 warnings in 6.0 s, none until exit (last: control event not acknowledged by Kafka"
                        + " (TimeoutException): sending it again)");
    }

    @Test
    void metadataWarningsOfTopicsBeingCreated_areNotShown() {
        summary.log(NETWORK_CLIENT, Level.WARN, "[Consumer clientId=x] Error while fetching metadata with correlation"
                + " id 2 : {tailstream.windows=UNKNOWN_TOPIC_OR_PARTITION}", null);
        summary.log("org.apache.kafka.clients.Metadata", Level.WARN, "[Consumer clientId=x] The metadata response"
                + " from the cluster reported a recoverable issue with correlation id 2 :"
                + " {t=UNKNOWN_TOPIC_OR_PARTITION}",
                null);
        summary.endAll();
        assertThat(lines()).isEmpty();
    }

    @Test
    void retriedConcurrentTransactions_areNotShown_otherProduceErrorsAre() {
        String sender = "org.apache.kafka.clients.producer.internals.Sender";
        summary.log(sender, Level.WARN, "[Producer clientId=a-StreamThread-1-producer, transactionalId=a-1] Got error"
                + " produce response with correlation id 20 on topic-partition a-step-input-repartition-1, retrying"
                + " (2147483646 attempts left). Error: CONCURRENT_TRANSACTIONS", null);
        summary.log(sender, Level.WARN, "[Producer clientId=p] Got error produce response with correlation id 21 on"
                + " topic-partition t-0, retrying (2147483646 attempts left). Error: NOT_LEADER_OR_FOLLOWER", null);
        summary.endAll();
        assertThat(String.join("\n", lines())).doesNotContain("CONCURRENT_TRANSACTIONS")
                .contains("NOT_LEADER_OR_FOLLOWER");
    }

    @Test
    void debug_printsTheStackTrace() {
        LogSummary debug = new LogSummary(() -> out, () -> now, true);
        debug.log("io.tailstream.x.Y", Level.WARN, "failed", new IllegalStateException("boom"));
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("WARN Y - failed")
                .contains("java.lang.IllegalStateException: boom").contains("\tat ");
    }

    @Test
    void levels_longestPrefixWins() {
        LogLevels levels = new LogLevels(Level.WARN, java.util.Map.of("org.apache.kafka", Level.ERROR,
                "org.apache.kafka.clients.producer", Level.INFO));
        assertThat(levels.levelOf("org.apache.kafka.clients.NetworkClient")).isEqualTo(Level.ERROR);
        assertThat(levels.levelOf("org.apache.kafka.clients.producer.internals.Sender")).isEqualTo(Level.INFO);
        assertThat(levels.levelOf("org.apache.kafkaesque")).isEqualTo(Level.WARN);
        assertThat(LogLevels.load().levelOf("org.apache.kafka.streams.StreamsConfig")).isEqualTo(Level.ERROR);
        java.util.Properties resource = new java.util.Properties();
        resource.setProperty("default", "warn");
        resource.setProperty("io.tailstream", "warn");
        java.util.Properties system = new java.util.Properties();
        system.setProperty("tailstream.log.io.tailstream.reporter.report", "debug");
        system.setProperty("user.name", "x");
        LogLevels overridden = LogLevels.from(resource, system);
        assertThat(overridden.levelOf("io.tailstream.reporter.report.Loader")).isEqualTo(Level.DEBUG);
        assertThat(overridden.levelOf("io.tailstream.producer.X")).isEqualTo(Level.WARN);
        assertThat(overridden.byPrefix()).doesNotContainKey("user.name");
    }
}
