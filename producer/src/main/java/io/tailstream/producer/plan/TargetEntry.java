package io.tailstream.producer.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One database under test.
 *
 * <p>Its simple name shows in plan errors, as {@link Root} says. Not thread safe; used once per parse.
 */
final class TargetEntry extends Located {
    final String name;
    final String url;
    EndpointsEntry endpoints;
    String user;
    String passwordEnv;
    Double monthlyCost;
    String currency;
    Integer nodes;
    String notes;
    Map<String, Double> costItems;

    @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
    TargetEntry(@JsonProperty(value = "name", required = true) String name,
                @JsonProperty(value = "url") String url) {
        if (name == null || !name.matches("[A-Za-z0-9._-]{1,64}")) {
            throw new IllegalArgumentException("name must be 1..64 of [A-Za-z0-9._-], was '" + name + "'");
        }
        if (url != null) {
            requireJdbcUrl("url", url);
        }
        this.name = name;
        this.url = url;
    }

    @JsonSetter("endpoints")
    void endpoints(EndpointsEntry v) {
        endpoints = v;
    }

    @JsonSetter("user")
    void user(String v) {
        user = v;
    }

    @JsonSetter("passwordEnv")
    void passwordEnv(String v) {
        if (v == null || !v.matches("[A-Za-z_][A-Za-z0-9_]{0,127}")) {
            throw new IllegalArgumentException("'" + v + "' is not an environment variable name (the password"
                    + " itself never goes in a plan)");
        }
        passwordEnv = v;
    }

    @JsonSetter("monthlyCost")
    void monthlyCost(double v) {
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException("must be >= 0, was " + v);
        }
        monthlyCost = v;
    }

    @JsonSetter("costItems")
    void costItems(LinkedHashMap<String, Double> v) {
        if (v == null || v.isEmpty()) {
            throw new IllegalArgumentException("must list at least one item, such as {compute: 3200, storage: 1500}");
        }
        for (Map.Entry<String, Double> e : v.entrySet()) {
            Double x = e.getValue();
            if (x == null || !(x >= 0) || x.isInfinite()) {
                throw new IllegalArgumentException("item '" + e.getKey() + "' must be a number >= 0, was " + x);
            }
        }
        costItems = v;
    }

    @JsonSetter("currency")
    void currency(String v) {
        if (v == null || !v.matches("[A-Z]{3}")) {
            throw new IllegalArgumentException("must be an ISO 4217 code such as USD or CNY, was '" + v + "'");
        }
        currency = v;
    }

    @JsonSetter("nodes")
    void nodes(int v) {
        if (v < 1 || v > 1000) {
            throw new IllegalArgumentException("must be in 1..1000, was " + v);
        }
        nodes = v;
    }

    @JsonSetter("notes")
    void notes(String v) {
        notes = v;
    }

    /** Refuses a URL that is not a JDBC URL; the message shows it with its password redacted. */
    static void requireJdbcUrl(String key, String url) {
        if (url == null || !url.startsWith("jdbc:")) {
            throw new IllegalArgumentException(key + " must start with 'jdbc:', was '"
                    + io.tailstream.schemas.event.Secrets.redactUrl(String.valueOf(url)) + "'");
        }
    }
}
