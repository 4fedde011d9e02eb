package io.tailstream.producer.plan;

/**
 * A plan file is unreadable or invalid. The message names the file, the line (and column), the field (a path such as
 * {@code targets[1].monthlyCost}) and the bad value; {@link #line()} and {@link #field()} give them to tools.
 */
public final class PlanException extends RuntimeException {

    private final String file;
    private final int line;
    private final String field;

    public PlanException(String file, int line, int column, String field, String problem, Throwable cause) {
        super(file + (line > 0 ? ":" + line + (column > 0 ? ":" + column : "") : "")
                + (field == null || field.isEmpty() ? "" : ": " + field) + ": " + problem, cause);
        this.file = file;
        this.line = line;
        this.field = field;
    }

    /** The plan file as named by the user. */
    public String file() {
        return file;
    }

    /** 1-based line, or 0 when unknown. */
    public int line() {
        return line;
    }

    /** Path of the offending field ({@code targets[0].url}), or empty for the whole file. */
    public String field() {
        return field;
    }
}
