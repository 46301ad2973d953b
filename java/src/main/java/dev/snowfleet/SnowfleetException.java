package dev.snowfleet;

/**
 * Base class of the runtime failures snowfleet reports: the clock, the generator's state,
 * the node-id source, the layout's time window, internal errors. Unchecked.
 *
 * <p>Each error kind of the core has exactly one subclass, named after the kind's class
 * name plus "Exception" (the native glue finds it by that name); invalid arguments are
 * {@link InvalidArgumentException}, an {@link IllegalArgumentException}.
 */
public class SnowfleetException extends RuntimeException implements SnowfleetFailure {
    private static final long serialVersionUID = 1L;
    private final String code;

    /**
     * @param code the core's stable code
     * @param message the core's message
     */
    protected SnowfleetException(String code, String message) {
        super(message);
        this.code = code;
    }

    @Override
    public String code() {
        return code;
    }
}
