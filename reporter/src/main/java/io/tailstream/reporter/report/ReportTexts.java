package io.tailstream.reporter.report;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * What the json, csv and md summaries say alike: the verdict count line, the waived-checks line, a verdict's reasons
 * as sentences, and the rows of a workload in the order they list them. Stateless and thread safe.
 */
final class ReportTexts {

    private ReportTexts() {}

    /** "3 of 6 comparisons have a verdict; 3 have none: w · Peak throughput (client-bound), ...". */
    static String verdictSummary(ReportModel.VerdictSummary s, Messages msg) {
        if (s.comparisons() == 0) {
            return msg.get("verdict.summary.noComparisons");
        }
        StringBuilder b = new StringBuilder(msg.format(Text.of("verdict.summary", s.decided(), s.comparisons())));
        if (!s.none().isEmpty()) {
            b.append(msg.format(Text.of("verdict.summary.none", s.none().size()))).append(' ');
            b.append(comparisons(s.none(), Verdict::failedChecks, msg));
        }
        return b.toString();
    }

    /** The waived checks line, or null when no comparison had one. */
    static String verdictWaived(ReportModel.VerdictSummary s, Messages msg) {
        if (s.waived().isEmpty()) {
            return null;
        }
        return msg.format(Text.of("verdict.summary.waived", s.waived().size())) + " "
                + comparisons(s.waived(), Verdict::waivedChecks, msg);
    }

    /** "w · Peak throughput (check, check); w · ..." for the verdicts, each with the checks {@code checks} names. */
    private static String comparisons(List<Verdict> verdicts, Function<Verdict, List<String>> checks, Messages msg) {
        return String.join("; ", verdicts.stream().map(v -> v.workload() + " · "
                + msg.get(v.metricKey()) + " (" + String.join(", ", checks.apply(v).stream()
                .map(c -> msg.get("verdict.check." + c)).toList()) + ")").toList());
    }

    /** A verdict's reasons, then its waived checks, as sentences. */
    static List<String> reasons(Verdict v, Messages msg) {
        List<String> why = new ArrayList<>();
        if (v.tieReason() != null) {
            why.add(msg.format(v.tieReason()));
        }
        v.reasons().forEach(r -> why.add(msg.format(r.text())));
        v.waived().forEach(r -> why.add(msg.get("verdict.waived") + ": " + msg.format(r.text())));
        return why;
    }

    /** A workload's summary rows, then the rows of its steps that did not complete. */
    static List<SummaryRow> rows(WorkloadSummary w) {
        List<SummaryRow> out = new ArrayList<>(w.rows());
        out.addAll(w.incomplete());
        return out;
    }
}
