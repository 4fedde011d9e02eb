package io.tailstream.reporter.query;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How {@code query} prints a result: an aligned text {@link #TABLE} (numbers right-aligned, NULL shown as
 * {@code NULL}, at most a given number of rows), {@link #CSV} (RFC 4180, header line, empty field for NULL, every
 * row) or {@link #JSON} (an array of objects, one per row, numbers as JSON numbers, every row). CSV and JSON stream
 * row by row, so any result size works. Stateless and thread safe.
 */
public enum ResultFormat {
    TABLE, CSV, JSON;

    /** Parses {@code table}, {@code csv} or {@code json} (any case). */
    public static ResultFormat parse(String s) {
        for (ResultFormat f : values()) {
            if (f.name().equalsIgnoreCase(s)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown format '" + s + "'; use table, csv or json");
    }

    /**
     * Writes the whole result set.
     *
     * @param tableRowLimit {@link #TABLE} only: rows shown; the count of the rest is printed after the table
     * @return rows in the result
     */
    public long write(ResultSet rs, Appendable out, int tableRowLimit) throws SQLException {
        try {
            return switch (this) {
                case TABLE -> writeTable(rs, out, tableRowLimit);
                case CSV -> writeCsv(rs, out);
                case JSON -> writeJson(rs, out);
            };
        } catch (IOException e) {
            throw new UncheckedIOException("writing the query result", e);
        }
    }

    private static List<String> columns(ResultSetMetaData md) throws SQLException {
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            out.add(md.getColumnLabel(i));
        }
        return out;
    }

    private static String text(Object v) {
        if (v instanceof Double d) {
            return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
        } else if (v instanceof Float f) {
            return BigDecimal.valueOf(f).stripTrailingZeros().toPlainString();
        } else if (v instanceof BigDecimal b) {
            return b.toPlainString();
        }
        return String.valueOf(v);
    }

    private static long writeTable(ResultSet rs, Appendable out, int limit) throws SQLException, IOException {
        List<String> cols = columns(rs.getMetaData());
        int n = cols.size();
        boolean[] numeric = new boolean[n];
        List<String[]> rows = new ArrayList<>();
        long total = 0;
        while (rs.next()) {
            total++;
            if (rows.size() >= limit) {
                continue;
            }
            String[] row = new String[n];
            for (int i = 0; i < n; i++) {
                Object v = rs.getObject(i + 1);
                row[i] = v == null ? "NULL" : text(v);
                numeric[i] |= v instanceof Number;
            }
            rows.add(row);
        }
        int[] width = new int[n];
        for (int i = 0; i < n; i++) {
            width[i] = cols.get(i).length();
            for (String[] r : rows) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        line(out, cols.toArray(String[]::new), width, numeric);
        String[] rule = new String[n];
        for (int i = 0; i < n; i++) {
            rule[i] = "-".repeat(width[i]);
        }
        line(out, rule, width, new boolean[n]);
        for (String[] r : rows) {
            line(out, r, width, numeric);
        }
        if (total > rows.size()) {
            out.append(String.format(Locale.ROOT, "... %,d more rows (%,d in all; --format csv or json prints every"
                    + " row)%n", total - rows.size(), total));
        } else {
            out.append(String.format(Locale.ROOT, "(%,d row%s)%n", total, total == 1 ? "" : "s"));
        }
        return total;
    }

    private static void line(Appendable out, String[] cells, int[] width, boolean[] right) throws IOException {
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

    private static long writeCsv(ResultSet rs, Appendable out) throws SQLException, IOException {
        List<String> cols = columns(rs.getMetaData());
        out.append(String.join(",", cols.stream().map(ResultFormat::csvField).toList())).append("\r\n");
        long total = 0;
        while (rs.next()) {
            total++;
            StringBuilder sb = new StringBuilder();
            for (int i = 1; i <= cols.size(); i++) {
                if (i > 1) {
                    sb.append(',');
                }
                Object v = rs.getObject(i);
                if (v != null) {
                    sb.append(csvField(text(v)));
                }
            }
            out.append(sb).append("\r\n");
        }
        return total;
    }

    static String csvField(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    private static long writeJson(ResultSet rs, Appendable out) throws SQLException, IOException {
        List<String> cols = columns(rs.getMetaData());
        out.append('[');
        long total = 0;
        while (rs.next()) {
            out.append(total == 0 ? "\n" : ",\n");
            total++;
            StringBuilder sb = new StringBuilder("{");
            for (int i = 1; i <= cols.size(); i++) {
                if (i > 1) {
                    sb.append(',');
                }
                sb.append(jsonString(cols.get(i - 1))).append(':');
                Object v = rs.getObject(i);
                if (v == null) {
                    sb.append("null");
                } else if (v instanceof Boolean b) {
                    sb.append(b);
                } else if (v instanceof Double d && (d.isNaN() || d.isInfinite())) {
                    sb.append(jsonString(d.toString()));
                } else if (v instanceof Number) {
                    sb.append(text(v));
                } else {
                    sb.append(jsonString(String.valueOf(v)));
                }
            }
            out.append(sb.append('}'));
        }
        out.append(total == 0 ? "]" : "\n]").append(System.lineSeparator());
        return total;
    }

    static String jsonString(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (ch < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
                    } else {
                        sb.append(ch);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
