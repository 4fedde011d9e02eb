package io.tailstream.reporter.report;

import java.util.List;

/**
 * Everything a report shows, computed from the archive; the templates and the json/csv/md writers only lay it
 * out, so every format carries the same numbers. Immutable. Times are epoch milliseconds, latencies milliseconds
 * (from µs), rates per second, costs in the target's currency per month.
 *
 * @param title         what the report covers: plan (run id), or the plans of several runs
 * @param generatedAtMs when the model was built
 * @param baseline      target the deltas are relative to, or null
 * @param runs          the runs covered, oldest first
 * @param verdicts      per workload: best on throughput, on P99 and on cost per QPS, or why there is none
 * @param environment   targets side by side
 * @param workloads     one section per workload: summary table with deltas, sweep, cost
 * @param charts        one time series per step, in run and step order (down-sampled for display)
 * @param scaleOut      1 vs N node throughput, where a product was measured with different node counts
 * @param checklist     methodology checks, each passed or flagged from the data
 * @param steps         what was run, step by step, to reproduce it
 * @param stalls        stalls from the {@code stalls} dataset (empty when the archive has none)
 * @param soak          long-run figures of steps measured for at least {@link ReportAnalysis#SOAK_MIN_MS}
 * @param notes         data problems the reader should know about (e.g. an unreadable optional dataset)
 * @param figureNotes   how the figures were computed where the archive forced a fallback (e.g. steps without
 *                      recorded measurement boundaries), localizable
 * @param stallDetection per step, in step order: whether the aggregator's stall detector ran and what it found
 * @param history       the archive's other runs of the plans reported, or null when it has none
 */
public record ReportModel(String title, long generatedAtMs, String baseline, List<RunInfo> runs,
                          List<Verdict> verdicts, Environment environment, List<WorkloadSummary> workloads,
                          List<StepSeries> charts, List<ScaleOutRow> scaleOut, List<Check> checklist,
                          List<StepInfo> steps, List<Stall> stalls, List<Soak> soak, List<String> notes,
                          List<Text> figureNotes, List<StallDetection> stallDetection, History history) {

    public ReportModel {
        runs = List.copyOf(runs);
        verdicts = List.copyOf(verdicts);
        workloads = List.copyOf(workloads);
        charts = List.copyOf(charts);
        scaleOut = List.copyOf(scaleOut);
        checklist = List.copyOf(checklist);
        steps = List.copyOf(steps);
        stalls = List.copyOf(stalls);
        soak = List.copyOf(soak);
        notes = List.copyOf(notes);
        figureNotes = List.copyOf(figureNotes);
        stallDetection = List.copyOf(stallDetection);
    }

    /** A model without figure notes or stall-detection status. */
    public ReportModel(String title, long generatedAtMs, String baseline, List<RunInfo> runs, List<Verdict> verdicts,
                       Environment environment, List<WorkloadSummary> workloads, List<StepSeries> charts,
                       List<ScaleOutRow> scaleOut, List<Check> checklist, List<StepInfo> steps, List<Stall> stalls,
                       List<Soak> soak, List<String> notes) {
        this(title, generatedAtMs, baseline, runs, verdicts, environment, workloads, charts, scaleOut, checklist,
                steps, stalls, soak, notes, List.of(), List.of(), null);
    }

    /**
     * The runs of the reported plans in the archive, the reported ones among them: more than those, so a trend
     * ({@code tailstream trend}, and the page the HTML report links) shows how the figures moved from run to run.
     *
     * @param plans the plans of the reported runs
     * @param runs  runs of those plans in the archive
     */
    public record History(List<String> plans, int runs) {
        public History {
            plans = List.copyOf(plans);
        }
    }

    /**
     * How many comparisons have a verdict.
     *
     * @param comparisons verdicts with two or more candidates (status other than na)
     * @param decided     of those, the ones with a winner (win, tie, indicative)
     * @param none        the ones without (status none), in report order
     * @param waived      verdicts where the plan waived a check that would have failed
     */
    public record VerdictSummary(int comparisons, int decided, List<Verdict> none, List<Verdict> waived) {
        public VerdictSummary {
            none = List.copyOf(none);
            waived = List.copyOf(waived);
        }
    }

    /** The verdict counts for the top of the report. */
    public VerdictSummary verdictSummary() {
        List<Verdict> compared = verdicts.stream().filter(Verdict::comparison).toList();
        return new VerdictSummary(compared.size(), (int) compared.stream().filter(Verdict::decided).count(),
                compared.stream().filter(v -> v.status().equals(Verdict.NONE)).toList(),
                compared.stream().filter(v -> !v.waived().isEmpty()).toList());
    }
}
