package io.tailstream.cli;

/** {@link DatabaseRestartContract} on a PostgreSQL cluster of the test's own ({@code pg_ctl stop -m fast}). */
class RunPostgreSqlRestartIntegrationTest extends DatabaseRestartContract {

    @Override
    PrivateDatabase startDatabase() {
        return PrivatePostgreSql.start();
    }
}
