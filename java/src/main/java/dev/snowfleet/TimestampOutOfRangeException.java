package dev.snowfleet;

/** A timestamp is before the layout's epoch or past the end of its timestamp window. Core code {@value #CODE}. */
public class TimestampOutOfRangeException extends SnowfleetException {
    private static final long serialVersionUID = 1L;
    /** The core's stable code for this kind. */
    public static final String CODE = "TIMESTAMP_OUT_OF_RANGE";

    /** @param message the core's message */
    public TimestampOutOfRangeException(String message) {
        super(CODE, message);
    }
}
