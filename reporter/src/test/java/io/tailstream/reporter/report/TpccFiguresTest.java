package io.tailstream.reporter.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tailstream.reporter.report.Environment.TargetEnv;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** {@link TpccFigures} on counts whose figures are known by construction. */
class TpccFiguresTest {

    @Test
    void nearestRank_isTheSortedValueAtCeilOfPN() {
        Random rnd = new Random(5);
        for (int trial = 0; trial < 200; trial++) {
            int n = 1 + rnd.nextInt(500);
            List<Long> values = new ArrayList<>();
            NavigableMap<Long, Long> counts = new TreeMap<>();
            for (int i = 0; i < n; i++) {
                long v = rnd.nextInt(50);
                values.add(v);
                counts.merge(v, 1L, Long::sum);
            }
            Collections.sort(values);
            assertThat(TpccFigures.nearestRank(counts, 90)).isEqualTo(values.get((int) Math.ceil(0.9 * n) - 1));
        }
        assertThat(TpccFigures.nearestRank(new TreeMap<>(), 90)).isNull();
    }

    @Test
    void tpmC_countsRolledBackNewOrders_nopmOnlyTheCommitted_failuresNeither() {
        // two minutes; 900 New-Orders committed, 10 rolled back, 5 failed; the other types in their minimum shares
        List<TpccFigures.Counts> counts = List.of(
                counts("new_order", true, Map.of(4_000L, 800L, 9_000L, 100L)),
                counts("new_order_rollback", true, Map.of(2_000L, 10L)),
                counts("new_order", false, Map.of(50_000L, 5L)),
                counts("payment", true, Map.of(1_000L, 860L)),
                counts("order_status", true, Map.of(500L, 80L)),
                counts("delivery", true, Map.of(90_000_000L, 80L)),
                counts("stock_level", true, Map.of(3_000L, 79L)));
        TargetEnv target = new TargetEnv("db", "MariaDB", "10.11", null, 1, 600.0, "EUR", null, null, List.of(),
                null);
        TpccRow r = TpccFigures.row(row(120), List.of(2), false, counts, target);
        assertThat(r.newOrders()).isEqualTo(910);
        assertThat(r.rolledBack()).isEqualTo(10);
        assertThat(r.tpmC()).isCloseTo(455, within(1e-9));
        assertThat(r.nopm()).isCloseTo(450, within(1e-9));
        assertThat(r.rolledBackPct()).isCloseTo(1000.0 / 910, within(1e-9));
        assertThat(r.tpmCPerWarehouse()).isCloseTo(227.5, within(1e-9));
        assertThat(r.costPer1000TpmC()).isCloseTo(600 / 455.0 * 1000, within(1e-9));
        assertThat(r.currency()).isEqualTo("EUR");
        assertThat(r.efficiencyPct()).as("without keying and think times").isNull();
        // with them: 455 tpmC of 2 warehouses' 25.72 at most
        assertThat(TpccFigures.row(row(120), List.of(2), true, counts, target).efficiencyPct())
                .isCloseTo(455 / 25.72 * 100, within(1e-9));
        TpccRow.Type no = r.types().get(0);
        assertThat(no.type()).isEqualTo("new_order");
        assertThat(no.completed()).isEqualTo(910);
        assertThat(no.errors()).isEqualTo(5);
        assertThat(no.tps()).isCloseTo(910 / 120.0, within(1e-9));
        // rank ceil(0.9 x 910) = 819 is past the 810 at or below 4 ms, so 9 ms; the failed 50 ms never count
        assertThat(no.p90Ms()).isEqualTo(9.0);
        long all = 910 + 860 + 80 + 80 + 79;
        assertThat(r.types()).extracting(TpccRow.Type::type)
                .containsExactly("new_order", "payment", "order_status", "delivery", "stock_level");
        assertThat(r.types().get(1).sharePct()).isCloseTo(86000.0 / all, within(1e-9));
        // Payment 860 of 2009 is 42.8%: below its 43% minimum; Stock-Level 79 of 2009 is 3.93%: below 4%
        assertThat(r.types().get(1).meetsMinimumShare()).isFalse();
        assertThat(r.types().get(2).meetsMinimumShare()).isFalse();
        assertThat(r.types().get(4).meetsMinimumShare()).isFalse();
        // Delivery's 90 s exceeds its 80 s limit; the others are within theirs
        assertThat(r.types().get(3).withinLimit()).isFalse();
        assertThat(r.types().stream().filter(t -> !t.type().equals("delivery"))).allMatch(TpccRow.Type::withinLimit);
        assertThat(r.withinSpecification()).isFalse();
    }

    @Test
    void withinSpecification_whenEveryTypeMeetsItsLimitAndShare_noCostWithoutOne() {
        List<TpccFigures.Counts> counts = List.of(counts("new_order", true, Map.of(4_999_999L, 45L)),
                counts("payment", true, Map.of(5_000_000L, 43L)),
                counts("order_status", true, Map.of(1L, 4L)),
                counts("delivery", true, Map.of(80_000_000L, 4L)),
                counts("stock_level", true, Map.of(20_000_000L, 4L)));
        TpccRow r = TpccFigures.row(row(60), List.of(1, 2), true, counts, null);
        assertThat(r.withinSpecification()).isTrue();
        assertThat(r.rolledBackPct()).isZero();
        assertThat(r.tpmCPerWarehouse()).as("steps of different warehouses").isNull();
        assertThat(r.efficiencyPct()).as("steps of different warehouses").isNull();
        assertThat(r.costPer1000TpmC()).isNull();
        assertThat(r.currency()).isNull();
    }

    @Test
    void skippedDeliveries_countAsDeliveries_andAtMostOnePercentOrOne_keepsTheRunWithin() {
        // 10,000 transactions in the minimum shares; 400 Deliveries, of which 4 (1%) or 5 skipped a district
        assertThat(TpccFigures.row(row(60), List.of(1), false, mix(400, 4), null).withinSpecification()).isTrue();
        TpccRow five = TpccFigures.row(row(60), List.of(1), false, mix(400, 5), null);
        assertThat(five.skippedDeliveries()).isEqualTo(5);
        assertThat(five.skippedDeliveriesPct()).isCloseTo(1.25, within(1e-9));
        assertThat(five.skippedDeliveriesAllowed()).isEqualTo(4.0);
        assertThat(five.types()).allMatch(t -> t.withinLimit() && t.meetsMinimumShare());
        assertThat(five.withinSpecification()).as("5 skipped of 400").isFalse();
        // under 100 Deliveries one may skip (the specification's "or one, whichever is greater"), not two
        assertThat(TpccFigures.row(row(60), List.of(1), false, mix(40, 1), null).withinSpecification()).isTrue();
        assertThat(TpccFigures.row(row(60), List.of(1), false, mix(40, 2), null).withinSpecification()).isFalse();
        // a skipped Delivery is a completed Delivery: in the type's count, share and 90th percentile
        List<TpccFigures.Counts> counts = List.of(counts("delivery", true, Map.of(1_000L, 1L)),
                counts("delivery_skipped", true, Map.of(7_000L, 9L)), counts("delivery_skipped", false,
                        Map.of(3_000L, 2L)));
        TpccRow r = TpccFigures.row(row(60), List.of(1), false, counts, null);
        TpccRow.Type delivery = r.types().get(3);
        assertThat(delivery.completed()).isEqualTo(10);
        assertThat(delivery.errors()).isEqualTo(2);
        assertThat(delivery.sharePct()).isEqualTo(100.0);
        assertThat(delivery.p90Ms()).isEqualTo(7.0);
        assertThat(r.skippedDeliveries()).isEqualTo(9);
        assertThat(r.skippedDeliveriesPct()).isCloseTo(90.0, within(1e-9));
        assertThat(TpccFigures.row(row(60), List.of(1), false, List.of(), null).skippedDeliveriesPct())
                .as("no Delivery").isNull();
    }

    /** Ten Deliveries to every 250 transactions, {@code skipped} of the {@code deliveries} skipping a district. */
    private static List<TpccFigures.Counts> mix(long deliveries, long skipped) {
        long n = deliveries * 25;
        return List.of(counts("new_order", true, Map.of(1_000L, n * 45 / 100)),
                counts("payment", true, Map.of(1_000L, n * 43 / 100)),
                counts("order_status", true, Map.of(1_000L, n * 4 / 100)),
                counts("delivery", true, Map.of(1_000L, deliveries - skipped)),
                counts("delivery_skipped", true, Map.of(1_000L, skipped)),
                counts("stock_level", true, Map.of(1_000L, n * 4 / 100)));
    }

    private static TpccFigures.Counts counts(String op, boolean ok, Map<Long, Long> byLatency) {
        return new TpccFigures.Counts(op, ok, new TreeMap<>(byLatency));
    }

    private static SummaryRow row(double seconds) {
        return new SummaryRow("db", "tpcc", 8, 1, 0, seconds, 0, 0, 0, 0, 0, 0, 0, null, null, List.of(), List.of(),
                null);
    }
}
