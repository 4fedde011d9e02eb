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
 * the kinds come in the standard mix, and the report's TPC-C figures are the archive's.
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
                    target, new String[] {"--threads", "4", "--warmup", "1s", "--duration", "10m", "--transactions",
                            "1200", "--report-interval", "0", "--out", out.toString()}));
            assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
            Matcher counts = Pattern.compile("samples: ([\\d,]+) sent = ([\\d,]+) aggregated = ([\\d,]+) archived")
                    .matcher(run.out());
            assertThat(counts.find()).as(run.out()).isTrue();
            long sent = Long.parseLong(counts.group(1).replace(",", ""));
            assertThat(counts.group(3)).isEqualTo(counts.group(1));
            try (ArchiveDatabase db = ArchiveDatabase.open(out.resolve("archive"))) {
                assertThat(longValue(db, "SELECT count(*) FROM samples")).isEqualTo(sent);
                assertThat(longValue(db, "SELECT count(*) FROM samples WHERE op NOT IN ('new_order', 'payment',"
                        + " 'order_status', 'delivery', 'stock_level', 'new_order_rollback', 'delivery_skipped')"))
                        .isZero();
                // each transaction's own statements, BEGIN and COMMIT included: Stock-Level 4, Delivery up to 72
                assertThat(longValue(db, "SELECT count(*) FROM samples WHERE status = 'ok'"
                        + " AND queries NOT BETWEEN 4 AND 72")).isZero();
                assertThat(longValue(db, "SELECT min(queries) FROM samples WHERE op = 'stock_level'"
                        + " AND status = 'ok'")).isEqualTo(4);
                long measured = longValue(db, "SELECT count(*) FROM samples WHERE NOT warmup");
                // a count, not a time: the shares' checks below need enough transactions on any machine
                assertThat(measured).as("transactions measured").isEqualTo(1200);
                // each terminal deals its types from decks of 100 cards holding the mix exactly; the measured
                // transactions of a terminal run from inside one deck to inside another, so a type of c cards differs
                // from its share by at most c (1 - c/100) at each end: 4 terminals, 8 c (1 - c/100) in all
                String[][] types = {{"'new_order', 'new_order_rollback'", "45"}, {"'payment'", "43"},
                        {"'order_status'", "4"}, {"'delivery', 'delivery_skipped'", "4"},
                        {"'stock_level'", "4"}};
                for (String[] type : types) {
                    double cards = Double.parseDouble(type[1]);
                    long n = longValue(db, "SELECT count(*) FROM samples WHERE NOT warmup AND op IN (" + type[0]
                            + ")");
                    assertThat((double) n).as(type[0]).isCloseTo(cards / 100 * measured,
                            org.assertj.core.data.Offset.offset(8 * cards * (1 - cards / 100)));
                }
                // 1% of New-Orders roll back on their unused item: binomial, within six standard deviations
                long newOrders = longValue(db, "SELECT count(*) FROM samples WHERE status = 'ok'"
                        + " AND op IN ('new_order', 'new_order_rollback')");
                long rolledBack = longValue(db, "SELECT count(*) FROM samples WHERE status = 'ok'"
                        + " AND op = 'new_order_rollback'");
                assertThat((double) rolledBack).isCloseTo(0.01 * newOrders,
                        org.assertj.core.data.Offset.offset(6 * Math.sqrt(newOrders * 0.01 * 0.99)));
                // the report's tpmC: New-Orders completed (rolled back ones included) per minute of the measurement
                long completedNewOrders = longValue(db, "SELECT count(*) FROM samples WHERE NOT warmup"
                        + " AND status = 'ok' AND op IN ('new_order', 'new_order_rollback')");
                long spanUs = longValue(db, "SELECT sum(measure_end_us - measure_start_us) FROM steps");
                String html = java.nio.file.Files.readString(out.resolve("report.html"));
                Matcher tpmC = Pattern.compile("data-key=\"tpmc\" data-value=\"([^\"]+)\"").matcher(html);
                assertThat(tpmC.find()).as("the report's TPC-C table").isTrue();
                assertThat(Double.parseDouble(tpmC.group(1))).isCloseTo(completedNewOrders * 60e6 / spanUs,
                        org.assertj.core.data.Offset.offset(1e-6));
                // after the step the producer checked the consistency conditions on the database: they hold
                assertThat(run.out()).contains("data checked in").contains("consistency_4 holds")
                        .doesNotContain("BROKEN");
                assertThat(longValue(db, "SELECT count(*) FROM control WHERE type = 'data_checked'"
                        + " AND json_extract_string(event, '$.checks[3].name') = 'consistency_4'"
                        + " AND NOT json_extract(event, '$.checks[*].held')::VARCHAR LIKE '%false%'")).isEqualTo(1);
                assertThat(html).contains("data-key=\"consistency\" data-value=\"held\"");
            }
        } finally {
            RunFailuresIntegrationTest.execute(PasswordEnvTarget.args("cleanup", target));
        }
    }
}
