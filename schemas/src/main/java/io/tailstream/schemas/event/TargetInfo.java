package io.tailstream.schemas.event;

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
        String notes) {

    public TargetInfo {
        variables = variables == null ? Map.of() : Map.copyOf(variables);
    }
}
