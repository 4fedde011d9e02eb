package io.tailstream.producer;

import io.tailstream.infra.testing.PostgreSqlTestServer;
import io.tailstream.producer.target.Target;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * {@link ServerKillContract} on the local PostgreSQL: {@code pg_terminate_backend} of every backend with this JVM's
 * own application name, so no other connection to the shared database is touched.
 */
class ReconnectPostgreSqlIntegrationTest extends ServerKillContract {

    final String application = "tailstream-kill-" + ProcessHandle.current().pid();
    PostgreSqlTestServer server;

    @Override
    Target target() {
        server = PostgreSqlTestServer.require();
        return Target.of("postgresql-local", server.url() + "&ApplicationName=" + application, server.user(),
                server::password);
    }

    @Override
    int kill() throws SQLException {
        try (Connection c = DriverManager.getConnection(server.url(), server.user(), server.password());
             PreparedStatement ps = c.prepareStatement("SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))"
                     + " FROM pg_stat_activity WHERE datname = current_database() AND application_name = ?"
                     + " AND pid <> pg_backend_pid()")) {
            ps.setString(1, application);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    @Override
    String password() {
        return server.password();
    }
}
