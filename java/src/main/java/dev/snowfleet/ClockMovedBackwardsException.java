package dev.snowfleet;

/**
 * The wall clock is behind a millisecond already issued from (or stopped) for longer than
 * the wait budget; nothing was issued. Core code {@value #CODE}.
 */
public class ClockMovedBackwardsException extends SnowfleetException {
    private static final long serialVersionUID = 1L;
    /** The core's stable code for this kind. */
    public static final String CODE = "CLOCK_MOVED_BACKWARDS";
    private final long driftMs;

    /**
     * @param message the core's message
     * @param driftMs how far the clock was behind, in ms (0 when it stopped)
     */
    public ClockMovedBackwardsException(String message, long driftMs) {
        super(CODE, message);
        this.driftMs = driftMs;
    }

    /**
     * How many ms the clock was behind the last issued millisecond; 0 when the clock
     * stopped rather than retreated.
     */
    public long driftMs() {
        return driftMs;
    }
}
