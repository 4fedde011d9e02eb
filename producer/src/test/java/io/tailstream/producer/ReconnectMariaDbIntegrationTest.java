package io.tailstream.producer;

import io.tailstream.infra.testing.MySqlTestServer;
import io.tailstream.producer.target.Target;
import java.sql.SQLException;

/**
 * {@link ServerKillContract} on the local MariaDB: {@code KILL CONNECTION} of every connection to the test's own
 * database.
 */
class ReconnectMariaDbIntegrationTest extends ServerKillContract {

    MySqlTestServer server;

    @Override
    Target target() {
        server = MySqlTestServer.require();
        return Target.of("mariadb-local", server.url("mariadb"), server.user(), server::password);
    }

    @Override
    int kill() throws SQLException {
        return server.killConnectionsOfTheDatabase();
    }

    @Override
    String password() {
        return server.password();
    }
}
