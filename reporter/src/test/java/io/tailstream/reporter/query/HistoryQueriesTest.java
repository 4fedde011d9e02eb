package io.tailstream.reporter.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tailstream.reporter.ExactFigures;
import io.tailstream.reporter.SyntheticRun;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** runs, compare and the exact step figures over an archive of four synthetic runs. */
class HistoryQueriesTest {

    @TempDir
    static Path archive;

    static SyntheticRun base;
    static SyntheticRun same;
    static SyntheticRun slower;
    static SyntheticRun faster;

    @BeforeAll
    static void writeArchive() {
        base = QueryFixtures.run("base", 1, 400, QueryFixtures.T0);
        same = QueryFixtures.run("same", 1, 400, QueryFixtures.T0 + 86_400_000L);
        slower = QueryFixtures.run("slower", 2, 200, QueryFixtures.T0 + 2 * 86_400_000L);
        faster = QueryFixtures.run("faster", 3, 800, QueryFixtures.T0 + 3 * 86_400_000L);
        QueryFixtures.archive(archive, base, same, slower, faster);
    }

    @Test
    void stepFigures_exactFromRawSamples() throws SQLException {
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            for (SyntheticRun run : List.of(base, slower)) {
                List<StepFigure> actual = StepFigureQuery.of(db, List.of(run.runId));
                List<ExactFigures.Expected> expected = QueryFixtures.expected(run);
                assertThat(actual).hasSize(2);
                for (int i = 0; i < 2; i++) {
                    StepFigure a = actual.get(i);
                    assertThat(a.runId()).isEqualTo(run.runId);
                    assertThat(a.rounds()).isEqualTo(1);
                    assertThat(a.completed()).isTrue();
                    assertThat(a.exactSpan()).isFalse();
                    assertFigure(a, expected.get(i));
                }
            }
        }
    }

    /**
     * Steps of a handful of samples, where the rank {@code ceil(p × n)} is an integer for some percentiles and not
     * for others, and where rounding p × n the wrong way picks a neighbour: every figure against the reference model.
     */
    @Test
    void stepFigures_smallSteps_nearestRankAtEveryCount(@TempDir Path dir) throws SQLException {
        List<SyntheticRun> runs = new java.util.ArrayList<>();
        for (int rate : new int[] {1, 2, 3, 5, 7, 10, 13, 20}) {
            runs.add(QueryFixtures.run("small-" + rate, rate, rate, QueryFixtures.T0 + rate * 86_400_000L));
        }
        QueryFixtures.archive(dir, runs.toArray(SyntheticRun[]::new));
        java.util.Set<Long> counts = new java.util.TreeSet<>();
        try (ArchiveDatabase db = ArchiveDatabase.open(dir)) {
            for (SyntheticRun run : runs) {
                List<StepFigure> actual = StepFigureQuery.of(db, List.of(run.runId));
                List<ExactFigures.Expected> expected = QueryFixtures.expected(run);
                assertThat(actual).hasSameSizeAs(expected);
                for (int i = 0; i < expected.size(); i++) {
                    assertFigure(actual.get(i), expected.get(i));
                    counts.add(actual.get(i).samples());
                }
            }
        }
        assertThat(counts).as("distinct step sizes covered").hasSizeGreaterThan(5);
    }

    /** Every figure of {@code a} against the reference model; rates and means within 1e-9, the rest exact. */
    static void assertFigure(StepFigure a, ExactFigures.Expected e) {
        assertThat(a.samples()).isEqualTo(e.samples());
        assertThat(a.errors()).isEqualTo(e.errors());
        assertThat(a.errorsByClass()).isEqualTo(e.errorsByClass());
        assertThat(a.queries()).isEqualTo(e.queries());
        assertThat(a.seconds()).isCloseTo(e.seconds(), within(1e-9 * e.seconds()));
        assertThat(a.qps()).isCloseTo(e.qps(), within(1e-9 * e.qps()));
        assertThat(a.tps()).isCloseTo(e.tps(), within(1e-9 * e.tps()));
        assertThat(a.errorsPerSecond()).isCloseTo(e.errorsPerSecond(), within(1e-9 * e.errorsPerSecond() + 1e-12));
        assertLatencies(a.ok(), e.ok(), true);
        assertLatencies(a.failed(), e.failed(), false);
    }

    static void assertLatencies(StepFigure.Latencies a, ExactFigures.Latencies e, boolean withShare) {
        if (e == null) {
            assertThat(a).isNull();
            return;
        }
        assertThat(a.count()).isEqualTo(e.count());
        assertThat(a.meanUs()).isCloseTo(e.meanUs(), within(1e-9 * e.meanUs()));
        assertThat(List.of(a.p50Us(), a.p95Us(), a.p99Us(), a.p999Us(), a.p9999Us(), a.maxUs()))
                .containsExactly(e.p50(), e.p95(), e.p99(), e.p999(), e.p9999(), e.max());
        assertThat(a.slowestCount()).isEqualTo(e.slowestCount());
        if (withShare && e.slowestSharePct() != null) {
            assertThat(a.slowestSharePct()).isCloseTo(e.slowestSharePct(), within(1e-9));
        } else if (withShare) {
            assertThat(a.slowestSharePct()).isNull();
        }
    }

    @Test
    void runs_listedWithFilters() throws SQLException {
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            assertThat(db.problems()).isEmpty();
            List<RunListing> all = RunCatalog.list(db, RunFilter.ALL);
            assertThat(all).extracting(RunListing::runId).containsExactly("base", "same", "slower", "faster");
            RunListing first = all.get(0);
            assertThat(first.planName()).isEqualTo("synthetic-plan");
            assertThat(first.startedAtMs()).isEqualTo(QueryFixtures.T0);
            assertThat(first.samplesSent()).isEqualTo(base.rows.size());
            assertThat(first.steps()).isEqualTo(2);
            assertThat(first.targets()).containsExactly("a", "b");
            assertThat(first.workloads()).containsExactly("oltp_point_select", "oltp_read_write");
            assertThat(first.outcome()).isEqualTo("completed");

            assertThat(RunCatalog.list(db, new RunFilter(null, null, null,
                    Instant.ofEpochMilli(QueryFixtures.T0 + 2 * 86_400_000L))))
                    .extracting(RunListing::runId).containsExactly("slower", "faster");
            assertThat(RunCatalog.list(db, new RunFilter("a", "oltp_read_write", "synthetic-plan", null)))
                    .hasSize(4);
            assertThat(RunCatalog.list(db, new RunFilter("c", null, null, null))).isEmpty();
            assertThat(RunCatalog.list(db, new RunFilter(null, "oltp_nope", null, null))).isEmpty();
            assertThat(RunCatalog.list(db, new RunFilter(null, null, "other-plan", null))).isEmpty();
        }
    }

    @Test
    void since_parsesDatesAndInstants() {
        assertThat(RunFilter.parseSince("2025-11-24")).isEqualTo(Instant.parse("2025-11-24T00:00:00Z"));
        assertThat(RunFilter.parseSince("2025-11-24T16:00:00Z")).isEqualTo(Instant.ofEpochMilli(QueryFixtures.T0));
        assertThatThrownBy(() -> RunFilter.parseSince("yesterday")).hasMessageContaining("'yesterday' is not a date");
    }

    @Test
    void compare_identicalRuns_sameEverywhere_noRegression() throws SQLException {
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            RunComparison.Result r = RunComparison.compare(db, "base", "same", 5);
            assertThat(r.rows()).hasSize(2).allSatisfy(row -> {
                assertThat(row.qpsDeltaPct()).isZero();
                assertThat(row.p99DeltaPct()).isZero();
                assertThat(row.verdict()).isEqualTo(RunComparison.Verdict.SAME);
            });
            assertThat(r.regressed()).isFalse();
            assertThat(r.baselineOnly()).isEmpty();
            assertThat(r.candidateOnly()).isEmpty();
        }
    }

    @Test
    void compare_halfTheThroughput_isARegression_doubleIsBetter() throws SQLException {
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            RunComparison.Result worse = RunComparison.compare(db, "base", "slower", 5);
            assertThat(worse.regressed()).isTrue();
            List<ExactFigures.Expected> b = QueryFixtures.expected(base);
            List<ExactFigures.Expected> s = QueryFixtures.expected(slower);
            for (int i = 0; i < 2; i++) {
                RunComparison.Row row = worse.rows().get(i);
                assertThat(row.verdict()).isEqualTo(RunComparison.Verdict.WORSE);
                double expectedQps = (s.get(i).qps() - b.get(i).qps()) / b.get(i).qps() * 100;
                assertThat(row.qpsDeltaPct()).isCloseTo(expectedQps, within(1e-6)).isLessThan(-40);
                double expectedP99 = (double) (s.get(i).ok().p99() - b.get(i).ok().p99()) / b.get(i).ok().p99() * 100;
                assertThat(row.p99DeltaPct()).isCloseTo(expectedP99, within(1e-9));
            }
            RunComparison.Result better = RunComparison.compare(db, "base", "faster", 5);
            assertThat(better.regressed()).isFalse();
            assertThat(better.rows()).allSatisfy(row -> assertThat(row.qpsDeltaPct()).isGreaterThan(80));
            // a threshold beyond the drop lets it pass
            assertThat(RunComparison.compare(db, "base", "slower", 1000).regressed()).isFalse();
        }
    }

    @Test
    void compare_unknownRun_listsWhatExists() throws SQLException {
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            assertThatThrownBy(() -> RunComparison.compare(db, "base", "nope", 5))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("run nope is not in the archive")
                    .hasMessageContaining("[base, same, slower, faster]");
            assertThatThrownBy(() -> RunComparison.compare(db, "base", "same", -1))
                    .hasMessageContaining("threshold must be a percentage >= 0");
        }
    }

    @Test
    void everyDocumentedView_isQueryable() throws SQLException {
        try (ArchiveDatabase db = ArchiveDatabase.open(archive); Statement st = db.connection().createStatement()) {
            assertThat(db.views()).containsExactly("samples", "blocks", "windows", "control", "steps", "runs",
                    "client_health", "server_counters", "stall_events", "stalls", "summary_events", "summaries",
                    "run_summary_events", "run_summaries");
            for (String view : db.views()) {
                try (ResultSet rs = st.executeQuery("SELECT count(DISTINCT run_id) FROM " + view)) {
                    rs.next();
                    // no run summaries in these runs: their views exist, empty
                    assertThat(rs.getLong(1)).as(view).isEqualTo(view.startsWith("run_summar") ? 0 : 4);
                }
            }
        }
    }
}
