package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tailstream.cli.CliUsageTest.Outcome;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code report}'s options: bad values are one line on stderr with exit code 2, naming the value. */
class ReportCommandTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--lang fr                   | language 'fr' is not supported; use en or zh-CN",
            "--format pdf                | format 'pdf' is not supported; use html, json, csv or md",
            "--run a --latest            | choose --run or --latest, not both",
            "--run a --plan p            | choose --run or --plan, not both",
            "--at-threads 0              | atThreads must be at least 1, was 0",
            "--baseline ''               | baseline target must not be blank",
    })
    void badOption_isOneLineOnStderrAndExitCode2(String args, String expected) {
        String[] extra = args.trim().split("\\s+");
        String[] all = new String[4 + extra.length];
        System.arraycopy(new String[] {"report", "--archive", System.getProperty("java.io.tmpdir"), "--out=/dev/null"},
                0, all, 0, 4);
        for (int i = 0; i < extra.length; i++) {
            all[4 + i] = extra[i].equals("''") ? "" : extra[i];
        }
        Outcome o = CliUsageTest.execute(all);
        assertThat(o.exitCode()).as(o.err()).isEqualTo(Cli.EXIT_USAGE);
        assertThat(o.err()).contains(expected);
        assertThat(o.err().strip().lines()).as("one line: %s", o.err()).hasSize(1);
    }
}
