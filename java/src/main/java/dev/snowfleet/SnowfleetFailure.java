package dev.snowfleet;

/**
 * Implemented by every exception snowfleet throws, so one {@code catch (RuntimeException e)}
 * plus {@code e instanceof SnowfleetFailure f} reaches the core's stable code whatever the
 * exception's base class ({@link SnowfleetException} or, for invalid arguments,
 * {@link IllegalArgumentException}).
 */
public interface SnowfleetFailure {
    /** The core's stable error code, e.g. "CLOCK_MOVED_BACKWARDS". */
    String code();
}
