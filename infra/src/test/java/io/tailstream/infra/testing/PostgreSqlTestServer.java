package io.tailstream.infra.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The PostgreSQL server for integration tests: {@code TAILSTREAM_PG_URL} / {@code TAILSTREAM_PG_USER} /
 * {@code TAILSTREAM_PG_PASSWORD}, by default the local server ({@code jdbc:postgresql://127.0.0.1:5432/test}, user
 * {@code postgres}, trust authentication). Each test JVM works in a schema of its own, {@code tailstream_t_<pid>}
 * (the URL's {@code currentSchema}), created on first use and dropped at exit, so builds running at the same time
 * never touch each other's {@code sbtest} tables. A test calling {@link #require()} fails, or is skipped where
 * {@link TestServices#SKIP_MISSING} says so, with a message saying what it needs, when the server cannot be reached.
 * A cluster of the test's own, which it may stop and start, comes from {@link #startPrivate()}.
 *
 * @param url      JDBC URL, with the JVM's own schema as {@code currentSchema}
 * @param user     user name
 * @param password password, or null
 * @param schema   the JVM's own schema
 */
public record PostgreSqlTestServer(String url, String user, String password, String schema) {

    private static PostgreSqlTestServer isolated;

    public static synchronized PostgreSqlTestServer require() {
        String url = env("TAILSTREAM_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test");
        String user = env("TAILSTREAM_PG_USER", "postgres");
        String password = System.getenv("TAILSTREAM_PG_PASSWORD");
        if (isolated != null) {
            return isolated;
        }
        String schema = "tailstream_t_" + ProcessHandle.current().pid();
        try (Connection c = DriverManager.getConnection(url, user, password); Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS " + schema);
        } catch (SQLException e) {
            throw TestServices.missing(TestServices.Service.POSTGRESQL, "PostgreSQL at " + url + " (user " + user
                    + "; set TAILSTREAM_PG_URL, TAILSTREAM_PG_USER, TAILSTREAM_PG_PASSWORD): " + e.getMessage()
                    + " (SQLState " + e.getSQLState() + ")");
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try (Connection c = DriverManager.getConnection(url, user, password); Statement st = c.createStatement()) {
                st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            } catch (SQLException e) {
                System.err.println("could not drop test schema " + schema + ": " + e.getMessage());
            }
        }, "postgresql-test-schema-drop"));
        isolated = new PostgreSqlTestServer(url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema, user,
                password, schema);
        return isolated;
    }

    /**
     * Creates and starts a PostgreSQL cluster of the calling test's own on a free port of 127.0.0.1 (see
     * {@link PrivateDatabase}); the test closes it.
     */
    public static PrivateDatabase startPrivate() {
        return PrivatePostgreSql.start();
    }

    /** A connection outside any pool, in the JVM's schema. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }
}
