package dev.snowfleet;

/** The generator was created before a fork(); using it in the child would mint the parent's ids. Core code {@value #CODE}. */
public class ForkDetectedException extends SnowfleetException {
    private static final long serialVersionUID = 1L;
    /** The core's stable code for this kind. */
    public static final String CODE = "FORK_DETECTED";

    /** @param message the core's message */
    public ForkDetectedException(String message) {
        super(CODE, message);
    }
}
