package io.tailstream.producer;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tailstream.infra.testing.MySqlTestServer;
import io.tailstream.infra.testing.PostgreSqlTestServer;
import io.tailstream.producer.target.Target;
import io.tailstream.producer.target.TargetException;
import io.tailstream.producer.workload.WorkloadSpec;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link BenchmarkRunner#checkTargets} against the local MariaDB and PostgreSQL: every endpoint is tried, and a wrong
 * password, an unknown database or a refused connection is one line naming the target, its URL and the driver's
 * reason, never the password.
 */
class CheckTargetsIntegrationTest {

    static final String WRONG = "not-the-Pa55word";

    static RunPlan plan(Target... targets) {
        return RunPlan.of("check", "test", List.of(targets), List.of(WorkloadSpec.of("oltp_point_select")),
                List.of(1), 1, Duration.ZERO, Duration.ofSeconds(1), 0);
    }

    @Test
    void mariadb_wrongPassword_namesTargetAndCause_neverThePassword() {
        MySqlTestServer server = MySqlTestServer.require();
        Target good = Target.of("maria", server.url("mariadb"), server.user(), server::password);
        Target wrong = Target.of("maria-wrong", server.url("mysql"), server.user(), () -> WRONG);
        assertThatCode(() -> BenchmarkRunner.checkTargets(plan(good))).doesNotThrowAnyException();
        assertThatThrownBy(() -> BenchmarkRunner.checkTargets(plan(good, wrong)))
                .isInstanceOf(TargetException.class)
                .hasMessageStartingWith("cannot connect to target 'maria-wrong' (" + server.url("mysql") + "): ")
                .hasMessageContaining("Access denied for user '" + server.user() + "'")
                .hasMessageNotContaining(WRONG)
                .hasMessageNotContaining("\n");
    }

    @Test
    void readOnlyEndpoint_refused_isNamed() {
        MySqlTestServer server = MySqlTestServer.require();
        String refused = "jdbc:mariadb://127.0.0.1:1/none?connectTimeout=2000";
        Target t = Target.withReadOnlyEndpoints("maria-ro", server.url("mariadb"), List.of(refused), server.user(),
                server::password);
        assertThatThrownBy(() -> BenchmarkRunner.checkTargets(plan(t)))
                .isInstanceOf(TargetException.class)
                .hasMessageStartingWith("cannot connect to target 'maria-ro' (" + refused + "): ")
                .hasMessageContaining("Connection refused");
    }

    @Test
    void postgresql_unknownDatabase_namesTargetAndCause() {
        PostgreSqlTestServer server = PostgreSqlTestServer.require();
        String url = server.url().replaceFirst("/(\\w+)\\?", "/tailstream_no_such_db?");
        Target t = Target.of("pg-nodb", url, server.user(), () -> WRONG);
        assertThatThrownBy(() -> BenchmarkRunner.checkTargets(plan(t)))
                .isInstanceOf(TargetException.class)
                .hasMessageStartingWith("cannot connect to target 'pg-nodb' (jdbc:postgresql://")
                .hasMessageContaining("tailstream_no_such_db")
                .hasMessageNotContaining(WRONG);
    }
}
