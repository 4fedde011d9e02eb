package io.tailstream.producer.plan;

import com.fasterxml.jackson.annotation.JsonSetter;
import java.util.List;

/**
 * A target's endpoints: {@code {primary: URL, readOnly: [URL, ...]}}. Read-only workloads spread their workers
 * over the primary and the read-only endpoints; the others run on the primary.
 *
 * <p>Its simple name shows in plan errors, as {@link Root} says. Not thread safe; used once per parse.
 */
final class EndpointsEntry extends Located {
    String primary;
    List<String> readOnly = List.of();

    @JsonSetter("primary")
    void primary(String v) {
        TargetEntry.requireJdbcUrl("primary", v);
        primary = v;
    }

    @JsonSetter("readOnly")
    void readOnly(List<String> v) {
        if (v == null || v.isEmpty()) {
            throw new IllegalArgumentException("must list at least one JDBC URL (leave readOnly out for a single"
                    + " endpoint)");
        }
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (String url : v) {
            TargetEntry.requireJdbcUrl("readOnly", url);
            if (!seen.add(url)) {
                throw new IllegalArgumentException("endpoint '" + io.tailstream.schemas.event.Secrets.redactUrl(url)
                        + "' is listed twice");
            }
        }
        readOnly = List.copyOf(v);
    }
}
