package dev.snowfleet;

import dev.snowfleet.internal.jni.SnowfleetNative;

/**
 * The state of a generator's node-id lease ({@link Status#leaseState()}). The constants
 * mirror the core's enum, in order; node sources "local" and "etcd" lease the node id.
 */
public enum LeaseState {
    /** No lease: the node id came from nodeId, "static", "env" or "k8s" (nothing to lose). */
    NONE,
    /** The slot is ours and confirmed: ids may be minted. */
    HELD,
    /**
     * etcd: the local deadline has passed without a confirmed keepalive. Calls throw
     * {@link LeaseLostException}; minting resumes by itself once a keepalive confirms the lease.
     */
    UNCONFIRMED,
    /** The store says the lease or the slot is no longer ours: create a new generator. */
    LOST,
    /** {@link Generator#close()} released the lease. */
    RELEASED;

    /** The core's name: "none", "held", "unconfirmed", "lost" or "released". */
    public String text() {
        return SnowfleetNative.leaseStateName(ordinal());
    }

    /** The constant the core names {@code text}: how a Status's lease state crosses JNI. */
    static LeaseState fromText(String text) {
        for (LeaseState s : values()) {
            if (s.text().equals(text)) {
                return s;
            }
        }
        throw new InternalErrorException("the core named an unknown lease state '" + text + "'");
    }
}
