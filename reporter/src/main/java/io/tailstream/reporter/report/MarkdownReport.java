package io.tailstream.reporter.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report as Markdown ({@code report --format md}) for wikis: the verdicts, per workload the summary table, its
 * heavy-tail notes and costs, scale-out, whether stall detection ran, the checklist. Figures are rounded for reading
 * (QPS to 0.1, milliseconds to 0.001). Stateless and thread safe.
 */
final class MarkdownReport {

    private MarkdownReport() {}

    static String write(ReportModel model, Locale locale) {
        Messages msg = Messages.of(locale);
        StringBuilder b = new StringBuilder();
        b.append("# ").append(msg.get("report.title")).append(": ").append(md(model.title())).append("\n\n");
        verdicts(b, model, msg);
        for (WorkloadSummary w : model.workloads()) {
            workload(b, w, model.baseline() != null, msg);
        }
        if (!model.scaleOut().isEmpty()) {
            scaleOut(b, model.scaleOut(), msg);
        }
        if (!model.figureNotes().isEmpty()) {
            b.append('\n');
            model.figureNotes().forEach(t -> b.append("- ").append(md(msg.format(t))).append('\n'));
        }
        if (!model.stallDetection().isEmpty()) {
            stallDetection(b, model.stallDetection(), msg);
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

    /** The verdict count line, the waived checks, then one table row per verdict. */
    private static void verdicts(StringBuilder b, ReportModel model, Messages msg) {
        b.append("## ").append(msg.get("verdict.title")).append("\n\n");
        ReportModel.VerdictSummary summary = model.verdictSummary();
        b.append("**").append(md(ReportTexts.verdictSummary(summary, msg))).append("**\n\n");
        String waived = ReportTexts.verdictWaived(summary, msg);
        if (waived != null) {
            b.append(md(waived)).append("\n\n");
        }
        b.append(mdRow(msg.get("verdict.workload"), msg.get("verdict.metric"), msg.get("verdict.result"),
                msg.get("verdict.best"), msg.get("verdict.value"), msg.get("verdict.runnerUp"),
                msg.get("verdict.margin"), msg.get("verdict.interval"), msg.get("verdict.noise"),
                msg.get("verdict.reasons")));
        b.append(mdRow("---", "---", "---", "---", "---:", "---", "---:", "---:", "---:", "---"));
        for (Verdict v : model.verdicts()) {
            String result = msg.get("verdict.status." + v.status())
                    + (v.tie() ? ": " + String.join(", ", v.tiedWith()) : "");
            List<String> why = ReportTexts.reasons(v, msg);
            b.append(mdRow(v.workload(), msg.get(v.metricKey())
                            + (v.threads() == null ? "" : " @" + v.threads()), result, v.winner(),
                    v.value() == null ? "" : v.metric().equals("p99") ? ms(v.value()) + " ms"
                            : v.metric().equals("cost") ? num(v.value()) + " " + v.unit() + "/1k "
                            + v.throughputUnit() : num(v.value()) + " " + v.throughputUnit(), v.runnerUp(),
                    v.marginPct() == null ? "" : pct(v.marginPct()),
                    !v.decided() ? "" : v.interval() == null || !v.interval().bounded() ? "—"
                            : pct(v.interval().lowPct()) + " … " + pct(v.interval().highPct()),
                    !v.decided() ? "" : v.noisePct() == null ? "—" : String.format(Locale.ROOT, "%.1f%%",
                            v.noisePct()),
                    String.join("<br>", why)));
        }
    }

    /** A workload's summary table (deltas when there is a baseline), its heavy-tail notes, then its costs. */
    private static void workload(StringBuilder b, WorkloadSummary w, boolean baseline, Messages msg) {
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
        if (baseline) {
            head.add(msg.get("summary.qpsDelta"));
            head.add(msg.get("summary.p99Delta"));
        }
        header(b, head);
        List<SummaryRow> rows = ReportTexts.rows(w);
        for (SummaryRow r : rows) {
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
            if (baseline) {
                cells.add(r.delta() == null || r.delta().qpsPct() == null ? "" : pct(r.delta().qpsPct()));
                cells.add(r.delta() == null || r.delta().p99Pct() == null ? "" : pct(r.delta().p99Pct()));
            }
            b.append(mdRow(cells.toArray(String[]::new)));
        }
        for (SummaryRow r : rows) {
            for (Text t : r.heavyTail()) {
                b.append("\n- ").append(md(r.target() + " · " + r.threads() + ": " + msg.get("tail.badge")
                        + ": " + msg.format(t)));
            }
        }
        if (!w.costs().isEmpty()) {
            costs(b, w, msg);
        }
        if (!w.tpcc().isEmpty()) {
            tpcc(b, w, msg);
        }
    }

    /** The TPC-C figures: one line per row, then each transaction type's share and P90 against its limit. */
    private static void tpcc(StringBuilder b, WorkloadSummary w, Messages msg) {
        b.append("\n### ").append(msg.get("tpcc.title")).append("\n\n");
        header(b, List.of(msg.get("summary.target"), msg.get("summary.threads"), msg.get("tpcc.type"),
                msg.get("tpcc.completed"), msg.get("summary.tps"), msg.get("tpcc.share"), msg.get("tpcc.p90"),
                msg.get("tpcc.limit")));
        for (TpccRow t : w.tpcc()) {
            b.append(mdRow(t.target(), String.valueOf(t.threads()), msg.get("tpcc.tpmC") + " " + num(t.tpmC())
                    + ", " + msg.get("tpcc.nopm") + " " + num(t.nopm()) + ", " + msg.get("tpcc.rolledBack") + " "
                    + (t.rolledBackPct() == null ? "-" : String.format(Locale.ROOT, "%.2f%%", t.rolledBackPct()))
                    + ", " + msg.get("tpcc.skippedDeliveries") + " " + (t.skippedDeliveriesPct() == null ? "-"
                            : String.format(Locale.ROOT, "%.2f%%", t.skippedDeliveriesPct()))
                    + (t.efficiencyPct() == null ? "" : ", " + msg.get("tpcc.efficiency") + " "
                            + String.format(Locale.ROOT, "%.1f%%", t.efficiencyPct()))
                    + (t.costPer1000TpmC() == null ? "" : ", " + msg.get("tpcc.costPer1000") + " "
                            + String.format(Locale.ROOT, "%,.2f", t.costPer1000TpmC()) + " " + t.currency()),
                    "", "", "", msg.get("tpcc.within." + t.withinSpecification()),
                    msg.get("tpcc.consistency") + ": " + msg.format(t.consistency().text())));
            for (TpccRow.Type x : t.types()) {
                b.append(mdRow(t.target(), String.valueOf(t.threads()), msg.get("tpcc.type." + x.type()),
                        String.valueOf(x.completed()), num(x.tps()), String.format(Locale.ROOT, "%.2f%%",
                                x.sharePct()), x.p90Ms() == null ? "-" : ms(x.p90Ms()),
                        String.format(Locale.ROOT, "%.0f s", x.limitMs() / 1000)));
            }
        }
    }

    /** The cost table (at the peak, and at the compared concurrency when there is one), then the cost items. */
    private static void costs(StringBuilder b, WorkloadSummary w, Messages msg) {
        Integer at = w.atThreads();
        List<String> head = new ArrayList<>(List.of(msg.get("summary.target"), msg.get("cost.monthly"),
                msg.get("cost.peakQps"), msg.get("cost.per1000Qps"), msg.get("cost.qpsPer1000")));
        if (at != null) {
            head.addAll(List.of("QPS @ " + at, msg.get("cost.per1000Qps") + " @ " + at,
                    msg.get("cost.qpsPer1000") + " @ " + at));
        }
        b.append('\n');
        header(b, head);
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
                for (Cost.CostItem i : c.items()) {
                    b.append(mdRow(c.target(), i.name(), num(i.amount()) + " " + c.currency(),
                            String.format(Locale.ROOT, "%.1f%%", i.sharePct())));
                }
            }
        }
    }

    private static void scaleOut(StringBuilder b, List<ScaleOutRow> scaleOut, Messages msg) {
        b.append("\n## ").append(msg.get("scale.title")).append("\n\n");
        b.append(mdRow(msg.get("verdict.workload"), msg.get("scale.single"), msg.get("scale.multi"),
                msg.get("scale.ratio")));
        b.append(mdRow("---", "---:", "---:", "---:"));
        for (ScaleOutRow s : scaleOut) {
            b.append(mdRow(s.workload(), s.singleTarget() + ": " + num(s.singleQps()), s.multiTarget() + " ("
                    + s.nodes() + "): " + num(s.multiQps()), String.format(Locale.ROOT, "%.2f", s.ratio())));
        }
    }

    /** How many steps the stall detector ran for, then per step whether it ran and what it found. */
    private static void stallDetection(StringBuilder b, List<StallDetection> steps, Messages msg) {
        b.append("\n## ").append(msg.get("stalls.title")).append("\n\n");
        long ran = steps.stream().filter(StallDetection::detectionRan).count();
        b.append(md(msg.get("stalls.detection.summary").replace("{0}", String.valueOf(ran))
                .replace("{1}", String.valueOf(steps.size())))).append("\n\n");
        for (StallDetection d : steps) {
            String status = !d.detectionRan() ? msg.get("stalls.detection.notRun") : d.stalls() > 0
                    ? msg.get("stalls.detection.found").replace("{0}", String.valueOf(d.stalls()))
                    : msg.get("stalls.detection.none");
            b.append("- ").append(md(msg.get("charts.step") + " " + d.stepId() + " (" + d.target() + " · "
                    + d.workload() + " · " + d.threads() + " " + msg.get("charts.threads") + " · "
                    + msg.get("charts.round") + " " + d.round() + "): " + status)).append('\n');
        }
    }

    /** A table's header row and its alignment row: the first column left, the figures right. */
    private static void header(StringBuilder b, List<String> head) {
        b.append(mdRow(head.toArray(String[]::new)));
        b.append(mdRow(head.stream().map(h -> h.equals(head.get(0)) ? "---" : "---:").toArray(String[]::new)));
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
