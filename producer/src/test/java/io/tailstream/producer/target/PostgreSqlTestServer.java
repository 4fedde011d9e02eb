package io.tailstream.producer.target;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.Assumptions;

/**
 * The PostgreSQL server for integration tests: {@code TAILSTREAM_PG_URL} / {@code TAILSTREAM_PG_USER} /
 * {@code TAILSTREAM_PG_PASSWORD}, by default the local server ({@code jdbc:postgresql://127.0.0.1:5432/test}, user
 * {@code postgres}, trust authentication). A test calling {@link #require()} is skipped, with a message saying what
 * it needs, when the server cannot be reached.
 */
public record PostgreSqlTestServer(String url, String user, String password) {

    public static PostgreSqlTestServer require() {
        String url = env("TAILSTREAM_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test");
        String user = env("TAILSTREAM_PG_USER", "postgres");
        String password = System.getenv("TAILSTREAM_PG_PASSWORD");
        try (Connection c = DriverManager.getConnection(url, user, password)) {
            c.isValid(2);
        } catch (SQLException e) {
            Assumptions.abort("needs PostgreSQL at " + url + " (user " + user + "; set TAILSTREAM_PG_URL, "
                    + "TAILSTREAM_PG_USER, TAILSTREAM_PG_PASSWORD): " + SqlErrors.describe(e));
        }
        return new PostgreSqlTestServer(url, user, password);
    }

    public Target target() {
        return Target.of("postgresql-local", url, user, () -> password);
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }
}
