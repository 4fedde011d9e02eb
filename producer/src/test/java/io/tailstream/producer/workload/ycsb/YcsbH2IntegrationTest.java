package io.tailstream.producer.workload.ycsb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tailstream.producer.target.Dialect;
import io.tailstream.producer.workload.H2Sources;
import io.tailstream.producer.workload.WorkloadSpec;
import io.tailstream.producer.workload.Workloads;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every YCSB preset on embedded H2 against {@link YcsbContract}, plus options and SQL. */
class YcsbH2IntegrationTest {

    @ParameterizedTest
    @EnumSource(YcsbPreset.class)
    void preset_opMixStatementsAndInserts_exact(YcsbPreset preset) throws SQLException {
        YcsbContract.check(preset, Map.of(), 2000, H2Sources.inMemory("ycsb-" + preset), Dialect.forUrl("jdbc:h2:mem:x"));
    }

    @ParameterizedTest
    @EnumSource(value = YcsbPreset.class, names = {"A", "E", "F"})
    void preset_oneFieldReadsAllFieldWritesOrderedKeys_exact(YcsbPreset preset) throws SQLException {
        YcsbContract.check(preset, Map.of("readallfields", "false", "writeallfields", "true", "insertorder",
                "ordered", "zeropadding", "12", "scanlengthdistribution", "zipfian"), 2000, H2Sources.inMemory("ycsb2-" + preset),
                Dialect.forUrl("jdbc:h2:mem:x"));
    }

    @Test
    void presets_areYcsbWorkloadFiles() {
        YcsbOptions a = YcsbPreset.A.options();
        assertThat(a.readProportion()).isEqualTo(0.5);
        assertThat(a.updateProportion()).isEqualTo(0.5);
        assertThat(a.requestDistribution()).isEqualTo("zipfian");
        assertThat(a.fieldCount()).isEqualTo(10);
        assertThat(a.fieldLength()).isEqualTo(100);
        assertThat(a.readAllFields()).isTrue();
        assertThat(a.writeAllFields()).isFalse();
        assertThat(YcsbPreset.D.options().requestDistribution()).isEqualTo("latest");
        assertThat(YcsbPreset.D.options().insertProportion()).isEqualTo(0.05);
        assertThat(YcsbPreset.E.options().maxScanLength()).isEqualTo(100);
        assertThat(YcsbPreset.E.options().scanProportion()).isEqualTo(0.95);
        assertThat(YcsbPreset.F.options().readModifyWriteProportion()).isEqualTo(0.5);
        assertThat(YcsbPreset.C.options().readProportion()).isEqualTo(1.0);
        assertThat(YcsbOptions.defaults().maxScanLength()).isEqualTo(1000);
        assertThat(YcsbOptions.defaults().requestDistribution()).isEqualTo("uniform");
    }

    @Test
    void queriesPerTransaction_rmwCountsTwo() {
        assertThat(Workloads.create(WorkloadSpec.of("ycsb_a")).queriesPerTransaction()).isEqualTo(1.0);
        assertThat(Workloads.create(WorkloadSpec.of("ycsb_f")).queriesPerTransaction()).isEqualTo(1.5);
        assertThat(Workloads.create(WorkloadSpec.of("ycsb_e")).ops())
                .containsExactly("read", "update", "insert", "scan", "read_modify_write");
    }

    @Test
    void badOptions_nameKeyAndValue() {
        assertThatThrownBy(() -> Workloads.create(new WorkloadSpec("ycsb_a", Map.of("requestdistribution", "zipf"))))
                .hasMessageContaining("ycsb_a").hasMessageContaining("requestdistribution").hasMessageContaining("zipf");
        assertThatThrownBy(() -> Workloads.create(new WorkloadSpec("ycsb_b", Map.of("fieldcout", "3"))))
                .hasMessageContaining("fieldcout");
        assertThatThrownBy(() -> Workloads.create(new WorkloadSpec("ycsb_b", Map.of("readproportion", "1.5"))))
                .hasMessageContaining("readproportion").hasMessageContaining("1.5");
        assertThatThrownBy(() -> Workloads.create(new WorkloadSpec("ycsb_c", Map.of("readproportion", "0"))))
                .hasMessageContaining("all 0");
    }

    @Test
    void sql_isYcsbJdbcShape() {
        YcsbOptions o = YcsbOptions.parse(YcsbOptions.defaults(), Map.of("fieldcount", "2", "fieldlength", "9"));
        assertThat(YcsbSql.createTable(o, Dialect.forUrl("jdbc:mysql://h/d"))).isEqualTo(
                "CREATE TABLE usertable (YCSB_KEY VARCHAR(255) NOT NULL PRIMARY KEY, FIELD0 VARCHAR(9), FIELD1 "
                        + "VARCHAR(9)) /*! ENGINE = innodb */");
        assertThat(YcsbSql.read(o, -1)).isEqualTo("SELECT * FROM usertable WHERE YCSB_KEY = ?");
        assertThat(YcsbSql.read(o, 1)).isEqualTo("SELECT FIELD1 FROM usertable WHERE YCSB_KEY = ?");
        assertThat(YcsbSql.scan(o, -1)).isEqualTo("SELECT * FROM usertable WHERE YCSB_KEY >= ? ORDER BY YCSB_KEY LIMIT ?");
        assertThat(YcsbSql.update(o, 0)).isEqualTo("UPDATE usertable SET FIELD0 = ? WHERE YCSB_KEY = ?");
        assertThat(YcsbSql.update(o, -1)).isEqualTo("UPDATE usertable SET FIELD0 = ?, FIELD1 = ? WHERE YCSB_KEY = ?");
        assertThat(YcsbSql.insert(o, 2)).isEqualTo(
                "INSERT INTO usertable (YCSB_KEY, FIELD0, FIELD1) VALUES (?, ?, ?), (?, ?, ?)");
        // CoreWorkload.buildKeyName
        assertThat(YcsbSql.keyName(1, 1, false)).isEqualTo("user8517097267634966620");
        assertThat(YcsbSql.keyName(42, 1, true)).isEqualTo("user42");
        assertThat(YcsbSql.keyName(42, 5, true)).isEqualTo("user00042");
    }
}
