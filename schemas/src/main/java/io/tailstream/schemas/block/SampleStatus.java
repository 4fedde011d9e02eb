package io.tailstream.schemas.block;

/**
 * The outcome of one transaction, as carried in a sample. Codes are part of the wire format (4 bits): never
 * renumber, only append.
 */
public enum SampleStatus {
    OK(0),
    DEADLOCK(1),
    LOCK_WAIT_TIMEOUT(2),
    DUPLICATE_KEY(3),
    CONNECTION_LOST(4),
    OTHER_ERROR(5);

    /** Largest code the format can carry. */
    public static final int MAX_CODE = 15;

    private static final SampleStatus[] BY_CODE = new SampleStatus[MAX_CODE + 1];

    static {
        for (SampleStatus s : values()) {
            BY_CODE[s.code] = s;
        }
    }

    private final int code;

    SampleStatus(int code) {
        this.code = code;
    }

    /** The wire code, 0..15. */
    public int code() {
        return code;
    }

    public boolean isError() {
        return this != OK;
    }

    /**
     * The status of a wire code.
     *
     * @throws IllegalArgumentException for a code this version does not define
     */
    public static SampleStatus ofCode(int code) {
        SampleStatus s = code >= 0 && code <= MAX_CODE ? BY_CODE[code] : null;
        if (s == null) {
            throw new IllegalArgumentException("unknown sample status code " + code);
        }
        return s;
    }

    /** Lower-case name used in JSON and Parquet ({@code lock_wait_timeout}). */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
