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

    /**
     * Asserts that {@code expected} is written as golden file {@code name} exactly (surrounding white space aside)
     * and that the file reads back equal to it.
     *
     * @return the event read from the file
     */
    static <T> T assertWrittenAndRead(String name, T expected) throws IOException {
        String golden = resource(name).strip();
        assertThat(Json.writeString(expected)).isEqualTo(golden);
        @SuppressWarnings("unchecked")
        T back = (T) Json.read(golden, expected.getClass());
        assertThat(back).isEqualTo(expected);
        return back;
    }
}
