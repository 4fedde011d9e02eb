package io.tailstream.producer.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CounterQueriesTest {

    @Test
    void aRefusedQuery_isLeftOutFromThenOn_theOthersStillRead() throws SQLException {
        AtomicInteger refusedCalls = new AtomicInteger();
        CounterQueries q = new CounterQueries("test")
                .add("status", (c, r) -> r.counter("Questions", 10))
                .add("metrics", (c, r) -> {
                    refusedCalls.incrementAndGet();
                    throw new SQLException("Access denied; you need the PROCESS privilege", "42000", 1227);
                })
                .add("states", (c, r) -> r.gauge("state.Updating", 3));

        CounterReading first = q.read(null);
        CounterReading second = q.read(null);

        assertThat(first.counters()).isEqualTo(Map.of("Questions", 10L));
        assertThat(first.gauges()).isEqualTo(Map.of("state.Updating", 3L));
        assertThat(second).isEqualTo(first);
        assertThat(refusedCalls).hasValue(1);
        assertThat(q.leftOut()).containsExactly("metrics");
    }

    @Test
    void aLostConnectionOrATimeout_failsTheReading_andLeavesNoQueryOut() {
        AtomicInteger calls = new AtomicInteger();
        SQLException[] failures = {
                new SQLTransientConnectionException("Connection is not available, request timed out after 2000ms"),
                new SQLException("Communications link failure", "08S01"),
                new java.sql.SQLTimeoutException("Statement cancelled due to timeout"),
                new SQLException("canceling statement due to statement timeout", "57014"),
                new SQLException("terminating connection due to administrator command", "57P01")};
        for (SQLException failure : failures) {
            CounterQueries q = new CounterQueries("test").add("status", (c, r) -> {
                calls.incrementAndGet();
                throw failure;
            });
            assertThatThrownBy(() -> q.read(null)).isSameAs(failure);
            assertThatThrownBy(() -> q.read(null)).isSameAs(failure);
            assertThat(q.leftOut()).as(failure.getMessage()).isEmpty();
        }
        assertThat(calls).hasValue(2 * failures.length);
    }

    @Test
    void numeric_takesWholeNumbersAsTheyAre_roundsTimes_andSkipsTheRest() {
        assertThat(CounterQueries.numeric(42)).isEqualTo(42L);
        assertThat(CounterQueries.numeric(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        assertThat(CounterQueries.numeric((short) 7)).isEqualTo(7L);
        // pg_stat_wal.wal_bytes is numeric, checkpoint_write_time double precision ms
        assertThat(CounterQueries.numeric(new BigDecimal("123456789012"))).isEqualTo(123_456_789_012L);
        assertThat(CounterQueries.numeric(new BigDecimal("2.5"))).isEqualTo(2L);
        assertThat(CounterQueries.numeric(new BigDecimal("3.5"))).isEqualTo(4L);
        assertThat(CounterQueries.numeric(BigInteger.valueOf(9))).isEqualTo(9L);
        assertThat(CounterQueries.numeric(1234.6)).isEqualTo(1235L);
        assertThat(CounterQueries.numeric("12")).isNull();
        assertThat(CounterQueries.numeric(java.sql.Timestamp.valueOf("2026-12-04 00:00:00"))).isNull();
        assertThat(CounterQueries.numeric(null)).isNull();
    }

    @Test
    void wholeNumber_readsStatusTexts_andRefusesWhatIsNoNumber() {
        assertThat(CounterQueries.wholeNumber("8113")).isEqualTo(8113L);
        assertThat(CounterQueries.wholeNumber("-1")).isEqualTo(-1L);
        assertThat(CounterQueries.wholeNumber("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
        for (String notOne : new String[] {"ON", "0.00%", "", "9223372036854775808", "1.5", null}) {
            assertThat(CounterQueries.wholeNumber(notOne)).as(String.valueOf(notOne)).isNull();
        }
    }

    @Test
    void theStatusQuery_namesEveryVariable_onceAndAsGaugeOrCounter() {
        assertThat(MySqlCounters.STATUS_GAUGES).doesNotContainAnyElementsOf(MySqlCounters.STATUS_COUNTERS);
        assertThat(H2Counters.SETTING_GAUGES).doesNotContainAnyElementsOf(H2Counters.SETTING_COUNTERS);
        assertThat(Set.copyOf(MySqlCounters.INNODB_METRICS)).hasSize(MySqlCounters.INNODB_METRICS.size());
    }
}
