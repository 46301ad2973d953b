package dev.snowfleet;

/**
 * A generator's counters, monotonically increasing over its life (exact once no call is in
 * flight).
 *
 * @param idsIssued ids handed out
 * @param rewindsSeen wall readings behind the highest reading seen so far
 * @param waits calls that had to wait (rewind inside the budget, spent millisecond, drift)
 * @param waitedNsTotal total time waited, ns
 * @param waitedNsMax longest single call's wait, ns
 * @param refusals calls refused because the clock was unusable
 * @param msBorrowed monotonic mode: milliseconds borrowed past the wall clock
 * @param markWrites leased node ids: high-water marks persisted (about two a second while
 *     minting, plus one at close()); 0 without a lease
 * @param leaseRefusals calls refused with {@link LeaseLostException}
 * @param markWriteFailures leased node ids: high-water mark writes that failed (disk full,
 *     registry unwritable, store unreachable), retried every tick; 0 without a lease
 * @param leaseRenewalFailures etcd: keepalives that failed (the lease goes
 *     {@link LeaseState#UNCONFIRMED} at its local deadline if none succeeds); 0 for "local"
 *     and without a lease
 */
public record Stats(long idsIssued, long rewindsSeen, long waits, long waitedNsTotal,
        long waitedNsMax, long refusals, long msBorrowed, long markWrites, long leaseRefusals,
        long markWriteFailures, long leaseRenewalFailures) {}
