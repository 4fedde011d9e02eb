package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

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
            "run --live --no-emit                         | --no-emit sends nothing to watch",
            "run --live --bootstrap-servers 127.0.0.1:1   | with --bootstrap-servers run 'aggregate --http",
            "run --live-http 127.0.0.1:9464               | --live-http and --alert-webhook need --live",
            "run --alert-webhook http://127.0.0.1:1/a     | --live-http and --alert-webhook need --live",
            "run --live --live-http 9464                  | --live-http must be HOST:PORT, was '9464'",
            "run --live --live-http h:70000               | --live-http port must be in 0..65535, was 70000",
            "run --live --alert-webhook ftp://h/a         | --alert-webhook must be an http:// or https:// URL",
            "run --no-emit --out /tmp/x                   | --no-emit sends nothing",
            "run --workload ycsb_a --tables 2             | unknown ycsb option 'tables'",
            "run --url jdbc:mysql://127.0.0.1/x --password-env TAILSTREAM_SURELY_UNSET_VAR | TAILSTREAM_SURELY_UNSET_VAR is not set",
            "demo --duration 0s                           | --duration must be at least 1s",
            "broker --cluster 0                           | --cluster must be in 1..9, got 0",
            "broker --cluster 3 --port 65534              | --port must be in 0..65533, got 65534",
            "archive --archive /tmp/x                     | --bootstrap-servers is required",
            "archive --bootstrap-servers 127.0.0.1:1 --archive /tmp/x --row-group-rows 0 | --row-group-rows must be in 1..16777216, got 0",
            "archive --bootstrap-servers 127.0.0.1:1 --archive /tmp/x --row-group-rows 16777217 | --row-group-rows must be in 1..16777216, got 16777217",
            "archive --bootstrap-servers 127.0.0.1:1 --archive /tmp/x --row-group-rows many | Invalid value for option '--row-group-rows'",
            "report --out /tmp/r.html                     | Missing required option: '--archive",
            "prepare --workload oltp_read_write           | --url is required",
            "aggregate --window 0s --bootstrap-servers 127.0.0.1:1 | window",
            "aggregate --http-port 70000 --bootstrap-servers 127.0.0.1:1 | --http-port must be in 0..65535, got 70000",
            "aggregate --http-bind 0.0.0.0 --bootstrap-servers 127.0.0.1:1 | --http-bind needs --http-port",
            "aggregate --http 127.0.0.1 --bootstrap-servers 127.0.0.1:1 | --http must be HOST:PORT",
            "aggregate --http :9464 --bootstrap-servers 127.0.0.1:1 | --http must be HOST:PORT",
            "aggregate --http 127.0.0.1:99999 --bootstrap-servers 127.0.0.1:1 | --http-port must be in 0..65535",
            "aggregate --http 127.0.0.1:1 --http-port 2 --bootstrap-servers 127.0.0.1:1 | cannot be combined",
            "archive --archive /tmp/x --bootstrap-servers 127.0.0.1:1 --http-port 70000 | --http-port must be in 0..65535",
            "archive --archive /tmp/x --bootstrap-servers 127.0.0.1:1 --http-bind ::1 | --http-bind needs --http-port",
            "run --http-port 9465                         | --http/--http-port serve a producer's /metrics: they need --bootstrap-servers",
            "run --no-emit --http 127.0.0.1:9465          | they need --bootstrap-servers",
            "aggregate --stream-threads 0 --bootstrap-servers 127.0.0.1:1 | streamThreads must be in 1..64",
            "aggregate --commit-interval 0s --bootstrap-servers 127.0.0.1:1 | commitInterval",
            "frobnicate                                   | tailstream: unknown command 'frobnicate'",
            "frobnicate --help                            | tailstream: unknown command 'frobnicate'",
            "rnu --help                                   | tailstream: unknown command 'rnu' (see 'tailstream --help')",
            "report extra --help                          | Unmatched argument at index 1: 'extra'",
            "''                                           | a subcommand is required",
    })
    void badUsage_isOneLineOnStderrAndExitCode2(String args, String expected) {
        Outcome o = execute(args.isEmpty() ? new String[0] : args.trim().split("\\s+"));
        assertThat(o.exitCode()).as(o.err()).isEqualTo(Cli.EXIT_USAGE);
        assertThat(o.err()).contains(expected);
        assertThat(o.err().strip().lines()).as("one line: %s", o.err()).hasSize(1);
    }

    @Test
    void everySubcommand_answersHelp() {
        for (String command : ownSubcommands().keySet()) {
            Outcome o = execute(command, "--help");
            assertThat(o.exitCode()).as(command).isZero();
            assertThat(o.out()).as(command).startsWith("Usage: tailstream " + command)
                    .doesNotContain("%%").doesNotContain("%n");
        }
    }

    /**
     * picocli prints each element of a description on a line of its own and wraps only within an element, so an
     * element that ends mid-sentence breaks the help text in the middle of a sentence at any terminal width.
     */
    @Test
    void helpTexts_areWholeParagraphs_soPicocliWrapsThem() {
        for (Map.Entry<String, CommandLine> sub : ownSubcommands().entrySet()) {
            CommandSpec spec = sub.getValue().getCommandSpec();
            for (String paragraph : spec.usageMessage().description()) {
                assertThat(paragraph).as("%s description", sub.getKey()).matches(WHOLE);
            }
            for (OptionSpec option : spec.options()) {
                for (String paragraph : option.description()) {
                    assertThat(paragraph).as("%s %s", sub.getKey(), option.longestName()).matches(WHOLE);
                }
            }
        }
    }

    /** tailstream's commands, without picocli's built-in {@code help}. */
    private static Map<String, CommandLine> ownSubcommands() {
        Map<String, CommandLine> own = new TreeMap<>(Cli.commandLine().getSubcommands());
        own.values().removeIf(c -> c.getCommand() instanceof CommandLine.HelpCommand);
        assertThat(own).containsKeys("demo", "run", "aggregate", "archive", "report", "query", "export");
        return own;
    }

    /** Ends like a sentence or a list item (a period, a colon, a closing bracket or quote). */
    private static final Pattern WHOLE = Pattern.compile("(?s).*[.:)\\]'`\"]$");

    @ParameterizedTest
    @ValueSource(strings = {"--version", "-V"})
    void version(String flag) {
        Outcome o = execute(flag);
        assertThat(o.exitCode()).isZero();
        assertThat(o.out()).startsWith("tailstream ");
    }
}
