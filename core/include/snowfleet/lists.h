/* snowfleet: every list that crosses a language boundary, written once.
 *
 * Plain C99 preprocessor lists (X-macros), included by the C++ headers, the C ABI and every
 * binding, which expand them into their own types, tables, parsers and records instead of
 * keeping copies that can drift. The entries carry no language's types: a value's kind is a
 * bare token that each consumer maps to its own type:
 *
 *   I64          a signed 64-bit integer
 *   U64          an unsigned 64-bit counter
 *   F64          a double
 *   BOOL         a boolean
 *   TEXT         a UTF-8 string
 *   LAYOUT       a layout (a host's Layout object, or its text form)
 *   MODE         a generator mode: "strict" or "monotonic" (enum value 0 or 1)
 *   LEASE_STATE  a lease state: "none", "held", "unconfirmed", "lost", "released" (0..4)
 *   CLOCK        a clock (a test's scripted clock; absent: the system clock)
 *
 * Names: the snake_case name is canonical (C++, Python, the CLI's JSON, conformance vectors,
 * messages); the camelCase name is Node's and Java's. Every list's order is part of its
 * contract: bindings exchange values in it, and conformance/vectors/arguments.json pins it
 * (each language's runner checks its records against the vectors).
 */
#ifndef SNOWFLEET_LISTS_H
#define SNOWFLEET_LISTS_H

/* ---- error kinds ---------------------------------------------------------------------------
 * X(enumerator, CODE, "ClassName", "category", "summary")
 *   enumerator  the C++ ErrorKind enumerator
 *   CODE        the stable code as a bare token: #CODE is the text conformance vectors and
 *               every binding's `.code` carry
 *   ClassName   the exception class name in the bindings
 *   category    which host exception family it belongs to, by meaning: "argument" (the
 *               caller passed something outside its domain: ValueError / RangeError /
 *               IllegalArgumentException), "range" (a time outside the layout's window:
 *               OverflowError / RangeError), "clock" / "state" / "unavailable" / "internal"
 *               (runtime conditions: RuntimeError / Error / RuntimeException)
 *   summary     one line for documentation
 * Entry i is the C++ enum's value i and the C interface's result i + 1 (snowfleet.h, whose
 * result 0 is success). */
#define SNOWFLEET_ERROR_KINDS(X)                                                          \
  X(kInvalidArgument, INVALID_ARGUMENT, "InvalidArgument", "argument",                    \
    "An argument is outside its domain: a node id or sequence too large, a malformed "    \
    "layout, a negative id.")                                                             \
  X(kTimestampOutOfRange, TIMESTAMP_OUT_OF_RANGE, "TimestampOutOfRange", "range",         \
    "A timestamp is before the layout's epoch or past the end of its timestamp window.")  \
  X(kClockMovedBackwards, CLOCK_MOVED_BACKWARDS, "ClockMovedBackwards", "clock",          \
    "The wall clock is behind a millisecond already issued from (or stopped) for longer " \
    "than the wait budget; nothing was issued.")                                          \
  X(kForkDetected, FORK_DETECTED, "ForkDetected", "state",                                \
    "The generator, with a static node id, was created before a fork(); using it in the " \
    "child would mint the parent's ids (a leased one claims a slot of its own instead).") \
  X(kGeneratorClosed, GENERATOR_CLOSED, "GeneratorClosed", "state",                       \
    "The generator was closed; its node id may already belong to someone else.")          \
  X(kNodeIdUnavailable, NODE_ID_UNAVAILABLE, "NodeIdUnavailable", "unavailable",          \
    "The node-id source could not provide a node id (no free slot, store unreachable).")  \
  X(kLeaseLost, LEASE_LOST, "LeaseLost", "unavailable",                                   \
    "The node-id lease could not be confirmed in time; minting stops until it is.")       \
  X(kInternal, INTERNAL, "InternalError", "internal",                                     \
    "An unexpected failure inside snowfleet (a bug, or the system refused a resource).")

/* ---- a generator's arguments ---------------------------------------------------------------
 * X(name, "camelName", KIND, "doc"): what a user gives when creating a generator, in any
 * language, every one optional. The core's GeneratorArgs has one member per entry, Python's
 * keyword parsing, Node's option keys and Java's builder setters are expanded from it, and
 * resolve_options() applies the rules (which go together, defaults, ranges). */
#define SNOWFLEET_GENERATOR_ARGS(X)                                                       \
  X(layout, "layout", LAYOUT, "The layout of every id (default: the default layout).")    \
  X(node_id, "nodeId", I64, "The node id, 0 .. the layout's largest node id.")            \
  X(datacenter_id, "datacenterId", I64,                                                   \
    "The node field's high part; with machine_id, the node as two halves.")               \
  X(machine_id, "machineId", I64, "The node field's low part; with datacenter_id.")       \
  X(node_source, "nodeSource", TEXT,                                                      \
    "Where the node id comes from: \"static:37\", \"env:VAR\", \"k8s[:OFFSET]\", "        \
    "\"local[:DIR][?share=NAME]\", \"etcd://host:port/prefix\", \"postgres://...\", "      \
    "\"k8s-lease://PREFIX\" (the last four lease it).")                                   \
  X(mode, "mode", MODE, "\"strict\" (the default) or \"monotonic\".")                     \
  X(max_wait_ms, "maxWaitMs", F64,                                                        \
    "Rewinds up to this many ms are waited out, larger ones refused (default 5).")        \
  X(max_drift_ms, "maxDriftMs", I64,                                                      \
    "Monotonic mode: how far ahead of the wall clock ids may run, in ms (default 1000).") \
  X(clock, "clock", CLOCK, "A scripted clock for deterministic tests (default: the system clock).")

/* ---- a layout's properties -----------------------------------------------------------------
 * X(name, "camelName", KIND, "doc"): name is the C++ accessor (layout.name()) and the Python
 * property; camelName Node's property and Java's getter. Order: the six fields a layout is
 * created from, then the values derived from them. */
#define SNOWFLEET_LAYOUT_FIELDS(X)                                                           \
  X(epoch_ms, "epochMs", I64, "Unix ms of timestamp 0.")                                     \
  X(timestamp_bits, "timestampBits", I64, "Width of the timestamp field.")                   \
  X(node_bits, "nodeBits", I64, "Width of the node field (datacenter_bits + machine_bits).") \
  X(datacenter_bits, "datacenterBits", I64,                                                  \
    "Width of the node field's high part (0 when the node is not split).")                   \
  X(machine_bits, "machineBits", I64,                                                        \
    "Width of the node field's low part (node_bits when the node is not split).")            \
  X(sequence_bits, "sequenceBits", I64, "Width of the per-millisecond sequence.")            \
  X(timestamp_shift, "timestampShift", I64,                                                  \
    "Bit position of the timestamp field (node_bits + sequence_bits).")                      \
  X(node_shift, "nodeShift", I64, "Bit position of the node field (sequence_bits).")         \
  X(max_node_id, "maxNodeId", I64, "Largest node id: 2^node_bits - 1.")                      \
  X(max_datacenter_id, "maxDatacenterId", I64, "Largest datacenter id (0 when unsplit).")    \
  X(max_machine_id, "maxMachineId", I64, "Largest machine id.")                              \
  X(max_sequence, "maxSequence", I64, "Largest sequence: ids per millisecond per node - 1.") \
  X(max_elapsed_ms, "maxElapsedMs", I64,                                                     \
    "Largest value of the timestamp field: 2^timestamp_bits - 1.")                           \
  X(max_timestamp_ms, "maxTimestampMs", I64,                                                 \
    "Last Unix ms the layout can represent: epoch_ms + max_elapsed_ms.")

/* ---- Stats and Status ----------------------------------------------------------------------
 * X(name, "camelName", KIND, init, "doc"): init is the value before anything happened, as an
 * integer (0 for BOOL false, TEXT empty, MODE strict, LEASE_STATE none). Every binding
 * builds its records by expanding these lists; MODE and LEASE_STATE cross to the hosts as
 * their names. */

/* Stats: counters, monotonically increasing over the generator's life. */
#define SNOWFLEET_STATS_FIELDS(X)                                                              \
  X(ids_issued, "idsIssued", U64, 0, "Ids returned to callers.")                               \
  X(rewinds_seen, "rewindsSeen", U64, 0,                                                       \
    "Wall readings that were behind the highest reading this generator had seen.")             \
  X(waits, "waits", U64, 0,                                                                    \
    "Calls that had to wait (rewind inside the budget, spent millisecond, drift limit).")      \
  X(waited_ns_total, "waitedNsTotal", U64, 0, "Total time those calls waited, in ns.")         \
  X(waited_ns_max, "waitedNsMax", U64, 0, "Longest single wait, in ns.")                       \
  X(refusals, "refusals", U64, 0,                                                              \
    "Calls refused because the clock was unusable (ClockMovedBackwards, "                      \
    "TimestampOutOfRange).")                                                                   \
  X(ms_borrowed, "msBorrowed", U64, 0,                                                         \
    "Monotonic mode: milliseconds the logical clock moved past both its last millisecond and " \
    "the wall clock because a millisecond's sequence ran out.")                                \
  X(mark_writes, "markWrites", U64, 0,                                                         \
    "Leased node ids: high-water marks persisted (about two a second while minting, plus one " \
    "at close()). 0 without a lease.")                                                         \
  X(lease_refusals, "leaseRefusals", U64, 0, "Calls refused with LeaseLost.")                  \
  X(mark_write_failures, "markWriteFailures", U64, 0,                                          \
    "Leased node ids: high-water mark writes that failed (disk full, registry unwritable, "    \
    "store unreachable); retried every tick. Calls past the persisted mark are refused while " \
    "they fail. 0 without a lease.")                                                           \
  X(lease_renewal_failures, "leaseRenewalFailures", U64, 0,                                    \
    "etcd: keepalives that failed (store unreachable or refusing); the lease goes "            \
    "'unconfirmed' at its local deadline if none succeeds. 0 for 'local' (its lock cannot "    \
    "expire) and without a lease.")

/* Status: whether the generator can issue ids right now; a service maps !healthy to 503. */
#define SNOWFLEET_STATUS_FIELDS(X)                                                              \
  X(healthy, "healthy", BOOL, 0, "True when a call now would be served.")                       \
  X(reason, "reason", TEXT, 0, "Why not, in words; empty when healthy.")                        \
  X(wall_ms, "wallMs", I64, 0, "The wall reading taken for this status, Unix ms.")              \
  X(last_ms, "lastMs", I64, -1, "Unix ms of the last issued id (-1 before the first).")         \
  X(drift_ms, "driftMs", I64, 0,                                                                \
    "max(0, last_ms - wall_ms): how far the generator runs ahead of the wall clock.")           \
  X(node_id, "nodeId", I64, 0, "The node id in every id.")                                      \
  X(mode, "mode", MODE, 0, "'strict' or 'monotonic'.")                                          \
  X(lease_state, "leaseState", LEASE_STATE, 0,                                                  \
    "'none' unless the node id is leased ('local', 'etcd'); then 'held', 'unconfirmed' "        \
    "(etcd, past the local deadline), 'lost' or 'released' (after close()).")                   \
  X(mark_ms, "markMs", I64, -1,                                                                 \
    "The slot's persisted high-water mark, Unix ms: no later holder of the slot issues an id "  \
    "at or below it. -1 without a lease.")                                                      \
  X(lease_expires_in_ms, "leaseExpiresInMs", I64, -1,                                           \
    "etcd: ms until the local lease deadline (negative once past it). -1 when the lease "       \
    "cannot expire while the process lives ('local') or there is no lease.")                    \
  X(mark_headroom_ms, "markHeadroomMs", I64, -1,                                                \
    "How far the persisted mark runs ahead of the later of last_ms and wall_ms, in ms (0 when " \
    "it does not: calls wait for a mark write, and refuse while writes fail). -1 without a "    \
    "lease.")

#endif /* SNOWFLEET_LISTS_H */
