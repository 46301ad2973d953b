package dev.snowfleet;

/** The node-id lease could not be confirmed in time; minting stops until it is. Core code {@value #CODE}. */
public class LeaseLostException extends SnowfleetException {
    private static final long serialVersionUID = 1L;
    /** The core's stable code for this kind. */
    public static final String CODE = "LEASE_LOST";

    /** @param message the core's message */
    public LeaseLostException(String message) {
        super(CODE, message);
    }
}
