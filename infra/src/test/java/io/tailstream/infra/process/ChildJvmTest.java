package io.tailstream.infra.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The command line of a child JVM, with and without the options every child gets. */
class ChildJvmTest {

    @Test
    void extraOptions_comeBeforeTheChildsOwn_andArePassedOn() {
        String before = System.getProperty(ChildJvm.EXTRA_OPTIONS_PROPERTY);
        try {
            System.clearProperty(ChildJvm.EXTRA_OPTIONS_PROPERTY);
            List<String> plain = ChildJvm.of("a.Main").heap("64m").args("x").command();
            assertThat(plain.subList(1, plain.size())).containsExactly("-Xmx64m", "-cp",
                    System.getProperty("java.class.path"), "a.Main", "x");

            System.setProperty(ChildJvm.EXTRA_OPTIONS_PROPERTY, " -XX:TieredStopAtLevel=1  -Xss1m ");
            List<String> extra = ChildJvm.of("a.Main").heap("64m").args("x").command();
            assertThat(extra.subList(1, 6)).containsExactly("-XX:TieredStopAtLevel=1", "-Xss1m",
                    "-D" + ChildJvm.EXTRA_OPTIONS_PROPERTY + "=-XX:TieredStopAtLevel=1  -Xss1m", "-Xmx64m", "-cp");
        } finally {
            if (before == null) {
                System.clearProperty(ChildJvm.EXTRA_OPTIONS_PROPERTY);
            } else {
                System.setProperty(ChildJvm.EXTRA_OPTIONS_PROPERTY, before);
            }
        }
    }
}
