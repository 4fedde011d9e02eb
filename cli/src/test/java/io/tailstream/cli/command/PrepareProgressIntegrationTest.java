package io.tailstream.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.producer.WorkloadData;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.time.Clock;
import io.tailstream.producer.workload.WorkloadSpec;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PrepareProgressIntegrationTest {

    /** A clock the test moves. */
    static final class FakeClock implements Clock {
        long nanos = 1_000_000_000L;

        void advanceSeconds(double s) {
            nanos += (long) (s * 1e9);
        }

        @Override
        public long nanoTime() {
            return nanos;
        }

        @Override
        public long epochMicros() {
            return nanos / 1000;
        }
    }

    final FakeClock clock = new FakeClock();
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    String printed() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void render_showsRowsPercentRateAndEta_thenTheElapsedTimeAtTheEnd() {
        PrepareProgress p = new PrepareProgress(10_000, out, false, clock);
        assertThat(p.render(0, 0)).isEqualTo("[------------------------------]   0.0%  0/10,000 rows  0 rows/s  ETA --");
        assertThat(p.render(5_000, TimeUnit.SECONDS.toNanos(2))).isEqualTo(
                "[###############---------------]  50.0%  5,000/10,000 rows  2,500 rows/s  ETA 2s");
        assertThat(p.render(1_000, TimeUnit.SECONDS.toNanos(10))).isEqualTo(
                "[###---------------------------]  10.0%  1,000/10,000 rows  100 rows/s  ETA 1m30s");
        assertThat(p.render(10_000, TimeUnit.SECONDS.toNanos(4))).isEqualTo(
                "[##############################] 100.0%  10,000/10,000 rows  2,500 rows/s  in 4s");
    }

    @ParameterizedTest
    @CsvSource({"0.2, 1s", "59, 59s", "60, 1m00s", "65, 1m05s", "3599, 59m59s", "3600, 1h00m", "7380, 2h03m"})
    void duration_isShortAndRoundsUp(double seconds, String expected) {
        assertThat(PrepareProgress.duration(seconds)).isEqualTo(expected);
    }

    @Test
    void notATerminal_aPlainLineEveryFiveSeconds_andTheExactCountAtTheEnd() {
        PrepareProgress p = new PrepareProgress(1_000, out, false, clock);
        p.rowsLoaded(100);
        clock.advanceSeconds(1);
        p.tick();
        assertThat(printed()).isEmpty();
        clock.advanceSeconds(4);
        p.tick();
        assertThat(printed()).isEqualTo("[###---------------------------]  10.0%  100/1,000 rows  20 rows/s  ETA 45s\n");
        p.rowsLoaded(200);
        clock.advanceSeconds(2);
        p.tick();
        assertThat(printed().lines()).hasSize(1);
        clock.advanceSeconds(3);
        p.tick();
        assertThat(printed().lines()).hasSize(2).last().asString().startsWith("[#########------");
        p.rowsLoaded(700);
        p.close();
        assertThat(printed().lines()).hasSize(3).last().asString()
                .isEqualTo("[##############################] 100.0%  1,000/1,000 rows  100 rows/s  in 10s");
        assertThat(printed()).doesNotContain("\r");
    }

    @Test
    void terminal_redrawsOneLineInPlace_andMessagesGoAboveIt() {
        PrepareProgress p = new PrepareProgress(1_000, out, true, clock);
        clock.advanceSeconds(1);
        p.rowsLoaded(1_000 / 4);
        p.tick();
        assertThat(printed()).isEqualTo("\r[#######-----------------------]  25.0%  250/1,000 rows  250 rows/s  ETA 3s");
        int width = printed().length() - 1;
        bytes.reset();
        p.messages().println("Creating table 'sbtest2'...");
        String above = printed();
        assertThat(above).startsWith("\r" + " ".repeat(width) + "\rCreating table 'sbtest2'...\n\r[#######");
        bytes.reset();
        p.rowsLoaded(750);
        clock.advanceSeconds(1);
        p.close();
        assertThat(printed()).isEqualTo(
                "\r[##############################] 100.0%  1,000/1,000 rows  500 rows/s  in 2s\n");
    }

    @Test
    void realPrepares_countEveryRowExactly() {
        List<WorkloadSpec> workloads = List.of(
                new WorkloadSpec("oltp_read_write", Map.of("tables", "3", "table_size", "1234")),
                // the same sbtest tables: loaded once, counted once
                new WorkloadSpec("oltp_point_select", Map.of("tables", "3", "table_size", "1234")),
                new WorkloadSpec("ycsb_c", Map.of("recordcount", "777")),
                new WorkloadSpec("large_row_insert", Map.of("tables", "2", "rows_per_table", "15",
                        "value_bytes", "100")));
        long total = WorkloadData.rowsToLoad(workloads);
        assertThat(total).isEqualTo(3 * 1234 + 777 + 2 * 15);
        PrepareProgress p = new PrepareProgress(total, out, false, Clock.system()).start();
        try (p) {
            WorkloadData.prepare(Target.h2InMemory("h2", "progress"), workloads, 2,
                    new PrintStream(OutputStream.nullOutputStream()), p);
        }
        assertThat(p.rows()).isEqualTo(total);
        assertThat(printed().lines().reduce((a, b) -> b).orElseThrow())
                .contains("100.0%  4,509/4,509 rows");
    }
}
