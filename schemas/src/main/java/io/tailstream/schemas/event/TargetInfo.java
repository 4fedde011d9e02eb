package io.tailstream.schemas.event;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A database under test as it was at step start. Never carries a credential: the URL is redacted with
 * {@link Secrets#redactUrl} and the user name is not part of it.
 *
 * @param name        the plan's name for the target ("polardb-8c64g")
 * @param url         JDBC URL, secrets masked
 * @param product     database product name from JDBC metadata ("MariaDB", "H2")
 * @param version     server version from JDBC metadata
 * @param variables   captured server variables (buffer pool, flush settings, ...), by name
 * @param monthlyCost monthly price of the target, or null if the plan has none
 * @param currency    currency of {@code monthlyCost}
 * @param nodes       nodes serving the target (1 primary + N read-only), or null
 * @param notes       free text from the plan
 * @param costItems   the parts of {@code monthlyCost} by name ("compute", "storage", ...) in plan order, or null
 *                    when the plan lists none (absent in JSON of older producers); they sum to {@code monthlyCost}
 */
public record TargetInfo(
        String name,
        String url,
        String product,
        String version,
        Map<String, String> variables,
        Double monthlyCost,
        String currency,
        Integer nodes,
        String notes,
        Map<String, Double> costItems) {

    /**
     * The variable under which a producer adds the workload's data size (tables plus indexes, bytes, at step start)
     * to {@code variables}: measured at each step, not a setting of the server.
     */
    public static final String DATA_BYTES_VARIABLE = "tailstream.data_bytes";

    public TargetInfo {
        variables = variables == null ? Map.of() : Map.copyOf(variables);
        costItems = costItems == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(costItems));
    }

    /** A target without cost items. */
    public TargetInfo(String name, String url, String product, String version, Map<String, String> variables,
                      Double monthlyCost, String currency, Integer nodes, String notes) {
        this(name, url, product, version, variables, monthlyCost, currency, nodes, notes, null);
    }
}
