package io.tailstream.reporter.history;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import freemarker.template.Configuration;
import io.tailstream.analysis.change.ChangePointSettings;
import io.tailstream.reporter.output.HtmlPages;
import io.tailstream.schemas.event.Json;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The trend page: one self-contained HTML page (uPlot inlined, data in the page, no network access when opened) with,
 * per series, the metric over its runs with each segment's mean and the change points marked, a table of the changes
 * (size, 95% interval, p-value, what differed) and the runs. Stateless and thread safe.
 */
public final class TrendPage {

    private static final Configuration FREEMARKER = HtmlPages.freemarker(TrendPage.class,
            "/io/tailstream/reporter/history");

    private TrendPage() {}

    /**
     * The page of {@code series}, generated at {@code generatedAtMs}: of {@code metric}, where a series of another
     * metric (the tpmC of TPC-C beside the QPS of other workloads) is labelled with its own.
     */
    public static String render(List<Series> series, Metric metric, ChangePointSettings settings,
                                long generatedAtMs) {
        Map<String, Object> root = new HashMap<>();
        root.put("series", series);
        root.put("metric", metric);
        root.put("title", Stream.concat(Stream.of(metric), series.stream().map(Series::metric)).distinct()
                .map(Metric::label).collect(Collectors.joining(", ")));
        root.put("settings", settings);
        root.put("generatedAt", Instant.ofEpochMilli(generatedAtMs).toString());
        root.put("uplotJs", HtmlPages.uplotJs());
        root.put("uplotCss", HtmlPages.uplotCss());
        root.put("chartJson", HtmlPages.jsonSafe(chartJson(series)));
        return HtmlPages.render(FREEMARKER, "trend.ftlh", root);
    }

    /**
     * Per series: start times (s), values, the mean of each point's segment, and the start of each change's first
     * run after.
     */
    static String chartJson(List<Series> all) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        ArrayNode out = root.putArray("series");
        for (int i = 0; i < all.size(); i++) {
            Series s = all.get(i);
            ObjectNode o = out.addObject();
            o.put("id", "series-" + i);
            o.put("label", s.metric().label());
            ArrayNode t = o.putArray("t");
            ArrayNode v = o.putArray("v");
            ArrayNode runs = o.putArray("runs");
            s.points().forEach(p -> {
                t.add(p.startedAtMs() / 1000.0);
                v.add(p.value());
                runs.add(p.runId());
            });
            ArrayNode mean = o.putArray("mean");
            int from = 0;
            for (int c = 0; c <= s.changes().size(); c++) {
                int to = c < s.changes().size() ? s.changes().get(c).index() : s.points().size();
                double m = s.points().subList(from, to).stream().mapToDouble(SeriesPoint::value).average()
                        .orElse(Double.NaN);
                for (int k = from; k < to; k++) {
                    mean.add(m);
                }
                from = to;
            }
            ArrayNode changes = o.putArray("changes");
            s.changes().forEach(c -> changes.add(s.points().get(c.index()).startedAtMs() / 1000.0));
        }
        return Json.writeString(root);
    }
}
