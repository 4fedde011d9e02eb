package io.tailstream.reporter.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.reporter.SyntheticRun;
import io.tailstream.reporter.TestArchives;
import io.tailstream.schemas.Topics;
import io.tailstream.schemas.event.Json;
import io.tailstream.schemas.event.StallEvent;
import io.tailstream.schemas.event.StepSummary;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** "No stalls detected" only where the stall detector ran (a step summary is archived), else "did not run". */
class StallDetectionReportTest {

    @TempDir
    Path dir;

    static SyntheticRun run() {
        return new SyntheticRun("stalls", 3, List.of("p1"), List.of(
                new SyntheticRun.StepSpec("a", "oltp_point_select", 4, 1, 1, 500, 1000),
                new SyntheticRun.StepSpec("a", "oltp_point_select", 8, 1, 1, 500, 1000),
                new SyntheticRun.StepSpec("a", "oltp_point_select", 16, 1, 1, 500, 1000)), 200, 1,
                1_760_000_000_000L);
    }

    private static SyntheticRun.Rec summary(SyntheticRun run, int step) {
        StepSummary s = new StepSummary(run.runId, step, "*", 0, 1000, 10, 0, Map.of(), 10, 10.0, 10.0, 1.0, 1, 1,
                1, 1, 1, 1, 0, 0, 0.0, 0.0, false, 0, 0, null, 1);
        return new SyntheticRun.Rec(Topics.SUMMARIES, 0, s.key().getBytes(StandardCharsets.UTF_8), Json.write(s));
    }

    private static SyntheticRun.Rec stall(SyntheticRun run, int step) {
        StallEvent e = new StallEvent(run.runId, step, StallEvent.HARD, 1000, 3000, false, 100.0, 0.0, 10, 0,
                List.of("txn"), 3010);
        return new SyntheticRun.Rec(Topics.STALLS, 0, e.key().getBytes(StandardCharsets.UTF_8), Json.write(e));
    }

    @Test
    void detectionRanForSomeSteps_noStallsOnlyWhereItRan_didNotRunElsewhere() throws Exception {
        SyntheticRun run = run();
        List<SyntheticRun.Rec> records = new ArrayList<>(run.allRecords(1, 1));
        // step 1: summarized, no stall; step 2: summarized with a stall; step 3: no summary (detector did not run)
        records.add(summary(run, 1));
        records.add(summary(run, 2));
        records.add(stall(run, 2));
        Path archive = dir.resolve("archive");
        TestArchives.write(archive, records);
        ReportModel model = ReportGenerator.load(archive, ReportOptions.allRuns());
        assertThat(model.stallDetection()).extracting(StallDetection::stepId,
                StallDetection::detectionRan, StallDetection::stalls)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(1, true, 0),
                        org.assertj.core.groups.Tuple.tuple(2, true, 1),
                        org.assertj.core.groups.Tuple.tuple(3, false, 0));
        String html = ReportGenerator.render(model, Locale.ENGLISH);
        assertThat(html).contains("data-ran=\"2\" data-steps=\"3\"")
                .contains("<li data-stall-detection=\"stalls/1\" data-status=\"none\">")
                .contains("<li data-stall-detection=\"stalls/2\" data-status=\"found\">")
                .contains("<li data-stall-detection=\"stalls/3\" data-status=\"notRun\">");
        String step3 = html.substring(html.indexOf("data-stall-detection=\"stalls/3\""));
        step3 = step3.substring(0, step3.indexOf("</li>"));
        assertThat(step3).contains("stall detection did not run").doesNotContain("no stalls detected");
        String md = MarkdownReport.write(model, Locale.ENGLISH);
        assertThat(md).contains("Step 1 (a · oltp_point_select · 4 threads · round 1): no stalls detected")
                .contains("Step 2 (a · oltp_point_select · 8 threads · round 1): 1 stall(s)")
                .contains("Step 3 (a · oltp_point_select · 16 threads · round 1): stall detection did not run");
    }

    @Test
    void aWithdrawnStall_isNotReported_itsOpenRecordsNotEither() throws Exception {
        SyntheticRun run = run();
        List<SyntheticRun.Rec> records = new ArrayList<>(run.allRecords(1, 1));
        records.add(summary(run, 1));
        records.add(summary(run, 2));
        records.add(stall(run, 2));
        for (StallEvent e : List.of(
                new StallEvent(run.runId, 1, StallEvent.HARD, 5000, 6000, true, 100.0, 0.0, 10, 0, List.of(), 6010),
                new StallEvent(run.runId, 1, StallEvent.HARD, 5000, 7000, true, 100.0, 0.0, 10, 0, List.of(), 7010),
                new StallEvent(run.runId, 1, StallEvent.HARD, 5000, 5000, false, 100.0, 0.0, 10, 0, List.of(),
                        9000))) {
            records.add(new SyntheticRun.Rec(Topics.STALLS, 0, e.key().getBytes(StandardCharsets.UTF_8),
                    Json.write(e)));
        }
        Path archive = dir.resolve("archive");
        TestArchives.write(archive, records);
        ReportModel model = ReportGenerator.load(archive, ReportOptions.allRuns());
        assertThat(model.stallDetection()).extracting(StallDetection::stepId, StallDetection::stalls)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(1, 0),
                        org.assertj.core.groups.Tuple.tuple(2, 1),
                        org.assertj.core.groups.Tuple.tuple(3, 0));
    }

    @Test
    void archiveWithoutSummariesOrStalls_detectionDidNotRunAnywhere_neverNoStalls() throws Exception {
        Path archive = dir.resolve("archive");
        TestArchives.write(archive, run().allRecords(1, 1));
        ReportModel model = ReportGenerator.load(archive, ReportOptions.allRuns());
        assertThat(model.stalls()).isEmpty();
        assertThat(model.stallDetection()).hasSize(3).noneMatch(StallDetection::detectionRan);
        String html = ReportGenerator.render(model, Locale.ENGLISH);
        assertThat(html).contains("data-ran=\"0\" data-steps=\"3\"").doesNotContain("no stalls detected")
                .contains("stall detection did not run");
    }
}
