package dev.snowfleet;

/** The generator was closed; its node id may already belong to someone else. Core code {@value #CODE}. */
public class GeneratorClosedException extends SnowfleetException {
    private static final long serialVersionUID = 1L;
    /** The core's stable code for this kind. */
    public static final String CODE = "GENERATOR_CLOSED";

    /** @param message the core's message */
    public GeneratorClosedException(String message) {
        super(CODE, message);
    }
}
