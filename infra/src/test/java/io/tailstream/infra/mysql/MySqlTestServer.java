package io.tailstream.infra.mysql;

import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.MySQLContainer;

/**
 * The MySQL-compatible server integration tests run against, found in this order:
 * <ol>
 *   <li>{@code TAILSTREAM_MYSQL_URL}, {@code TAILSTREAM_MYSQL_USER}, {@code TAILSTREAM_MYSQL_PASSWORD} from the
 *       environment (CI sets them for the local MariaDB on 127.0.0.1:3306);</li>
 *   <li>a MySQL 8 container through Testcontainers, where a Docker engine answers;</li>
 *   <li>otherwise the calling test is skipped (aborted) with a message naming what it needs: never passed
 *       silently.</li>
 * </ol>
 *
 * @param url      JDBC URL
 * @param user     user name
 * @param password password
 * @param source   where the server came from, for test output
 */
public record MySqlTestServer(String url, String user, String password, String source) {

    static final String IMAGE = "mysql:8.0";

    private static MySQLContainer<?> container;

    /** The server to test against, or an aborted test (JUnit assumption) saying what is missing. */
    public static synchronized MySqlTestServer require() {
        String url = System.getenv("TAILSTREAM_MYSQL_URL");
        if (url != null && !url.isBlank()) {
            return new MySqlTestServer(url, System.getenv("TAILSTREAM_MYSQL_USER"),
                    System.getenv("TAILSTREAM_MYSQL_PASSWORD"), "environment (TAILSTREAM_MYSQL_URL)");
        }
        if (container == null) {
            boolean docker;
            try {
                docker = DockerClientFactory.instance().isDockerAvailable();
            } catch (RuntimeException e) {
                docker = false;
            }
            if (!docker) {
                Assumptions.abort("needs a MySQL-compatible server: set TAILSTREAM_MYSQL_URL (e.g. "
                        + "jdbc:mysql://127.0.0.1:3306/tailstream_test), TAILSTREAM_MYSQL_USER and "
                        + "TAILSTREAM_MYSQL_PASSWORD, or run where Docker is available for Testcontainers ("
                        + IMAGE + "); see the README's test section");
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
}
