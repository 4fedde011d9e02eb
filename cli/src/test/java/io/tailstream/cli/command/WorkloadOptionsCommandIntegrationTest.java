package io.tailstream.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.cli.Cli;
import io.tailstream.producer.plan.PlanFile;
import io.tailstream.producer.workload.WorkloadSpec;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --option KEY=VALUE} gives a workload exactly what a plan file's {@code options} give it. */
class WorkloadOptionsCommandIntegrationTest {

    static List<WorkloadSpec> fromCommandLine(String... args) {
        RunCommand run = new RunCommand();
        CommandLine cl = new CommandLine(run);
        cl.parseArgs(args);
        return CommandInputs.workloads(run.workload, cl);
    }

    @Test
    void optionFlags_equalThePlanFilesOptions() {
        List<WorkloadSpec> cli = fromCommandLine("--workload", "ycsb_b,ycsb_c", "-o", "recordcount=100000",
                "--option", "requestdistribution=zipfian", "-o", "fieldcount=4", "-o", "fieldlength=50",
                "-o", "readproportion=0.9", "-o", "updateproportion=0.1");
        List<WorkloadSpec> plan = PlanFile.parse("""
                targets:
                  - {name: db, url: "jdbc:h2:mem:x"}
                workloads:
                  - name: ycsb_b
                    options: {recordcount: 100000, requestdistribution: zipfian, fieldcount: 4, fieldlength: 50,
                              readproportion: 0.9, updateproportion: 0.1}
                  - name: ycsb_c
                    options: {recordcount: 100000, requestdistribution: zipfian, fieldcount: 4, fieldlength: 50,
                              readproportion: 0.9, updateproportion: 0.1}
                """, "p.yaml", "p", "r", k -> null).workloads();
        assertThat(cli).isEqualTo(plan);
        assertThat(fromCommandLine("--workload", "oltp_read_only", "--tables", "2", "-o", "range_size=5",
                "-o", "rand-type=pareto")).containsExactly(new WorkloadSpec("oltp_read_only",
                Map.of("tables", "2", "range_size", "5", "rand-type", "pareto")));
    }

    @Test
    void prepareWithOptions_loadsWhatTheOptionsSay() throws SQLException {
        String url = "jdbc:h2:mem:wl-options;DB_CLOSE_DELAY=-1";
        int code = Cli.commandLine().execute("prepare", "--url", url, "--user", "sa", "--workload", "ycsb_c",
                "-o", "recordcount=321", "-o", "fieldcount=3", "-o", "fieldlength=7");
        assertThat(code).isZero();
        try (Connection c = DriverManager.getConnection(url, "sa", "");
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*), MAX(LENGTH(FIELD2)) FROM usertable")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(321);
            assertThat(rs.getInt(2)).isEqualTo(7);
            assertThat(c.getMetaData().getColumns(null, null, "USERTABLE", "FIELD3").next()).isFalse();
        }
    }
}
