package io.tailstream.producer.driver;

/**
 * A step could not run to its end: no connection, an error that is not ignored, or a target that stayed
 * unreachable. The message names the step and its target and gives the reason in one line ({@code step 3 (target
 * 'pg', oltp_read_write, 16 threads, round 1) failed: <reason>}); {@link #reason()} is the reason alone, as the
 * step's {@code failed: <reason>} outcome says it; the cause is kept for logs.
 */
public final class StepFailedException extends RuntimeException {

    private final String reason;
    private final transient StepResult partial;

    public StepFailedException(String stepDescription, String reason, Throwable cause, StepResult partial) {
        super(stepDescription + " failed: " + reason, cause);
        this.reason = reason;
        this.partial = partial;
    }

    /** Why the step failed, without the step's description. */
    public String reason() {
        return reason;
    }

    /** What the step measured before it stopped (its outcome says {@code failed: <reason>}), or null if none. */
    public StepResult partial() {
        return partial;
    }
}
