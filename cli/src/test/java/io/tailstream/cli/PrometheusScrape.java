package io.tailstream.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One scrape of a Prometheus text endpoint: every sample line as {@code name{labels}} (labels as printed) to its
 * value, and the metric names. Also what tests need around it: a stdout that keeps what is printed, to find the URL
 * a command prints.
 */
final class PrometheusScrape {

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Pattern LINE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*})?\\s+(\\S+)");

    final String text;
    final Map<String, Double> series = new LinkedHashMap<>();
    final Set<String> names = new TreeSet<>();

    private PrometheusScrape(String text) {
        this.text = text;
        for (String line : text.split("\n")) {
            Matcher m = LINE.matcher(line);
            if (line.startsWith("#") || !m.find()) {
                continue;
            }
            names.add(m.group(1));
            series.put(m.group(1) + (m.group(2) == null ? "" : m.group(2)), parse(m.group(3)));
        }
    }

    private static double parse(String value) {
        return switch (value) {
            case "NaN" -> Double.NaN;
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(value);
        };
    }

    /** The text of the last scrape (of any endpoint), for failure messages. */
    private static volatile String last = "";

    /** A condition that gives a value once met, else null; an IOException counts as not yet (not listening). */
    @FunctionalInterface
    interface Probe<T> {
        T get() throws Exception;
    }

    /**
     * Polls {@code probe} every 100 ms until it gives non-null; fails, showing the last scrape, when
     * {@code commandEnded} says the command under test ended first, or after {@code seconds}.
     */
    static <T> T await(Probe<T> probe, int seconds, BooleanSupplier commandEnded) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            T value;
            try {
                value = probe.get();
            } catch (IOException e) {
                value = null;
            }
            if (value != null) {
                return value;
            }
            assertThat(commandEnded.getAsBoolean()).as("the command ended before the condition was met; last"
                    + " scrape:\n" + last).isFalse();
            assertThat(System.nanoTime()).as("condition met within " + seconds + " s; last scrape:\n" + last)
                    .isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    /** GETs {@code url}; fails unless it answers 200 with the Prometheus text content type. */
    static PrometheusScrape of(String url) throws IOException, InterruptedException {
        HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200 || !r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain")) {
            throw new IllegalStateException(url + " answered " + r.statusCode() + " " + r.headers().map());
        }
        last = r.body();
        return new PrometheusScrape(r.body());
    }

    /** The value of one series, e.g. {@code tailstream_archiver_lag_records{topic="tailstream.samples"}}; NaN if absent. */
    double value(String series) {
        return this.series.getOrDefault(series, Double.NaN);
    }

    /** The sum of every series of a metric (0 if none). */
    double sum(String name) {
        double total = 0;
        for (Map.Entry<String, Double> e : series.entrySet()) {
            String key = e.getKey();
            if (key.equals(name) || key.startsWith(name + "{")) {
                total += e.getValue();
            }
        }
        return total;
    }

    /**
     * System.out replaced by a stream that keeps what is printed and passes it on; {@link #close()} puts the old one
     * back.
     */
    static final class Stdout implements AutoCloseable {
        private final PrintStream original = System.out;
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();

        Stdout() {
            OutputStream tee = new OutputStream() {
                @Override
                public void write(int b) {
                    synchronized (kept) {
                        kept.write(b);
                    }
                    original.write(b);
                }

                @Override
                public void write(byte[] b, int off, int len) {
                    synchronized (kept) {
                        kept.write(b, off, len);
                    }
                    original.write(b, off, len);
                }
            };
            System.setOut(new PrintStream(tee, true, StandardCharsets.UTF_8));
        }

        String text() {
            synchronized (kept) {
                return kept.toString(StandardCharsets.UTF_8);
            }
        }

        /** The first URL printed after {@code prefix} (e.g. "archiver metrics on "), or null. */
        String urlAfter(String prefix) {
            Matcher m = Pattern.compile(Pattern.quote(prefix) + "(http://\\S+)").matcher(text());
            return m.find() ? m.group(1) : null;
        }

        @Override
        public void close() {
            System.setOut(original);
        }
    }
}
