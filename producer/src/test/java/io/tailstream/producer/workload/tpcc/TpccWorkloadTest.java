package io.tailstream.producer.workload.tpcc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tailstream.producer.workload.Workload;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.producer.workload.Workloads;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The {@code tpcc} workload's options, data set and how its workers are bound to warehouses and districts. */
class TpccWorkloadTest {

    @Test
    void registered_withItsOptions() {
        Workload w = Workloads.create(new WorkloadSpec("tpcc", Map.of("warehouses", "3")));
        assertThat(w.name()).isEqualTo("tpcc");
        assertThat(w.options()).containsExactly(Map.entry("warehouses", "3"), Map.entry("check", "true"),
                Map.entry("think_times", "false"));
        assertThat(w.checksData()).isTrue();
        assertThat(Workloads.create(new WorkloadSpec("tpcc", Map.of("check", "false"))).checksData()).isFalse();
        assertThat(w.dataSetKey()).isEqualTo("tpcc:warehouses=3");
        assertThat(w.ops()).containsExactly("new_order", "payment", "order_status", "delivery", "stock_level",
                "new_order_rollback", "delivery_skipped");
        assertThat(w.tables()).hasSize(9).contains("order_line", "new_order", "orders");
        assertThat(Workloads.create(new WorkloadSpec("tpcc", Map.of())).options())
                .containsExactly(Map.entry("warehouses", "1"), Map.entry("check", "true"),
                        Map.entry("think_times", "false"));
    }

    @Test
    void badOptions_areRefused_naming_theKey() {
        assertThatThrownBy(() -> TpccWorkload.create(Map.of("tables", "8")))
                .hasMessage("workload tpcc: unknown tpcc option 'tables'; known: [check, think_times, warehouses]");
        assertThatThrownBy(() -> TpccWorkload.create(Map.of("warehouses", "0")))
                .hasMessage("workload tpcc: tpcc option warehouses must be >= 1, was 0");
        assertThatThrownBy(() -> TpccWorkload.create(Map.of("warehouses", "two")))
                .hasMessageContaining("warehouses must be an integer, was 'two'");
    }

    @Test
    void workers_spreadOverWarehousesFirst_thenDistricts() {
        assertThat(TpccWorkload.terminal(0, 4)).isEqualTo(new TpccSession.Terminal(1, 1));
        assertThat(TpccWorkload.terminal(3, 4)).isEqualTo(new TpccSession.Terminal(4, 1));
        assertThat(TpccWorkload.terminal(4, 4)).isEqualTo(new TpccSession.Terminal(1, 2));
        // 40 workers on 4 warehouses: every (warehouse, district) once
        Set<TpccSession.Terminal> seen = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            seen.add(TpccWorkload.terminal(i, 4));
        }
        assertThat(seen).hasSize(40);
        assertThat(TpccWorkload.terminal(40, 4)).isEqualTo(new TpccSession.Terminal(1, 1));
    }

    @Test
    void rowsToLoad_countsEveryTable() {
        long perWarehouse = 1 + 10 + 30_000 * 3 + 9_000 + 100_000;
        long lines = TpccWorkload.create(Map.of()).rowsToLoad() - 100_000 - perWarehouse;
        assertThat(lines).isBetween(5L * 30_000, 15L * 30_000);
    }
}
