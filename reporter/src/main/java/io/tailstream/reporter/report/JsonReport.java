package io.tailstream.reporter.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tailstream.schemas.event.Json;
import java.util.List;
import java.util.Locale;

/**
 * The report as JSON ({@code report --format json}): every table figure at full precision, each verdict with its
 * reasons as check ids and sentences, the checklist with its findings. Stateless and thread safe.
 */
final class JsonReport {

    private JsonReport() {}

    static String write(ReportModel model, Locale locale) {
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
        vs.put("text", ReportTexts.verdictSummary(summary, msg));
        ArrayNode verdicts = root.putArray("verdicts");
        for (Verdict v : model.verdicts()) {
            ObjectNode n = Json.MAPPER.valueToTree(v);
            n.put("tie", v.tie());
            n.put("indicative", v.indicative());
            n.put("marginPct", v.marginPct());
            // interval and noisePct: null when unknown (a side measured in one round), never 0 or left out
            n.set("interval", Json.MAPPER.valueToTree(v.interval()));
            n.put("noisePct", v.noisePct());
            n.put("smallestDetectablePct", v.interval() == null ? null : v.interval().smallestDetectablePct());
            n.put("tieReason", v.tieReason() == null ? null : msg.format(v.tieReason()));
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
            w.rows().forEach(r -> rows.add(row(r, msg)));
            ArrayNode incomplete = n.putArray("incomplete");
            w.incomplete().forEach(r -> incomplete.add(row(r, msg)));
            n.set("threadLevels", Json.MAPPER.valueToTree(w.threadLevels()));
            n.set("sweep", Json.MAPPER.valueToTree(w.sweep()));
            n.set("costs", Json.MAPPER.valueToTree(w.costs()));
            ArrayNode tpcc = n.putArray("tpcc");
            for (TpccRow t : w.tpcc()) {
                ObjectNode tn = Json.MAPPER.valueToTree(t);
                tn.put("withinSpecification", t.withinSpecification());
                tpcc.add(tn);
            }
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
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("writing the report as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** A summary row with its derived figures: error share, spreads, heavy-tail reasons, error-limit flag. */
    private static ObjectNode row(SummaryRow r, Messages msg) {
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
    private static ArrayNode reasons(List<Verdict.Reason> reasons, Messages msg) {
        ArrayNode a = Json.MAPPER.createArrayNode();
        for (Verdict.Reason r : reasons) {
            ObjectNode n = a.addObject();
            n.put("check", r.check());
            n.put("key", r.text().key());
            n.set("args", Json.MAPPER.valueToTree(r.text().args()));
            n.put("text", msg.format(r.text()));
        }
        return a;
    }
}
