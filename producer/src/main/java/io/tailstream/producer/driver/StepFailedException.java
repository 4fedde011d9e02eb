package io.tailstream.producer.driver;

/**
 * A step could not run to its end: no connection, or an error that is not ignored. The message names the target and
 * the step and gives the cause in one line; the cause is kept for logs.
 */
public final class StepFailedException extends RuntimeException {

    private final transient StepResult partial;

    public StepFailedException(String message, Throwable cause, StepResult partial) {
        super(message, cause);
        this.partial = partial;
    }

    /** What the step measured before it stopped, or null if it never started. */
    public StepResult partial() {
        return partial;
    }
}
