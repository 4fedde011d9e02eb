package io.tailstream.cli;

/** A failure whose message is complete for the user (what failed, where, what to do). */
public final class UserFacingException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public UserFacingException(String message) {
        super(message);
    }

    public UserFacingException(String message, Throwable cause) {
        super(message, cause);
    }
}
