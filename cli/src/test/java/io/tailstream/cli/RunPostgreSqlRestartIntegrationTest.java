package io.tailstream.cli;

import io.tailstream.infra.testing.PostgreSqlTestServer;
import io.tailstream.infra.testing.PrivateDatabase;
/** {@link DatabaseRestartContract} on a PostgreSQL cluster of the test's own ({@code pg_ctl stop -m fast}). */
class RunPostgreSqlRestartIntegrationTest extends DatabaseRestartContract {

    @Override
    PrivateDatabase startDatabase() {
        return PostgreSqlTestServer.startPrivate();
    }
}
