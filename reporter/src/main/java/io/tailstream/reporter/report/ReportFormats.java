package io.tailstream.reporter.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tailstream.reporter.output.Csv;
import io.tailstream.reporter.report.ReportModel.Check;
import io.tailstream.reporter.report.ReportModel.Cost;
import io.tailstream.reporter.report.ReportModel.ScaleOut;
import io.tailstream.reporter.report.ReportModel.SummaryRow;
import io.tailstream.reporter.report.ReportModel.Text;
import io.tailstream.reporter.report.ReportModel.Verdict;
import io.tailstream.reporter.report.ReportModel.WorkloadSummary;
import io.tailstream.schemas.event.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report as summaries for scripts and wikis: {@code json} (every table figure, full precision), {@code csv}
 * (one line per workload, target and concurrency) and {@code md} (verdicts, summary tables, cost, checklist).
 * They carry the same numbers as the HTML page because all read the same {@link ReportModel}. Stateless and
 * thread safe.
 */
final class ReportFormats {

    /** CSV columns, in order. */
    public static final List<String> CSV_COLUMNS = List.of("workload", "target", "threads", "rounds", "transactions",
            "measured_s", "qps", "tps", "avg_ms", "p95_ms", "p99_ms", "max_ms", "errors", "error_pct", "ral_ms",
            "wal_ms", "qps_spread", "p99_spread_ms", "baseline", "qps_delta_pct", "tps_delta_pct", "avg_delta_pct",
            "p95_delta_pct", "p99_delta_pct", "monthly_cost", "currency", "cost_per_1000_qps", "p999_ms",
            "p9999_ms", "errors_per_s", "errors_by_class", "failed_avg_ms", "failed_p99_ms", "failed_max_ms",
            "slowest_0_1pct_share_pct", "heavy_tail", "error_limit_exceeded", "exact_span", "outcome", "steps",
            "throughput_verdict", "throughput_best", "p99_verdict", "p99_best", "cost_verdict", "cost_best",
            "verdict_reasons");

    private ReportFormats() {}

    public static String render(ReportModel model, ReportFormat format, Locale locale) {
        return switch (format) {
            case HTML -> ReportGenerator.render(model, locale);
            case JSON -> json(model, locale);
            case CSV -> csv(model, locale);
            case MD -> markdown(model, locale);
        };
    }

    static String json(ReportModel model, Locale locale) {
        Messages msg = Messages.of(locale);
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("title", model.title());
        root.put("generatedAtMs", model.generatedAtMs());
        root.put("baseline", model.baseline());
        root.set("runs", Json.MAPPER.valueToTree(model.runs()));
        ReportModel.VerdictSummary summary = model.verdictSummary();
        ObjectNode vs = root.putObject("verdictSummary");
        vs.put("comparisons", summary.comparisons());
        vs.put("decided", summary.decided());
        vs.put("none", summary.none().size());
        vs.put("text", verdictSummaryText(summary, msg));
        ArrayNode verdicts = root.putArray("verdicts");
        for (Verdict v : model.verdicts()) {
            ObjectNode n = Json.MAPPER.valueToTree(v);
            n.put("tie", v.tie());
            n.put("indicative", v.indicative());
            n.put("marginPct", v.marginPct());
            n.put("spread", v.spread()); // null: unknown (a side measured in one round), never 0
            n.set("reasons", reasons(v.reasons(), msg));
            n.set("waived", reasons(v.waived(), msg));
            verdicts.add(n);
        }
        root.set("environment", Json.MAPPER.valueToTree(model.environment()));
        ArrayNode workloads = root.putArray("workloads");
        for (WorkloadSummary w : model.workloads()) {
            ObjectNode n = workloads.addObject();
            n.put("workload", w.workload());
            n.put("atThreads", w.atThreads());
            n.put("ralWal", w.ralWal());
            ArrayNode rows = n.putArray("rows");
            w.rows().forEach(r -> rows.add(jsonRow(r, msg)));
            ArrayNode incomplete = n.putArray("incomplete");
            w.incomplete().forEach(r -> incomplete.add(jsonRow(r, msg)));
            n.set("threadLevels", Json.MAPPER.valueToTree(w.threadLevels()));
            n.set("sweep", Json.MAPPER.valueToTree(w.sweep()));
            n.set("costs", Json.MAPPER.valueToTree(w.costs()));
        }
        root.set("scaleOut", Json.MAPPER.valueToTree(model.scaleOut()));
        ArrayNode checks = root.putArray("checklist");
        for (Check c : model.checklist()) {
            ObjectNode n = checks.addObject();
            n.put("id", c.id());
            n.put("title", msg.get("check." + c.id()));
            n.put("status", c.status());
            ArrayNode f = n.putArray("findings");
            c.findings().forEach(t -> f.add(msg.format(t)));
        }
        root.set("stalls", Json.MAPPER.valueToTree(model.stalls()));
        root.set("soak", Json.MAPPER.valueToTree(model.soak()));
        root.set("steps", Json.MAPPER.valueToTree(model.steps()));
        root.set("notes", Json.MAPPER.valueToTree(model.notes()));
        ArrayNode figureNotes = root.putArray("figureNotes");
        model.figureNotes().forEach(t -> figureNotes.add(msg.format(t)));
        root.set("stallDetection", Json.MAPPER.valueToTree(model.stallDetection()));
        try {
            return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("writing the report as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** A summary row with its derived figures: error share, spreads, heavy-tail reasons, error-limit flag. */
    private static ObjectNode jsonRow(SummaryRow r, Messages msg) {
        ObjectNode rn = Json.MAPPER.valueToTree(r);
        rn.put("errorPct", r.errorPct());
        rn.put("qpsSpread", r.qpsSpread());
        rn.put("p99SpreadMs", r.p99SpreadMs());
        rn.put("errorLimitExceeded", r.errorLimitExceeded());
        ArrayNode tail = rn.putArray("heavyTail");
        r.heavyTail().forEach(t -> tail.add(msg.format(t)));
        return rn;
    }

    /** Reasons as {check, key, args, text}: the check id for scripts, the sentence for people. */
    private static ArrayNode reasons(List<ReportModel.Reason> reasons, Messages msg) {
        ArrayNode a = Json.MAPPER.createArrayNode();
        for (ReportModel.Reason r : reasons) {
            ObjectNode n = a.addObject();
            n.put("check", r.check());
            n.put("key", r.text().key());
            n.set("args", Json.MAPPER.valueToTree(r.text().args()));
            n.put("text", msg.format(r.text()));
        }
        return a;
    }

    /** "3 of 6 comparisons have a verdict; 3 have none: w · Peak throughput (client-bound), ...". */
    static String verdictSummaryText(ReportModel.VerdictSummary s, Messages msg) {
        if (s.comparisons() == 0) {
            return msg.get("verdict.summary.noComparisons");
        }
        StringBuilder b = new StringBuilder(msg.format(Text.of("verdict.summary", s.decided(), s.comparisons())));
        if (!s.none().isEmpty()) {
            b.append(msg.format(Text.of("verdict.summary.none", s.none().size()))).append(' ');
            b.append(String.join("; ", s.none().stream().map(v -> v.workload() + " · "
                    + msg.get("verdict.metric." + v.metric()) + " (" + String.join(", ", v.failedChecks().stream()
                    .map(c -> msg.get("verdict.check." + c)).toList()) + ")").toList()));
        }
        return b.toString();
    }

    /** The waived checks line, or null when no comparison had one. */
    static String verdictWaivedText(ReportModel.VerdictSummary s, Messages msg) {
        if (s.waived().isEmpty()) {
            return null;
        }
        return msg.format(Text.of("verdict.summary.waived", s.waived().size())) + " " + String.join("; ",
                s.waived().stream().map(v -> v.workload() + " · " + msg.get("verdict.metric." + v.metric()) + " ("
                        + String.join(", ", v.waivedChecks().stream().map(c -> msg.get("verdict.check." + c))
                        .toList()) + ")").toList());
    }

    static String csv(ReportModel model, Locale locale) {
        Messages msg = Messages.of(locale);
        StringBuilder b = new StringBuilder(Csv.record(CSV_COLUMNS));
        for (WorkloadSummary w : model.workloads()) {
            List<Verdict> verdicts = model.verdicts().stream().filter(v -> v.workload().equals(w.workload())).toList();
            String reasons = csvReasons(verdicts, msg);
            for (SummaryRow r : concat(w.rows(), w.incomplete())) {
                Cost c = w.costs().stream().filter(x -> x.target().equals(r.target())).findFirst().orElse(null);
                List<Object> v = new ArrayList<>(List.of(r.workload(), r.target(), r.threads(), r.rounds(),
                        r.transactions(), r.measuredSeconds(), r.qps(), r.tps(), r.avgMs(), r.p95Ms(), r.p99Ms(),
                        r.maxMs(), r.errors(), r.errorPct()));
                v.add(r.ralMs());
                v.add(r.walMs());
                v.add(r.qpsSpread());
                v.add(r.p99SpreadMs());
                v.add(r.delta() == null ? null : model.baseline());
                v.add(r.delta() == null ? null : r.delta().qpsPct());
                v.add(r.delta() == null ? null : r.delta().tpsPct());
                v.add(r.delta() == null ? null : r.delta().avgPct());
                v.add(r.delta() == null ? null : r.delta().p95Pct());
                v.add(r.delta() == null ? null : r.delta().p99Pct());
                v.add(c == null || !r.completed() ? null : c.monthlyCost());
                v.add(c == null || !r.completed() ? null : c.currency());
                v.add(c == null || r.qps() <= 0 || !r.completed() ? null : c.monthlyCost() / r.qps() * 1000);
                v.add(r.p999Ms());
                v.add(r.p9999Ms());
                v.add(r.errorsPerSecond());
                v.add(Json.writeString(r.errorsByClass()));
                v.add(r.failed() == null ? null : r.failed().avgMs());
                v.add(r.failed() == null ? null : r.failed().p99Ms());
                v.add(r.failed() == null ? null : r.failed().maxMs());
                v.add(r.slowestSharePct());
                v.add(!r.heavyTail().isEmpty());
                v.add(r.errorLimitExceeded());
                v.add(r.exactSpan());
                v.add(r.outcome());
                v.add(String.join(" ", r.steps()));
                for (String metric : ReportAnalysis.METRICS) {
                    Verdict verdict = verdicts.stream().filter(x -> x.metric().equals(metric)).findFirst()
                            .orElse(null);
                    v.add(verdict == null || !r.completed() ? null : verdict.status());
                    v.add(verdict == null || !verdict.decided() || !r.completed() ? null : best(verdict, r, w));
                }
                v.add(reasons.isEmpty() || !r.completed() ? null : reasons);
                b.append(Csv.record(v));
            }
        }
        return b.toString();
    }

    /** The cost table (at the peak, and at the compared concurrency when there is one), then the cost items. */
    private static void markdownCosts(StringBuilder b, WorkloadSummary w, Messages msg) {
        Integer at = w.atThreads();
        List<String> head = new ArrayList<>(List.of(msg.get("summary.target"), msg.get("cost.monthly"),
                msg.get("cost.peakQps"), msg.get("cost.per1000Qps"), msg.get("cost.qpsPer1000")));
        if (at != null) {
            head.addAll(List.of("QPS @ " + at, msg.get("cost.per1000Qps") + " @ " + at,
                    msg.get("cost.qpsPer1000") + " @ " + at));
        }
        b.append('\n').append(mdRow(head.toArray(String[]::new)));
        b.append(mdRow(head.stream().map(h -> h.equals(head.get(0)) ? "---" : "---:").toArray(String[]::new)));
        for (Cost c : w.costs()) {
            List<String> cells = new ArrayList<>(List.of(c.target(), num(c.monthlyCost()) + " " + c.currency(),
                    num(c.peakQps()) + " @" + c.peakThreads(), num(c.costPer1000Qps()),
                    num(c.qpsPer1000Currency())));
            if (at != null) {
                cells.add(c.atQps() == null ? "" : num(c.atQps()));
                cells.add(c.atCostPer1000Qps() == null ? "" : num(c.atCostPer1000Qps()));
                cells.add(c.atQpsPer1000Currency() == null ? "" : num(c.atQpsPer1000Currency()));
            }
            b.append(mdRow(cells.toArray(String[]::new)));
        }
        if (w.costs().stream().anyMatch(c -> !c.items().isEmpty())) {
            b.append('\n').append(md(msg.get("cost.items.note"))).append("\n\n");
            b.append(mdRow(msg.get("summary.target"), msg.get("cost.item"), msg.get("cost.amount"),
                    msg.get("cost.share")));
            b.append(mdRow("---", "---", "---:", "---:"));
            for (Cost c : w.costs()) {
                for (ReportModel.CostItem i : c.items()) {
                    b.append(mdRow(c.target(), i.name(), num(i.amount()) + " " + c.currency(),
                            String.format(Locale.ROOT, "%.1f%%", i.sharePct())));
                }
            }
        }
    }

    /**
     * True when the row carries a best figure of the verdict: the winner's (or a tied target's) peak row for
     * throughput and cost, its row at the compared concurrency for P99.
     */
    private static boolean best(Verdict v, SummaryRow r, WorkloadSummary w) {
        if (!r.target().equals(v.winner()) && !v.tiedWith().contains(r.target())) {
            return false;
        }
        if (v.metric().equals("p99")) {
            return v.threads() != null && r.threads() == v.threads();
        }
        List<SummaryRow> mine = w.rows().stream().filter(x -> x.target().equals(r.target())).toList();
        return ReportAnalysis.peak(mine).threads() == r.threads();
    }

    /** A verdict's reasons, then its waived checks, as sentences. */
    private static List<String> reasonTexts(Verdict v, Messages msg) {
        List<String> why = new ArrayList<>();
        v.reasons().forEach(r -> why.add(msg.format(r.text())));
        v.waived().forEach(r -> why.add(msg.get("verdict.waived") + ": " + msg.format(r.text())));
        return why;
    }

    /** "metric: sentence | ...; metric: ..." for a workload's verdicts without a verdict or with waivers. */
    private static String csvReasons(List<Verdict> verdicts, Messages msg) {
        List<String> parts = new ArrayList<>();
        for (Verdict v : verdicts) {
            List<String> why = reasonTexts(v, msg);
            if (!why.isEmpty()) {
                parts.add(v.metric() + ": " + String.join(" | ", why));
            }
        }
        return String.join("; ", parts);
    }

    private static List<SummaryRow> concat(List<SummaryRow> a, List<SummaryRow> b) {
        List<SummaryRow> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    static String markdown(ReportModel model, Locale locale) {
        Messages msg = Messages.of(locale);
        StringBuilder b = new StringBuilder();
        b.append("# ").append(msg.get("report.title")).append(": ").append(md(model.title())).append("\n\n");
        b.append("## ").append(msg.get("verdict.title")).append("\n\n");
        ReportModel.VerdictSummary summary = model.verdictSummary();
        b.append("**").append(md(verdictSummaryText(summary, msg))).append("**\n\n");
        String waived = verdictWaivedText(summary, msg);
        if (waived != null) {
            b.append(md(waived)).append("\n\n");
        }
        b.append(mdRow(msg.get("verdict.workload"), msg.get("verdict.metric"), msg.get("verdict.result"),
                msg.get("verdict.best"), msg.get("verdict.value"), msg.get("verdict.runnerUp"),
                msg.get("verdict.margin"), msg.get("verdict.spread"), msg.get("verdict.reasons")));
        b.append(mdRow("---", "---", "---", "---", "---:", "---", "---:", "---:", "---"));
        for (Verdict v : model.verdicts()) {
            String result = msg.get("verdict.status." + v.status())
                    + (v.tie() ? ": " + String.join(", ", v.tiedWith()) : "");
            List<String> why = reasonTexts(v, msg);
            b.append(mdRow(v.workload(), msg.get("verdict.metric." + v.metric())
                            + (v.threads() == null ? "" : " @" + v.threads()), result, v.winner(),
                    v.value() == null ? "" : v.metric().equals("p99") ? ms(v.value()) + " ms"
                            : v.metric().equals("cost") ? num(v.value()) + " " + v.unit() + "/1k QPS"
                            : num(v.value()) + " QPS", v.runnerUp(),
                    v.marginPct() == null ? "" : pct(v.marginPct()),
                    !v.decided() ? "" : v.spread() == null ? "—"
                            : v.metric().equals("p99") ? ms(v.spread()) : num(v.spread()),
                    String.join("<br>", why)));
        }
        for (WorkloadSummary w : model.workloads()) {
            b.append("\n## ").append(md(w.workload())).append("\n\n");
            List<String> head = new ArrayList<>(List.of(msg.get("summary.target"), msg.get("summary.threads"),
                    msg.get("summary.rounds"), msg.get("summary.qps"), msg.get("summary.tps"), msg.get("summary.avg"),
                    msg.get("summary.p95"), msg.get("summary.p99"), msg.get("summary.p999"),
                    msg.get("summary.p9999"), msg.get("summary.max"), msg.get("summary.errorsPerSecond"),
                    msg.get("summary.errors")));
            if (w.ralWal()) {
                head.add(msg.get("summary.ral"));
                head.add(msg.get("summary.wal"));
            }
            if (model.baseline() != null) {
                head.add(msg.get("summary.qpsDelta"));
                head.add(msg.get("summary.p99Delta"));
            }
            b.append(mdRow(head.toArray(String[]::new)));
            b.append(mdRow(head.stream().map(h -> h.equals(head.get(0)) ? "---" : "---:").toArray(String[]::new)));
            for (SummaryRow r : concat(w.rows(), w.incomplete())) {
                String label = r.target() + (r.completed() ? "" : " (" + r.outcome() + ")")
                        + (r.heavyTail().isEmpty() ? "" : " [" + msg.get("tail.badge") + "]")
                        + (r.errorLimitExceeded() ? " [" + msg.get("summary.errorLimitBadge") + "]" : "");
                List<String> cells = new ArrayList<>(List.of(label, String.valueOf(r.threads()),
                        String.valueOf(r.rounds()), num(r.qps()), num(r.tps()), ms(r.avgMs()), ms(r.p95Ms()),
                        ms(r.p99Ms()), ms(r.p999Ms()), ms(r.p9999Ms()), ms(r.maxMs()), num(r.errorsPerSecond()),
                        r.errors() == 0 ? "0" : r.errors() + String.format(Locale.ROOT, " (%.2f%%)", r.errorPct())));
                if (w.ralWal()) {
                    cells.add(r.ralMs() == null ? "" : ms(r.ralMs()));
                    cells.add(r.walMs() == null ? "" : ms(r.walMs()));
                }
                if (model.baseline() != null) {
                    cells.add(r.delta() == null || r.delta().qpsPct() == null ? "" : pct(r.delta().qpsPct()));
                    cells.add(r.delta() == null || r.delta().p99Pct() == null ? "" : pct(r.delta().p99Pct()));
                }
                b.append(mdRow(cells.toArray(String[]::new)));
            }
            for (SummaryRow r : concat(w.rows(), w.incomplete())) {
                for (Text t : r.heavyTail()) {
                    b.append("\n- ").append(md(r.target() + " · " + r.threads() + ": " + msg.get("tail.badge")
                            + ": " + msg.format(t)));
                }
            }
            if (!w.costs().isEmpty()) {
                markdownCosts(b, w, msg);
            }
        }
        if (!model.scaleOut().isEmpty()) {
            b.append("\n## ").append(msg.get("scale.title")).append("\n\n");
            b.append(mdRow(msg.get("verdict.workload"), msg.get("scale.single"), msg.get("scale.multi"),
                    msg.get("scale.ratio")));
            b.append(mdRow("---", "---:", "---:", "---:"));
            for (ScaleOut s : model.scaleOut()) {
                b.append(mdRow(s.workload(), s.singleTarget() + ": " + num(s.singleQps()), s.multiTarget() + " ("
                        + s.nodes() + "): " + num(s.multiQps()), String.format(Locale.ROOT, "%.2f", s.ratio())));
            }
        }
        if (!model.figureNotes().isEmpty()) {
            b.append('\n');
            model.figureNotes().forEach(t -> b.append("- ").append(md(msg.format(t))).append('\n'));
        }
        if (!model.stallDetection().isEmpty()) {
            b.append("\n## ").append(msg.get("stalls.title")).append("\n\n");
            long ran = model.stallDetection().stream().filter(ReportModel.StallDetection::detectionRan).count();
            b.append(md(msg.get("stalls.detection.summary").replace("{0}", String.valueOf(ran))
                    .replace("{1}", String.valueOf(model.stallDetection().size())))).append("\n\n");
            for (ReportModel.StallDetection d : model.stallDetection()) {
                String status = !d.detectionRan() ? msg.get("stalls.detection.notRun") : d.stalls() > 0
                        ? msg.get("stalls.detection.found").replace("{0}", String.valueOf(d.stalls()))
                        : msg.get("stalls.detection.none");
                b.append("- ").append(md(msg.get("charts.step") + " " + d.stepId() + " (" + d.target() + " · "
                        + d.workload() + " · " + d.threads() + " " + msg.get("charts.threads") + " · "
                        + msg.get("charts.round") + " " + d.round() + "): " + status)).append('\n');
            }
        }
        b.append("\n## ").append(msg.get("check.title")).append("\n\n");
        for (Check c : model.checklist()) {
            b.append("- **").append(msg.get("check.status." + c.status())).append("** ")
                    .append(msg.get("check." + c.id()));
            for (Text t : c.findings()) {
                b.append("\n  - ").append(md(msg.format(t)));
            }
            b.append('\n');
        }
        return b.toString();
    }

    private static String mdRow(String... cells) {
        StringBuilder b = new StringBuilder("|");
        for (String c : cells) {
            b.append(' ').append(c == null ? "" : md(c)).append(" |");
        }
        return b.append('\n').toString();
    }

    /** Markdown table cell text: pipes escaped, no line breaks. */
    private static String md(String s) {
        return s.replace("|", "\\|").replace("\n", " ").replace("\r", " ");
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%,.1f", v);
    }

    private static String ms(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    private static String pct(double v) {
        return String.format(Locale.ROOT, "%+.1f%%", v);
    }
}
