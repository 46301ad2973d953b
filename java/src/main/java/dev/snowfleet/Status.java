package dev.snowfleet;

/**
 * Whether a generator can issue ids right now (a service maps {@code !healthy()} to 503).
 *
 * @param healthy whether a call now would be served
 * @param reason why not; empty when healthy
 * @param wallMs the wall reading taken for this status, Unix ms
 * @param lastMs Unix ms of the last issued id, -1 before the first
 * @param driftMs max(0, lastMs - wallMs): how far the generator runs ahead
 * @param nodeId the generator's node id
 * @param mode the generator's mode
 * @param leaseState {@link LeaseState#NONE} unless the node id is leased ("local", "etcd")
 * @param markMs the slot's persisted high-water mark, Unix ms: no later holder of the slot
 *     issues an id at or below it; -1 without a lease
 * @param leaseExpiresInMs etcd: ms until the local lease deadline (negative once past it);
 *     -1 when the lease cannot expire while the process lives ("local") or there is no lease
 * @param markHeadroomMs how far the persisted mark runs ahead of the later of lastMs and
 *     wallMs (0 when it does not: calls wait for a mark write); -1 without a lease
 */
public record Status(boolean healthy, String reason, long wallMs, long lastMs, long driftMs,
        long nodeId, Mode mode, LeaseState leaseState, long markMs, long leaseExpiresInMs,
        long markHeadroomMs) {}
