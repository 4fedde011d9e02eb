package io.tailstream.producer.group;

/** The producers of a shared run cannot agree: they run different plans, or the control topic cannot be read. */
final class GroupException extends RuntimeException {

    public GroupException(String message) {
        super(message);
    }

    public GroupException(String message, Throwable cause) {
        super(message, cause);
    }
}
