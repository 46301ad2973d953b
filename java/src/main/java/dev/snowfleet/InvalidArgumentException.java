package dev.snowfleet;

/**
 * An argument is outside its domain: a node id or sequence too large, a malformed layout, a
 * negative id. The message names the bad value. Core code {@value #CODE}; nothing changed.
 */
public class InvalidArgumentException extends IllegalArgumentException implements SnowfleetFailure {
    private static final long serialVersionUID = 1L;
    /** The core's stable code for this kind. */
    public static final String CODE = "INVALID_ARGUMENT";

    /** @param message the core's message */
    public InvalidArgumentException(String message) {
        super(message);
    }

    @Override
    public String code() {
        return CODE;
    }
}
