package io.tailstream.cli.command;

import java.io.PrintWriter;
import java.util.List;

/** Prints rows of text as an aligned table: the first row is the header, followed by a rule. */
final class Tables {

    private Tables() {}

    static void print(PrintWriter out, List<String[]> rows) {
        int n = rows.get(0).length;
        int[] width = new int[n];
        for (String[] r : rows) {
            for (int i = 0; i < n; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        for (int k = 0; k < rows.size(); k++) {
            line(out, rows.get(k), width);
            if (k == 0) {
                String[] rule = new String[n];
                for (int i = 0; i < n; i++) {
                    rule[i] = "-".repeat(width[i]);
                }
                line(out, rule, width);
            }
        }
    }

    private static void line(PrintWriter out, String[] cells, int[] width) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            if (i > 0) {
                sb.append("  ");
            }
            sb.append(cells[i]);
            if (i < cells.length - 1) {
                sb.append(" ".repeat(width[i] - cells[i].length()));
            }
        }
        out.println(sb);
    }
}
