package io.tailstream.producer.workload.sysbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SysbenchOptionsTest {

    @Test
    void defaults_areSysbench1020s() {
        SysbenchOptions d = SysbenchOptions.parse(Map.of());
        assertThat(d).isEqualTo(SysbenchOptions.defaults());
        assertThat(d.tables()).isEqualTo(1);
        assertThat(d.tableSize()).isEqualTo(10_000);
        assertThat(d.rangeSize()).isEqualTo(100);
        assertThat(d.pointSelects()).isEqualTo(10);
        assertThat(d.simpleRanges() + d.sumRanges() + d.orderRanges() + d.distinctRanges()).isEqualTo(4);
        assertThat(d.indexUpdates() + d.nonIndexUpdates() + d.deleteInserts()).isEqualTo(3);
        assertThat(d.randType()).isEqualTo("special");
        assertThat(d.randSpecPct()).isEqualTo(1);
        assertThat(d.randSpecRes()).isEqualTo(75);
        assertThat(d.randSpecIter()).isEqualTo(12);
        assertThat(d.rangeSelects() && d.autoInc() && d.createSecondary() && !d.skipTrx()).isTrue();
    }

    @Test
    void parse_acceptsDashesAndOnOff() {
        SysbenchOptions o = SysbenchOptions.parse(Map.of("table-size", "500", "skip_trx", "on", "rand-type", "uniform"));
        assertThat(o.tableSize()).isEqualTo(500);
        assertThat(o.skipTrx()).isTrue();
        assertThat(o.randType()).isEqualTo("uniform");
        assertThat(SysbenchOptions.parse(o.toMap())).isEqualTo(o);
    }

    @Test
    void parse_unknownKey_namesIt() {
        assertThatThrownBy(() -> SysbenchOptions.parse(Map.of("tabels", "3")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tabels");
    }

    @Test
    void parse_badValue_namesKeyAndValue() {
        assertThatThrownBy(() -> SysbenchOptions.parse(Map.of("tables", "0")))
                .hasMessageContaining("tables").hasMessageContaining("0");
        assertThatThrownBy(() -> SysbenchOptions.parse(Map.of("range_selects", "maybe")))
                .hasMessageContaining("range_selects").hasMessageContaining("maybe");
        assertThatThrownBy(() -> SysbenchOptions.parse(Map.of("rand_type", "zipf")))
                .hasMessageContaining("rand_type").hasMessageContaining("zipf");
    }

    @Test
    void queriesPerEvent_matchScripts() {
        SysbenchOptions d = SysbenchOptions.defaults();
        assertThat(OltpScript.READ_WRITE.queriesPerEvent(d)).isEqualTo(20);
        assertThat(OltpScript.POINT_SELECT.queriesPerEvent(OltpScript.POINT_SELECT.adjust(d))).isEqualTo(1);
        assertThat(OltpScript.READ_ONLY.queriesPerEvent(d)).isEqualTo(16);
        assertThat(OltpScript.WRITE_ONLY.queriesPerEvent(d)).isEqualTo(6);
        assertThat(OltpScript.INSERT.queriesPerEvent(d)).isEqualTo(1);
        assertThat(OltpScript.UPDATE_INDEX.queriesPerEvent(d)).isEqualTo(1);
        assertThat(OltpScript.UPDATE_NON_INDEX.queriesPerEvent(d)).isEqualTo(1);
        assertThat(OltpScript.DELETE.queriesPerEvent(d)).isEqualTo(1);
        SysbenchOptions many = SysbenchOptions.parse(Map.of("index_updates", "4", "non_index_updates", "3",
                "delete_inserts", "2", "point_selects", "5", "simple_ranges", "2", "skip_trx", "on"));
        assertThat(OltpScript.UPDATE_INDEX.queriesPerEvent(many)).isEqualTo(4);
        assertThat(OltpScript.UPDATE_NON_INDEX.queriesPerEvent(many)).isEqualTo(3);
        // skip_trx: no BEGIN/COMMIT; 4 + 3 + 2 * 2
        assertThat(OltpScript.WRITE_ONLY.queriesPerEvent(many)).isEqualTo(11);
        // 5 point + (2 + 1 + 1 + 1) ranges
        assertThat(OltpScript.READ_ONLY.queriesPerEvent(many)).isEqualTo(10);
        assertThat(OltpScript.POINT_SELECT.queriesPerEvent(OltpScript.POINT_SELECT.adjust(many))).isEqualTo(1);
        assertThat(OltpScript.DELETE.queriesPerEvent(many)).isEqualTo(1);
        assertThat(OltpScript.READ_WRITE.queriesPerEvent(SysbenchOptions.parse(Map.of("skip_trx", "on",
                "range_selects", "off")))).isEqualTo(14);
    }
}
