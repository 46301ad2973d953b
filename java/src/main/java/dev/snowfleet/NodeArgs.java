package dev.snowfleet;

/**
 * The node of an id as a caller gives it to {@link Snowfleet#compose(long, NodeArgs, long,
 * Layout)}: a node id, or a datacenter id and a machine id. A null component is not given. The
 * core decides which combinations are valid (exactly one form, both halves together).
 *
 * @param nodeId the whole node field, or null
 * @param datacenterId the node field's high part, or null
 * @param machineId the node field's low part, or null
 */
public record NodeArgs(Long nodeId, Long datacenterId, Long machineId) {
    /** The node as its whole field. */
    public static NodeArgs of(long nodeId) {
        return new NodeArgs(nodeId, null, null);
    }

    /** The node as datacenter + machine. */
    public static NodeArgs of(long datacenterId, long machineId) {
        return new NodeArgs(null, datacenterId, machineId);
    }
}
