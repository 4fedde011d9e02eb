package io.tailstream.producer.target;

import io.tailstream.schemas.event.Secrets;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A database under test, as a plan names it. Immutable and thread safe.
 *
 * <p>The password is a supplier (an environment variable, a prompt, a secret store) so it is read only when a
 * connection is opened and never travels with the configuration: {@link #toString()} and everything derived from
 * this record for events, reports and logs carry {@link Secrets#redactUrl redacted} URLs only.
 *
 * @param name        short name used in reports ("h2-mem", "polardb-8c64g")
 * @param jdbcUrl     JDBC URL; the dialect may add driver settings (see {@link Dialect#effectiveUrl})
 * @param user        user name, or null for drivers that need none
 * @param password    supplies the password when connecting; may return null
 * @param monthlyCost monthly price of the target, or null
 * @param currency    currency of {@code monthlyCost}, or null
 * @param nodes       nodes serving the target (1 primary + N read-only), or null
 * @param notes       free text, or null
 * @param readOnlyUrls JDBC URLs of read-only endpoints of the same database (replicas, read-only nodes), same
 *                    user and password; empty for a single endpoint. Read-only workloads spread their workers over
 *                    the primary and these; everything else runs on the primary ({@link TargetConnections})
 * @param costItems   the parts of {@code monthlyCost} by name ("compute", "storage", ...) in plan order, or null;
 *                    when given, each is >= 0 and {@code monthlyCost} is their sum (within 0.01)
 */
public record Target(
        String name,
        String jdbcUrl,
        String user,
        Supplier<String> password,
        Double monthlyCost,
        String currency,
        Integer nodes,
        String notes,
        List<String> readOnlyUrls,
        Map<String, Double> costItems) {

    public Target {
        Objects.requireNonNull(name, "target name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("target name must not be blank");
        }
        Objects.requireNonNull(jdbcUrl, "target " + name + ": jdbcUrl");
        if (!jdbcUrl.startsWith("jdbc:")) {
            throw new IllegalArgumentException("target " + name + ": jdbcUrl must start with 'jdbc:', was "
                    + Secrets.redactUrl(jdbcUrl));
        }
        password = password == null ? () -> null : password;
        if (monthlyCost != null && (monthlyCost < 0 || monthlyCost.isNaN())) {
            throw new IllegalArgumentException("target " + name + ": monthlyCost must be >= 0, was " + monthlyCost);
        }
        if (nodes != null && nodes < 1) {
            throw new IllegalArgumentException("target " + name + ": nodes must be >= 1, was " + nodes);
        }
        readOnlyUrls = readOnlyUrls == null ? List.of() : List.copyOf(readOnlyUrls);
        if (costItems != null) {
            double sum = 0;
            for (Map.Entry<String, Double> e : costItems.entrySet()) {
                Double v = e.getValue();
                if (v == null || !(v >= 0) || v.isInfinite()) {
                    throw new IllegalArgumentException("target " + name + ": cost item '" + e.getKey()
                            + "' must be >= 0, was " + v);
                }
                sum += v;
            }
            if (monthlyCost == null || Math.abs(monthlyCost - sum) > 0.01) {
                throw new IllegalArgumentException("target " + name + ": monthlyCost " + monthlyCost
                        + " is not the sum of the cost items " + sum);
            }
            costItems = Collections.unmodifiableMap(new LinkedHashMap<>(costItems));
        }
        java.util.Set<String> distinct = new java.util.HashSet<>(List.of(jdbcUrl));
        for (String url : readOnlyUrls) {
            if (!distinct.add(url)) {
                throw new IllegalArgumentException("target " + name + ": endpoint " + Secrets.redactUrl(url)
                        + " appears twice");
            }
            if (!url.startsWith("jdbc:")) {
                throw new IllegalArgumentException("target " + name + ": read-only endpoint URL must start with"
                        + " 'jdbc:', was " + Secrets.redactUrl(url));
            }
            if (!Dialect.forUrl(url).name().equals(Dialect.forUrl(jdbcUrl).name())) {
                throw new IllegalArgumentException("target " + name + ": read-only endpoint " + Secrets.redactUrl(url)
                        + " is not the same product as the primary " + Secrets.redactUrl(jdbcUrl));
            }
        }
    }

    /** A single-endpoint target (no read-only endpoints) without cost items. */
    public Target(String name, String jdbcUrl, String user, Supplier<String> password, Double monthlyCost,
                  String currency, Integer nodes, String notes) {
        this(name, jdbcUrl, user, password, monthlyCost, currency, nodes, notes, List.of(), null);
    }

    /** A target without cost items. */
    public Target(String name, String jdbcUrl, String user, Supplier<String> password, Double monthlyCost,
                  String currency, Integer nodes, String notes, List<String> readOnlyUrls) {
        this(name, jdbcUrl, user, password, monthlyCost, currency, nodes, notes, readOnlyUrls, null);
    }

    /**
     * A primary with read-only endpoints (replicas or read-only nodes of the same database, same credentials):
     * read-only workloads spread their workers over all of them, the others use the primary.
     */
    public static Target withReadOnlyEndpoints(String name, String primaryUrl, List<String> readOnlyUrls, String user,
                                               Supplier<String> password) {
        return new Target(name, primaryUrl, user, password, null, null, null, null, readOnlyUrls);
    }

    /** Every endpoint, the primary first. */
    public List<String> endpoints() {
        List<String> all = new java.util.ArrayList<>(1 + readOnlyUrls.size());
        all.add(jdbcUrl);
        all.addAll(readOnlyUrls);
        return List.copyOf(all);
    }

    /** A target with only a URL and credentials. */
    public static Target of(String name, String jdbcUrl, String user, Supplier<String> password) {
        return new Target(name, jdbcUrl, user, password, null, null, null, null);
    }

    /** Embedded in-memory H2, kept alive for the JVM's lifetime ({@code DB_CLOSE_DELAY=-1}). The default target. */
    public static Target h2InMemory(String name, String database) {
        return of(name, "jdbc:h2:mem:" + database + ";DB_CLOSE_DELAY=-1", "sa", () -> "");
    }

    /** Embedded file-backed H2 at {@code dir/database}; every commit is written to the file before it returns. */
    public static Target h2File(String name, Path dir, String database) {
        // WRITE_DELAY=0: each commit is written to the file before it returns (H2's default batches 500 ms)
        return of(name, "jdbc:h2:file:" + dir.toAbsolutePath().resolve(database) + ";DB_CLOSE_DELAY=-1;WRITE_DELAY=0",
                "sa", () -> "");
    }

    /** The URL with any secret masked: the only form of the URL that may be shown. */
    public String redactedUrl() {
        return Secrets.redactUrl(jdbcUrl);
    }

    @Override
    public String toString() {
        return "Target[" + name + ", " + redactedUrl() + (readOnlyUrls.isEmpty() ? "" : ", read-only "
                + readOnlyUrls.stream().map(Secrets::redactUrl).toList()) + ", user=" + user + "]";
    }
}
