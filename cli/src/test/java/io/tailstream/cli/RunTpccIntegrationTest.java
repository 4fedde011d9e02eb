package io.tailstream.cli;

import static io.tailstream.cli.ArchiveQueries.longValue;
import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.infra.testing.MySqlTestServer;
import io.tailstream.reporter.query.ArchiveDatabase;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TPC-C through the commands a user types, against the local MariaDB: {@code prepare --workload tpcc --warehouses
 * 1}, then a default {@code run} with its local pipeline. Every transaction's sample is archived with its kind, and
 * the kinds come in the standard mix.
 */
class RunTpccIntegrationTest {

    @TempDir
    Path out;

    @Test
    void prepareAndRun_archiveEveryTransactionWithItsKind_inTheStandardMix() throws Exception {
        MySqlTestServer server = PasswordEnvTarget.require();
        String[] target = {"--url", server.url(), "--user", server.user(), "--password-env",
                PasswordEnvTarget.PASSWORD_ENV, "--workload", "tpcc", "--warehouses", "1"};
        RunFailuresIntegrationTest.Outcome prepare = RunFailuresIntegrationTest.execute(
                PasswordEnvTarget.args("prepare", target));
        assertThat(prepare.exitCode()).as(prepare.out() + prepare.err()).isZero();
        try {
            RunFailuresIntegrationTest.Outcome run = RunFailuresIntegrationTest.execute(PasswordEnvTarget.args("run",
                    target, new String[] {"--threads", "4", "--warmup", "1s", "--duration", "10s",
                            "--report-interval", "0", "--out", out.toString()}));
            assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
            Matcher counts = Pattern.compile("samples: ([\\d,]+) sent = ([\\d,]+) aggregated = ([\\d,]+) archived")
                    .matcher(run.out());
            assertThat(counts.find()).as(run.out()).isTrue();
            long sent = Long.parseLong(counts.group(1).replace(",", ""));
            assertThat(counts.group(3)).isEqualTo(counts.group(1));
            try (ArchiveDatabase db = ArchiveDatabase.open(out.resolve("archive"))) {
                assertThat(longValue(db, "SELECT count(*) FROM samples")).isEqualTo(sent);
                assertThat(longValue(db, "SELECT count(*) FROM samples WHERE op NOT IN ('new_order', 'payment',"
                        + " 'order_status', 'delivery', 'stock_level', 'new_order_rollback')")).isZero();
                // each transaction's own statements, BEGIN and COMMIT included: Stock-Level 4, Delivery up to 72
                assertThat(longValue(db, "SELECT count(*) FROM samples WHERE status = 'ok'"
                        + " AND queries NOT BETWEEN 4 AND 72")).isZero();
                assertThat(longValue(db, "SELECT min(queries) FROM samples WHERE op = 'stock_level'"
                        + " AND status = 'ok'")).isEqualTo(4);
                long measured = longValue(db, "SELECT count(*) FROM samples WHERE NOT warmup");
                long newOrders = longValue(db, "SELECT count(*) FROM samples WHERE NOT warmup"
                        + " AND op IN ('new_order', 'new_order_rollback')");
                long payments = longValue(db, "SELECT count(*) FROM samples WHERE NOT warmup AND op = 'payment'");
                assertThat(measured).as("transactions measured").isGreaterThan(500);
                // each share within six standard deviations of the mix's
                assertThat((double) newOrders).isCloseTo(0.45 * measured, org.assertj.core.data.Offset.offset(
                        6 * Math.sqrt(measured * 0.45 * 0.55)));
                assertThat((double) payments).isCloseTo(0.43 * measured, org.assertj.core.data.Offset.offset(
                        6 * Math.sqrt(measured * 0.43 * 0.57)));
            }
        } finally {
            RunFailuresIntegrationTest.execute(PasswordEnvTarget.args("cleanup", target));
        }
    }
}
