package io.tailstream.schemas.event;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SecretsTest {

    @Test
    void redactUrl_masksPasswordsInParametersAndUserInfo() {
        assertThat(Secrets.redactUrl("jdbc:mysql://127.0.0.1:3306/db?user=bob&password=hunter2&useSSL=false"))
                .isEqualTo("jdbc:mysql://127.0.0.1:3306/db?user=bob&password=****&useSSL=false");
        assertThat(Secrets.redactUrl("jdbc:postgresql://h/db;Password=x;ssl=true"))
                .isEqualTo("jdbc:postgresql://h/db;Password=****;ssl=true");
        assertThat(Secrets.redactUrl("jdbc:mysql://bob:hunter2@db.example:3306/x"))
                .isEqualTo("jdbc:mysql://bob:****@db.example:3306/x");
        assertThat(Secrets.redactUrl("jdbc:h2:mem:tailstream;DB_CLOSE_DELAY=-1"))
                .isEqualTo("jdbc:h2:mem:tailstream;DB_CLOSE_DELAY=-1");
    }

    @Test
    void isSecretKey() {
        assertThat(Secrets.isSecretKey("password")).isTrue();
        assertThat(Secrets.isSecretKey("sasl.jaas.config")).isTrue();
        assertThat(Secrets.isSecretKey("threads")).isFalse();
    }
}
