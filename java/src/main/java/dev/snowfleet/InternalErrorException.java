package dev.snowfleet;

/** An unexpected failure inside snowfleet (a bug, or the system refused a resource), or any C++ exception that is not a snowfleet error. Core code {@value #CODE}. */
public class InternalErrorException extends SnowfleetException {
    private static final long serialVersionUID = 1L;
    /** The core's stable code for this kind. */
    public static final String CODE = "INTERNAL";

    /** @param message the core's message */
    public InternalErrorException(String message) {
        super(CODE, message);
    }
}
