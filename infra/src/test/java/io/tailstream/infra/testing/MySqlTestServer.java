package io.tailstream.infra.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.MySQLContainer;

/**
 * The MySQL-compatible server integration tests run against, found in this order:
 * <ol>
 *   <li>{@code TAILSTREAM_MYSQL_URL}, {@code TAILSTREAM_MYSQL_USER}, {@code TAILSTREAM_MYSQL_PASSWORD} from the
 *       environment (CI sets them for the local MariaDB on 127.0.0.1:3306). Each test JVM then works in a database
 *       of its own, {@code tailstream_t_<pid>}, created on first use and dropped at exit, so two builds on one
 *       machine never drop each other's {@code sbtest} tables; where the user may not create it (CI grants
 *       {@code tailstream\_%}), the URL's own database is used as is;</li>
 *   <li>a MySQL 8 container through Testcontainers, where a Docker engine answers;</li>
 *   <li>otherwise the calling test fails with a message naming what it needs, or is skipped where
 *       {@link TestServices#SKIP_MISSING} says so: never passed silently.</li>
 * </ol>
 * A server of the test's own, which it may stop and start, comes from {@link #startPrivate()}.
 *
 * @param url      JDBC URL
 * @param user     user name
 * @param password password
 * @param source   where the server came from, for test output
 */
public record MySqlTestServer(String url, String user, String password, String source) {

    static final String IMAGE = "mysql:8.0";

    private static MySQLContainer<?> container;
    private static MySqlTestServer fromEnvironment;

    /** The server to test against; without one the test fails or is skipped, saying what is missing. */
    public static synchronized MySqlTestServer require() {
        String url = System.getenv("TAILSTREAM_MYSQL_URL");
        if (url != null && !url.isBlank()) {
            if (fromEnvironment == null) {
                fromEnvironment = isolated(new MySqlTestServer(url, System.getenv("TAILSTREAM_MYSQL_USER"),
                        System.getenv("TAILSTREAM_MYSQL_PASSWORD"), "environment (TAILSTREAM_MYSQL_URL)"));
            }
            return fromEnvironment;
        }
        if (container == null) {
            boolean docker;
            try {
                docker = DockerClientFactory.instance().isDockerAvailable();
            } catch (RuntimeException e) {
                docker = false;
            }
            if (!docker) {
                throw TestServices.missing(TestServices.Service.MYSQL, "a MySQL-compatible server: set "
                        + "TAILSTREAM_MYSQL_URL (e.g. jdbc:mysql://127.0.0.1:3306/tailstream_test), "
                        + "TAILSTREAM_MYSQL_USER and TAILSTREAM_MYSQL_PASSWORD, or run where Docker is available for "
                        + "Testcontainers (" + IMAGE + "); see the README's test section");
            }
            MySQLContainer<?> c = new MySQLContainer<>(IMAGE).withDatabaseName("tailstream_test")
                    .withUsername("tailstream").withPassword("tailstream");
            c.start();
            Runtime.getRuntime().addShutdownHook(new Thread(c::stop, "mysql-testcontainer-stop"));
            container = c;
        }
        return new MySqlTestServer(container.getJdbcUrl(), container.getUsername(), container.getPassword(),
                "Testcontainers " + IMAGE);
    }

    /**
     * Installs and starts a MariaDB server of the calling test's own on a free port of 127.0.0.1 (see
     * {@link PrivateDatabase}); the test closes it.
     */
    public static PrivateDatabase startPrivate() {
        return PrivateMariaDb.start();
    }

    /**
     * This server's URL for the given JDBC scheme: {@code "mysql"} (MySQL Connector/J) or {@code "mariadb"} (MariaDB
     * Connector/J), the two drivers the producer accepts for MySQL-compatible targets.
     */
    public String url(String scheme) {
        if (!scheme.equals("mysql") && !scheme.equals("mariadb")) {
            throw new IllegalArgumentException("JDBC scheme must be mysql or mariadb: " + scheme);
        }
        return url.replaceFirst("^jdbc:(mysql|mariadb):", "jdbc:" + scheme + ":");
    }

    /**
     * {@code KILL CONNECTION} for every connection of this server's user to its database (this JVM's own), from a
     * connection of its own, as an administrator would; returns how many were killed.
     */
    public int killConnectionsOfTheDatabase() throws SQLException {
        try (Connection c = DriverManager.getConnection(url, user, password); Statement st = c.createStatement()) {
            java.util.List<Long> ids = new java.util.ArrayList<>();
            try (java.sql.ResultSet rs = st.executeQuery("SELECT ID FROM information_schema.PROCESSLIST WHERE USER = '"
                    + user + "' AND DB = DATABASE() AND ID <> CONNECTION_ID()")) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
            int killed = 0;
            for (long id : ids) {
                try {
                    st.execute("KILL CONNECTION " + id);
                    killed++;
                } catch (SQLException e) {
                    // it ended meanwhile (ER_NO_SUCH_THREAD)
                    if (e.getErrorCode() != 1094) {
                        throw e;
                    }
                }
            }
            return killed;
        }
    }

    /** This server with a database of this JVM's own, or the server as given if the database cannot be created. */
    static MySqlTestServer isolated(MySqlTestServer shared) {
        Matcher m = URL_DATABASE.matcher(shared.url());
        if (!m.matches()) {
            return shared;
        }
        String database = "tailstream_t_" + ProcessHandle.current().pid();
        try (Connection c = DriverManager.getConnection(shared.url(), shared.user(), shared.password());
             Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE IF NOT EXISTS " + database);
        } catch (SQLException e) {
            return shared;
        }
        MySqlTestServer own = new MySqlTestServer(m.group(1) + database + m.group(3), shared.user(),
                shared.password(), shared.source() + ", database " + database);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try (Connection c = DriverManager.getConnection(shared.url(), shared.user(), shared.password());
                 Statement st = c.createStatement()) {
                st.execute("DROP DATABASE IF EXISTS " + database);
            } catch (SQLException e) {
                System.err.println("could not drop test database " + database + ": " + e.getMessage());
            }
        }, "mysql-test-database-drop"));
        return own;
    }

    /** {@code jdbc:mysql://host:port/} + database + optional {@code ?params}. */
    private static final Pattern URL_DATABASE = Pattern.compile("(jdbc:(?:mysql|mariadb)://[^/]+/)([^?;]*)(.*)");
}
