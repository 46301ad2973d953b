package dev.snowfleet;

import java.time.Instant;

/**
 * The fields of an id. {@code datacenterId} and {@code machineId} are the two halves of
 * {@code nodeId} (for an unsplit layout datacenterId is 0 and machineId equals nodeId).
 *
 * @param timestampMs Unix milliseconds
 * @param nodeId the whole node field
 * @param datacenterId the node field's high part (split layouts)
 * @param machineId the node field's low part
 * @param sequence the sequence field
 */
public record Decoded(long timestampMs, long nodeId, long datacenterId, long machineId, long sequence) {
    /** The timestamp as an {@link Instant}. */
    public Instant instant() {
        return Instant.ofEpochMilli(timestampMs);
    }
}
