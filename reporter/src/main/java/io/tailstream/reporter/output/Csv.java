package io.tailstream.reporter.output;

import java.io.IOException;
import java.util.List;

/**
 * RFC 4180 CSV: a field holding a comma, a double quote or a line break is quoted (quotes doubled), a null is an
 * empty field, numbers read as {@link Values#text}, and every record ends with CRLF.
 */
public final class Csv {

    /** The record separator of RFC 4180. */
    public static final String RECORD_END = "\r\n";

    private Csv() {}

    /** One field, quoted where RFC 4180 requires it. */
    public static String field(Object value) {
        if (value == null) {
            return "";
        }
        String s = Values.text(value);
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    /** One record: the fields joined by commas, then {@link #RECORD_END}. */
    public static String record(List<?> values) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(field(values.get(i)));
        }
        return sb.append(RECORD_END).toString();
    }

    /** Appends {@link #record(List)}. */
    public static void record(Appendable out, List<?> values) throws IOException {
        out.append(record(values));
    }
}
