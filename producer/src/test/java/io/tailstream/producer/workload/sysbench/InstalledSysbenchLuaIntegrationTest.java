package io.tailstream.producer.workload.sysbench;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.testing.TestServices;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The workloads' SQL against the Lua scripts of the installed sysbench 1.0.20 (Debian package {@code sysbench};
 * {@code .ci/run} installs it): the verbatim copies {@link OltpSqlTest} checks are the scripts' own, and the scripts
 * run the groups of statements {@link OltpScript} runs.
 */
class InstalledSysbenchLuaIntegrationTest {

    static final Path SCRIPTS = Path.of("/usr/share/sysbench");

    @Test
    void oltpCommon_containsEveryTemplateAndTheDdl() throws IOException {
        String source = Files.readString(script("oltp_common"));
        for (String template : OltpSqlTest.LUA_TEMPLATES) {
            assertThat(source).contains("\"" + template + "\"");
        }
        assertThat(source).contains("CREATE TABLE sbtest%d(\n  id %s,\n  k INTEGER DEFAULT '0' NOT NULL,\n"
                + "  c CHAR(120) DEFAULT '' NOT NULL,\n  pad CHAR(60) DEFAULT '' NOT NULL,\n  %s (id)\n) %s %s");
        assertThat(source).contains("\"CREATE INDEX k_%d ON sbtest%d(k)\"");
        assertThat(source).contains("id_def = \"INTEGER NOT NULL AUTO_INCREMENT\"");
        assertThat(source).contains("id_index_def = \"KEY xid\"").contains("id_index_def = \"PRIMARY KEY\"");
        assertThat(source).contains("\"###########-###########-###########-\" ..\n   \"###########-###########\"");
    }

    @Test
    void scripts_runTheGroupsOfOltpScript() throws IOException {
        String insert = Files.readString(script("oltp_insert"));
        assertThat(insert).contains("\"INSERT INTO %s (id, k, c, pad) VALUES \" ..\n"
                + "                                 \"(%d, %d, '%s', '%s')\"");
        assertThat(insert).contains("\"INSERT INTO %s (k, c, pad) VALUES \" ..\n"
                + "                                 \"(%d, '%s', '%s')\"");
        assertThat(insert).contains("i = sysbench.rand.unique() - 2147483648").contains("sysbench.opt.table_size=0");
        assertThat(Files.readString(script("oltp_update_index")))
                .contains("function event()\n   execute_index_updates(con)\nend");
        assertThat(Files.readString(script("oltp_update_non_index")))
                .contains("function event()\n   execute_non_index_updates()\nend");
        assertThat(Files.readString(script("oltp_delete")))
                .contains("prepare_for_each_table(\"deletes\")").contains("stmt[tnum].deletes:execute()");
        for (String name : List.of("oltp_insert", "oltp_update_index", "oltp_update_non_index", "oltp_delete",
                "oltp_point_select")) {
            // the single-statement scripts never open a transaction
            assertThat(Files.readString(script(name))).as(name).doesNotContain("begin()");
        }
        for (String name : List.of("oltp_read_only", "oltp_read_write", "oltp_write_only")) {
            assertThat(Files.readString(script(name))).as(name)
                    .contains("if not sysbench.opt.skip_trx then\n      begin()");
        }
    }

    /** An installed script, or the test ends (see {@link TestServices}) saying sysbench is missing. */
    private static Path script(String name) {
        Path lua = SCRIPTS.resolve(name + ".lua");
        if (!Files.isReadable(lua)) {
            throw TestServices.missing(TestServices.Service.SYSBENCH, "sysbench 1.0.20's Lua scripts in " + SCRIPTS
                    + " (Debian: apt-get install sysbench; .ci/run installs it)");
        }
        return lua;
    }
}
