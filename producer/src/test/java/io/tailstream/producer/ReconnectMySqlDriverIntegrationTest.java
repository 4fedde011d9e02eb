package io.tailstream.producer;

import io.tailstream.producer.target.Target;

/**
 * {@link ServerKillContract} on the local MariaDB through MySQL Connector/J ({@code jdbc:mysql:}), whose errors for a
 * killed connection differ from MariaDB Connector/J's ({@code CommunicationsException}, SQLState 08S01).
 */
class ReconnectMySqlDriverIntegrationTest extends ReconnectMariaDbIntegrationTest {

    @Override
    Target target() {
        super.target();
        return Target.of("mysql-driver", server.url("mysql"), server.user(), server::password);
    }
}
