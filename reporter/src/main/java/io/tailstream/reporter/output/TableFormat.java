package io.tailstream.reporter.output;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How the command-line tools ({@code query}, {@code runs}, {@code compare}) print a table of rows: an aligned text
 * {@link #TABLE} (numbers right-aligned, NULL shown as {@code NULL}, at most a given number of rows), {@link #CSV}
 * (RFC 4180 through {@link Csv}, header line, empty field for NULL, every row) or {@link #JSON} (an array of
 * objects, one per row and line, numbers as JSON numbers, every row, written with Jackson's streaming generator).
 * CSV and JSON stream row by row, so any result size works. Stateless and thread safe; each {@link #open} returns a
 * writer for one result. (The report's own formats are {@code reporter.report.ReportFormat}.)
 */
public enum TableFormat {
    TABLE, CSV, JSON;

    private static final JsonFactory JSON_FACTORY = JsonFactory.builder()
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .build();

    /** Parses {@code table}, {@code csv} or {@code json} (any case). */
    public static TableFormat parse(String s) {
        for (TableFormat f : values()) {
            if (f.name().equalsIgnoreCase(s)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown format '" + s + "'; use table, csv or json");
    }

    /** Rows of one result, written in this format; {@link #close()} finishes the output and says how many rows. */
    public interface RowWriter extends AutoCloseable {

        /** One row, a value per column (null for NULL); numbers stay numbers in JSON. */
        void row(List<?> values);

        /** Finishes the output (the table itself, the closing bracket) and flushes nothing beyond it. */
        @Override
        void close();

        /** Rows written. */
        long rows();
    }

    /**
     * A writer for one result of the given columns.
     *
     * @param tableRowLimit {@link #TABLE} only: rows shown; the count of the rest is printed after the table
     */
    public RowWriter open(Writer out, List<String> columns, int tableRowLimit) {
        return open(out, columns, tableRowLimit, "row");
    }

    /**
     * A writer for one result of the given columns.
     *
     * @param tableRowLimit {@link #TABLE} only: rows shown; the count of the rest is printed after the table
     * @param rowNoun       {@link #TABLE} only: what a row is, for the count under the table ("(3 runs)")
     */
    public RowWriter open(Writer out, List<String> columns, int tableRowLimit, String rowNoun) {
        try {
            return switch (this) {
                case TABLE -> new TableWriter(out, columns, tableRowLimit, rowNoun);
                case CSV -> new CsvWriter(out, columns);
                case JSON -> new JsonWriter(out, columns);
            };
        } catch (IOException e) {
            throw new UncheckedIOException("writing the result", e);
        }
    }

    /**
     * Writes the whole result set.
     *
     * @param tableRowLimit {@link #TABLE} only: rows shown; the count of the rest is printed after the table
     * @return rows in the result
     */
    public long write(ResultSet rs, Writer out, int tableRowLimit) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        List<String> columns = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            columns.add(md.getColumnLabel(i));
        }
        try (RowWriter w = open(out, columns, tableRowLimit)) {
            Object[] row = new Object[columns.size()];
            while (rs.next()) {
                for (int i = 0; i < row.length; i++) {
                    row[i] = rs.getObject(i + 1);
                }
                w.row(Arrays.asList(row));
            }
            return w.rows();
        }
    }

    /** Keeps the first rows in memory to size the columns; prints them, and the count of the rest, at close. */
    private static final class TableWriter implements RowWriter {
        private final Writer out;
        private final List<String> columns;
        private final int limit;
        private final String noun;
        private final boolean[] numeric;
        private final List<String[]> shown = new ArrayList<>();
        private long rows;

        TableWriter(Writer out, List<String> columns, int limit, String noun) {
            this.out = out;
            this.columns = List.copyOf(columns);
            this.limit = limit;
            this.noun = noun;
            this.numeric = new boolean[columns.size()];
        }

        @Override
        public void row(List<?> values) {
            rows++;
            if (shown.size() >= limit) {
                return;
            }
            String[] cells = new String[columns.size()];
            for (int i = 0; i < cells.length; i++) {
                Object v = values.get(i);
                cells[i] = v == null ? "NULL" : Values.text(v);
                numeric[i] |= v instanceof Number;
            }
            shown.add(cells);
        }

        @Override
        public long rows() {
            return rows;
        }

        @Override
        public void close() {
            int n = columns.size();
            int[] width = new int[n];
            for (int i = 0; i < n; i++) {
                width[i] = columns.get(i).length();
                for (String[] r : shown) {
                    width[i] = Math.max(width[i], r[i].length());
                }
            }
            String[] rule = new String[n];
            for (int i = 0; i < n; i++) {
                rule[i] = "-".repeat(width[i]);
            }
            try {
                line(columns.toArray(String[]::new), width, numeric);
                line(rule, width, new boolean[n]);
                for (String[] r : shown) {
                    line(r, width, numeric);
                }
                if (rows > shown.size()) {
                    out.append(String.format(Locale.ROOT, "... %,d more %ss (%,d in all; --format csv or json"
                            + " prints every %s)%n", rows - shown.size(), noun, rows, noun));
                } else {
                    out.append(String.format(Locale.ROOT, "(%,d %s%s)%n", rows, noun, rows == 1 ? "" : "s"));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("writing the result", e);
            }
        }

        private void line(String[] cells, int[] width, boolean[] right) throws IOException {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < cells.length; i++) {
                if (i > 0) {
                    sb.append("  ");
                }
                String pad = " ".repeat(width[i] - cells[i].length());
                sb.append(right[i] ? pad + cells[i] : cells[i] + (i == cells.length - 1 ? "" : pad));
            }
            out.append(sb).append(System.lineSeparator());
        }
    }

    private static final class CsvWriter implements RowWriter {
        private final Writer out;
        private long rows;

        CsvWriter(Writer out, List<String> columns) throws IOException {
            this.out = out;
            Csv.record(out, columns);
        }

        @Override
        public void row(List<?> values) {
            try {
                Csv.record(out, values);
            } catch (IOException e) {
                throw new UncheckedIOException("writing the result", e);
            }
            rows++;
        }

        @Override
        public long rows() {
            return rows;
        }

        @Override
        public void close() {}
    }

    /** {@code [}, one object per line, {@code ]}: easy to read, to diff and to cut with line tools. */
    private static final class JsonWriter implements RowWriter {
        private final JsonGenerator json;
        private final List<String> columns;
        private long rows;

        JsonWriter(Writer out, List<String> columns) throws IOException {
            this.columns = List.copyOf(columns);
            this.json = JSON_FACTORY.createGenerator(out);
            json.setPrettyPrinter(new OneObjectPerLine());
            json.writeStartArray();
        }

        @Override
        public void row(List<?> values) {
            try {
                json.writeStartObject();
                for (int i = 0; i < columns.size(); i++) {
                    json.writeFieldName(columns.get(i));
                    value(values.get(i));
                }
                json.writeEndObject();
            } catch (IOException e) {
                throw new UncheckedIOException("writing the result", e);
            }
            rows++;
        }

        private void value(Object v) throws IOException {
            if (v == null) {
                json.writeNull();
            } else if (v instanceof Boolean b) {
                json.writeBoolean(b);
            } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
                json.writeNumber(((Number) v).longValue());
            } else if (v instanceof BigInteger b) {
                json.writeNumber(b);
            } else if (v instanceof BigDecimal b) {
                json.writeNumber(b);
            } else if ((v instanceof Double || v instanceof Float) && Double.isFinite(((Number) v).doubleValue())) {
                json.writeNumber(new BigDecimal(Values.text(v)));
            } else {
                json.writeString(Values.text(v)); // NaN and infinities have no JSON number
            }
        }

        @Override
        public long rows() {
            return rows;
        }

        @Override
        public void close() {
            try {
                json.writeEndArray();
                json.writeRaw(System.lineSeparator());
                json.flush();
            } catch (IOException e) {
                throw new UncheckedIOException("writing the result", e);
            }
        }
    }

    /** Compact objects, each array element on a line of its own. */
    private static final class OneObjectPerLine extends MinimalPrettyPrinter {
        @Override
        public void beforeArrayValues(JsonGenerator g) throws IOException {
            g.writeRaw('\n');
        }

        @Override
        public void writeArrayValueSeparator(JsonGenerator g) throws IOException {
            g.writeRaw(",\n");
        }

        @Override
        public void writeEndArray(JsonGenerator g, int nrOfValues) throws IOException {
            g.writeRaw(nrOfValues == 0 ? "]" : "\n]");
        }
    }
}
