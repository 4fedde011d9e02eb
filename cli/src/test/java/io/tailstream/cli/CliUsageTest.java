package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** Bad usage gives exactly one line on stderr and exit code 2; every command answers --help. */
class CliUsageTest {

    record Outcome(int exitCode, String out, String err) {}

    static Outcome execute(String... args) {
        CommandLine cl = Cli.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Outcome(code, out.toString(), err.toString());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "run --bogus                                  | Unknown option: '--bogus'",
            "run --threads 8,4                            | thread counts must increase",
            "run --threads exp:0..8                       | 1 <= from <= to",
            "run --duration 10 parsecs                    | Unmatched argument",
            "run --duration 5x                            | '5x' is not a duration",
            "run --rounds 0                               | --rounds must be at least 1",
            "run --rate 0                                 | rate must be > 0",
            "run --transactions 0                         | transactions must be >= 1",
            "run --plateau -1                             | plateau minGainPct must be in 0..100000",
            "run --client-cpu-limit 0                     | clientCpuLimitPct must be in (0, 100]",
            "run --reconnect-timeout 0s                   | reconnectTimeout must be > 0",
            "run --plan /no/such/plan.yaml                | /no/such/plan.yaml: no such file",
            "run --workload oltp_nope                     | unknown workload 'oltp_nope'",
            "run --user bob                               | --user, --password-env and --read-only-url need --url",
            "run --read-only-url jdbc:h2:mem:r            | --user, --password-env and --read-only-url need --url",
            "run --url jdbc:h2:mem:a --read-only-url jdbc:mysql://r:3306/x | read-only endpoint jdbc:mysql://r:3306/x is not the same product as the primary jdbc:h2:mem:a",
            "run --url jdbc:h2:mem:a --read-only-url jdbc:h2:mem:a | --read-only-url jdbc:h2:mem:a is given twice (or equals --url)",
            "run --workload ycsb_a --option recordcnt=5   | workload ycsb_a: unknown ycsb option 'recordcnt'; known: [fieldcount, fieldlength, insertorder, insertproportion, insertstart, maxscanlength, operationcount, readallfields, readmodifywriteproportion, readproportion, recordcount, requestdistribution, scanlengthdistribution, scanproportion, table, updateproportion, writeallfields, zeropadding]",
            "run --workload ycsb_a -o fieldcount=0        | tailstream run: workload ycsb_a: ycsb option fieldcount must be >= 1, was 0",
            "run --workload ycsb_a -o requestdistribution=normal | requestdistribution",
            "run --option recordcount                     | --option 'recordcount' is not KEY=VALUE",
            "run -o range_size=5 -o range_size=6          | --option range_size is given twice",
            "run --tables 2 -o tables=3                   | --option tables repeats --tables: give it once",
            "run --workload oltp_read_only -o rang_size=5 | workload oltp_read_only: unknown sysbench option 'rang_size'; known: [",
            "prepare --url jdbc:h2:mem:p --workload large_row_insert -o value_byte=10 | unknown large_row_insert option 'value_byte'",
            "run --plan /tmp/p.yaml -o recordcount=5      | --option cannot be combined with --plan",
            "run --no-emit --out /tmp/x                   | --no-emit sends nothing",
            "run --workload ycsb_a --tables 2             | unknown ycsb option 'tables'",
            "run --url jdbc:mysql://127.0.0.1/x --password-env TAILSTREAM_SURELY_UNSET_VAR | TAILSTREAM_SURELY_UNSET_VAR is not set",
            "demo --duration 0s                           | --duration must be at least 1s",
            "archive --archive /tmp/x                     | --bootstrap-servers is required",
            "report --out /tmp/r.html                     | Missing required option: '--archive",
            "prepare --workload oltp_read_write           | --url is required",
            "aggregate --window 0s --bootstrap-servers 127.0.0.1:1 | window",
            "aggregate --http-port 70000 --bootstrap-servers 127.0.0.1:1 | --http-port must be in 0..65535, got 70000",
            "aggregate --http-bind 0.0.0.0 --bootstrap-servers 127.0.0.1:1 | --http-bind needs --http-port",
            "aggregate --http 127.0.0.1 --bootstrap-servers 127.0.0.1:1 | --http must be HOST:PORT",
            "aggregate --http :9464 --bootstrap-servers 127.0.0.1:1 | --http must be HOST:PORT",
            "aggregate --http 127.0.0.1:99999 --bootstrap-servers 127.0.0.1:1 | --http-port must be in 0..65535",
            "aggregate --http 127.0.0.1:1 --http-port 2 --bootstrap-servers 127.0.0.1:1 | cannot be combined",
            "aggregate --stream-threads 0 --bootstrap-servers 127.0.0.1:1 | streamThreads must be in 1..64",
            "aggregate --commit-interval 0s --bootstrap-servers 127.0.0.1:1 | commitInterval",
            "frobnicate                                   | Unmatched argument at index 0: 'frobnicate'",
            "''                                           | a subcommand is required",
    })
    void badUsage_isOneLineOnStderrAndExitCode2(String args, String expected) {
        Outcome o = execute(args.isEmpty() ? new String[0] : args.trim().split("\\s+"));
        assertThat(o.exitCode()).as(o.err()).isEqualTo(Cli.EXIT_USAGE);
        assertThat(o.err()).contains(expected);
        assertThat(o.err().strip().lines()).as("one line: %s", o.err()).hasSize(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"demo", "run", "prepare", "cleanup", "aggregate", "archive", "report"})
    void everySubcommand_answersHelp(String command) {
        Outcome o = execute(command, "--help");
        assertThat(o.exitCode()).isZero();
        assertThat(o.out()).startsWith("Usage: tailstream " + command);
    }

    @ParameterizedTest
    @ValueSource(strings = {"--version", "-V"})
    void version(String flag) {
        Outcome o = execute(flag);
        assertThat(o.exitCode()).isZero();
        assertThat(o.out()).startsWith("tailstream ");
    }
}
