package io.tailstream.cli.run;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

class KafkaClientCompilerDirectiveTest {

    @Test
    void theJvmHoldsTheDirectiveOnceForEveryClientPackage() throws Exception {
        assertTrue(KafkaClientCompilerDirective.apply(), "HotSpot takes the directive");
        assertTrue(KafkaClientCompilerDirective.apply(), "a second start finds it in place");

        String printed = String.valueOf(ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerDirectivesPrint",
                new Object[] {new String[0]}, new String[] {String[].class.getName()}));
        for (String p : KafkaClientCompilerDirective.CLIENT_PACKAGES) {
            assertTrue(printed.contains(p + "*.*"), () -> p + " missing from the JVM's directives:\n" + printed);
        }
        int directives = printed.split("Directive:", -1).length - 1;
        assertTrue(directives == 2, () -> "one directive besides the default expected, printed:\n" + printed);
    }
}
