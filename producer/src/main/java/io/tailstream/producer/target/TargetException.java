package io.tailstream.producer.target;

/** A target cannot be reached or does not behave as a benchmark needs; the message names the target. */
public final class TargetException extends RuntimeException {

    public TargetException(String message, Throwable cause) {
        super(message, cause);
    }
}
