package io.tailstream.schemas.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Golden files of the JSON events (test resources under {@code /golden}). */
final class Golden {

    private Golden() {}

    static String resource(String name) throws IOException {
        try (InputStream in = Golden.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
