package io.tailstream.reporter.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.reporter.TestArchives;
import io.tailstream.reporter.report.VerdictFixture.Step;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.RunSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An archive written before settings were typed keeps the version-1 settings (strings by key) in
 * {@code runs.settings}: its report is the same as that of the same run archived now. The plan's client CPU limit
 * (40 %, which one step's 45 % load-generator CPU passes although its producer did not flag it at 50 %) and its
 * {@code accept} (isolation waived, an unknown name noted) are what the report reads from them.
 */
class Version1SettingsReportTest {

    /** A version-1 producer's settings, as it wrote them. */
    static final Map<String, String> V1 = Map.of("threads", "[4]", "rounds", "2", "warmupMs", "1000",
            "measureMs", "2000", "plateau", "minGainPct=5.0, patience=1", "clientCpuLimitPct", "40.0",
            "accept", "[isolation, nonsense]", "loop", "closed", "target.mariadb.password", "***",
            "target.mariadb.url", "jdbc:x://mariadb/sbtest");

    @TempDir
    Path dir;

    @Test
    void version1SettingsInTheArchive_giveTheSameReport() throws Exception {
        List<Step> steps = VerdictReportTest.twoRounds(VerdictReportTest.MARIADB, VerdictReportTest.POSTGRES);
        steps = List.of(steps.get(0).cpu(45.0, 60.0), steps.get(1), steps.get(2), steps.get(3));
        Path now = dir.resolve("now");
        TestArchives.write(now, new VerdictFixture("run-1", V1, steps, 1_767_000_000_000L).records);
        String archived = settingsColumn(now);
        assertThat(Json.read(archived, RunSettings.class)).isEqualTo(RunSettings.fromVersion1(V1));
        assertThat(archived).startsWith("{\"version\":1,").doesNotContain("password");

        Path old = dir.resolve("old");
        TestArchives.write(old, new VerdictFixture("run-1", V1, steps, 1_767_000_000_000L).records);
        // what the archiver wrote before: the strings by key, sorted
        String v1 = Json.writeString(new TreeMap<>(V1));
        ReportGeneratorTest.rewrite(old, "runs.parquet", "REPLACE ('" + v1.replace("'", "''") + "' AS settings)");
        assertThat(settingsColumn(old)).isEqualTo(v1);

        ReportModel current = ReportGenerator.load(now, ReportOptions.allRuns());
        ReportModel older = ReportGenerator.load(old, ReportOptions.allRuns());
        assertThat(older).usingRecursiveComparison().ignoringFields("generatedAtMs", "runs.settings")
                .isEqualTo(current);
        assertThat(older.runs()).extracting(RunInfo::settings).containsExactly(v1);

        // what the settings decide: the 40 % limit makes a step client-bound, isolation is waived, "nonsense" noted
        for (ReportModel m : List.of(current, older)) {
            Verdict throughput = VerdictReportTest.byMetric(m).get("throughput");
            assertThat(throughput.status()).isEqualTo("none");
            assertThat(throughput.failedChecks()).containsExactly("clientBound");
            assertThat(throughput.waivedChecks()).containsExactly("isolation");
            assertThat(m.notes()).anySatisfy(n -> assertThat(n).contains("[nonsense]"));
        }
    }

    private static String settingsColumn(Path archive) throws Exception {
        List<List<Object>> rows = TestArchives.rows(archive, "SELECT settings FROM runs");
        assertThat(rows).hasSize(1);
        return (String) rows.get(0).get(0);
    }
}
