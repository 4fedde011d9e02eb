package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tailstream.cli.options.DurationConverter;
import io.tailstream.cli.options.ThreadCountsConverter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CommandInputsTest {

    @Test
    void durations() {
        assertThat(DurationConverter.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(DurationConverter.parse("10s")).isEqualTo(Duration.ofSeconds(10));
        assertThat(DurationConverter.parse("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(DurationConverter.parse("1h30m")).isEqualTo(Duration.ofMinutes(90));
        assertThat(DurationConverter.parse("45")).isEqualTo(Duration.ofSeconds(45));
        for (String bad : new String[] {"", "s", "10 s", "1.5s", "10sec", "-1s", "1h1x"}) {
            assertThatThrownBy(() -> DurationConverter.parse(bad)).as(bad)
                    .isInstanceOf(CommandLine.TypeConversionException.class);
        }
    }

    @Test
    void threadSweeps() {
        assertThat(ThreadCountsConverter.parse("8")).containsExactly(8);
        assertThat(ThreadCountsConverter.parse("1,8,16,32")).containsExactly(1, 8, 16, 32);
        assertThat(ThreadCountsConverter.parse("exp:1..512"))
                .containsExactly(1, 2, 4, 8, 16, 32, 64, 128, 256, 512);
        assertThat(ThreadCountsConverter.parse("exp:3..20")).containsExactly(3, 6, 12);
        for (String bad : new String[] {"0", "8,8", "a", "exp:8..4", "1,,2"}) {
            assertThatThrownBy(() -> ThreadCountsConverter.parse(bad)).as(bad)
                    .isInstanceOf(CommandLine.TypeConversionException.class);
        }
    }
}
