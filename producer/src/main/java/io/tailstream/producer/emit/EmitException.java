package io.tailstream.producer.emit;

/** Samples or events could not be delivered; the message says which step and how many. */
final class EmitException extends RuntimeException {

    public EmitException(String message, Throwable cause) {
        super(message, cause);
    }
}
