package dev.snowfleet;

/** The node-id source could not provide a node id (no free slot, store unreachable). Core code {@value #CODE}. */
public class NodeIdUnavailableException extends SnowfleetException {
    private static final long serialVersionUID = 1L;
    /** The core's stable code for this kind. */
    public static final String CODE = "NODE_ID_UNAVAILABLE";

    /** @param message the core's message */
    public NodeIdUnavailableException(String message) {
        super(CODE, message);
    }
}
