// snowfleet public API: modes, lease states, generator options, the argument rulebook
// (resolve_options), Stats and Status.
// Included by <snowfleet/snowfleet.hpp>.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "snowfleet/clock.hpp"
#include "snowfleet/layout.hpp"

namespace snowfleet {

enum class Mode : int {
  /// The reference Snowflake (conformance/model/seed_reference.py): reads the wall clock
  /// for every id; waits out a rewind of up to max_wait_ms, refuses a larger one; waits
  /// (bounded) for the next millisecond when a millisecond's sequence is spent.
  kStrict = 0,
  /// The reference MonotonicSnowflake: a logical clock max(last_ms, now) that borrows the
  /// next millisecond on sequence overflow; never waits unless it would run more than
  /// max_drift_ms ahead of the wall clock.
  kMonotonic = 1,
};
/// "strict" or "monotonic".
const char* mode_name(Mode mode) noexcept;
/// Parses "strict" / "monotonic"; kInvalidArgument otherwise.
Mode parse_mode(std::string_view text);

/// The state of a leased node id (node sources "local" and "etcd").
enum class LeaseState : int {
  /// No lease: the node id came from node_id, "static", "env" or "k8s" (nothing to lose).
  kNone = 0,
  /// The slot is ours and confirmed: ids may be minted.
  kHeld = 1,
  /// etcd: the local deadline (last confirmed keepalive + TTL - margin) has passed and no
  /// keepalive has confirmed the lease since. Calls raise kLeaseLost; minting resumes by
  /// itself if a keepalive confirms the lease again.
  kUnconfirmed = 2,
  /// The store says the lease or the slot is no longer ours (expired, revoked, the slot file
  /// replaced). Calls raise kLeaseLost for good: create a new generator.
  kLost = 3,
  /// close() released the lease.
  kReleased = 4,
};
/// "none", "held", "unconfirmed", "lost" or "released".
const char* lease_state_name(LeaseState state) noexcept;

/// Hooks the core calls around every blocking wait (never on the fast path). The Python
/// binding releases the GIL here. enter() returns a token passed back to leave(). With a
/// leased node id they also surround the blocking lease steps: a high-water mark write
/// (about once a second: an fsync or an etcd round trip), waiting for another thread's
/// mark write, and the final mark write and release in close().
struct WaitHooks {
  void* (*enter)(void* context) = nullptr;
  void (*leave)(void* context, void* token) = nullptr;
  void* context = nullptr;
};

struct GeneratorOptions {
  Layout layout;
  /// The node id, 0 .. layout.max_node_id(). Required unless node_source is set.
  int64_t node_id = -1;
  /// Where the node id comes from, as one string shared by every language and the CLI:
  /// "static:37", "env:SNOWFLEET_NODE_ID", "k8s[:OFFSET]", "local[:DIR][?node=N]",
  /// "etcd://host:port/prefix?ttl=10". Empty: use node_id.
  ///
  /// "local" and "etcd" lease the node id (a slot nobody else holds while this generator
  /// lives) and persist a per-slot high-water mark: a generator never issues an id at or
  /// below the mark it found when it claimed the slot (strict mode refuses with
  /// kClockMovedBackwards naming the mark; monotonic mode starts after it). See
  /// docs/fleet.md.
  std::string node_source;
  Mode mode = Mode::kStrict;
  /// Rewinds up to this many ms are waited out, larger ones refused. Also bounds every
  /// wait for the clock inside one call (at least 1 ms, so a spent millisecond can roll
  /// over), plus at most as long again for its turn when other calls took the
  /// millisecond it waited for. Rounded to whole ns, halves away from zero.
  double max_wait_ms = 5.0;
  /// Monotonic mode: how far the logical clock may run ahead of the wall clock before the
  /// generator waits (bounded by max_wait_ms) or refuses. The default absorbs a
  /// 1-second step (a leap second) and the worked examples' 600 ms rewind.
  int64_t max_drift_ms = 1000;
  /// null: the system clock.
  std::shared_ptr<Clock> clock;
  WaitHooks wait_hooks;
};

/// A generator's options as a user writes them in any language: every field optional.
/// Bindings fill it from the host's arguments (converting types only) and the core applies
/// the one rulebook in resolve_options(), so every language accepts and refuses the same
/// combinations with the same words. The canonical names below are the ones messages use.
struct GeneratorArgs {
  std::optional<Layout> layout;            ///< default: the "default" layout
  std::optional<int64_t> node_id;          ///< the whole node field
  std::optional<int64_t> datacenter_id;    ///< with machine_id: the node as two halves
  std::optional<int64_t> machine_id;       ///< with datacenter_id
  std::optional<std::string> node_source;  ///< see GeneratorOptions::node_source
  std::optional<std::string> mode;         ///< "strict" (default) or "monotonic"
  std::optional<double> max_wait_ms;       ///< default 5
  std::optional<int64_t> max_drift_ms;     ///< default 1000
  std::shared_ptr<Clock> clock;            ///< null: the system clock
  WaitHooks wait_hooks;
};

/// Applies the rules every language shares, in this order, each failure a kInvalidArgument
/// naming the argument and the value:
///  1. node_source, when given, is not empty;
///  2. datacenter_id and machine_id come together;
///  3. exactly one of node_id, datacenter_id + machine_id, node_source is given;
///  4. datacenter_id / machine_id lie in the layout's fields (an unsplit layout has a
///     datacenter field of 0 bits: datacenter_id 0, machine_id the whole node field), and
///     become node_id = datacenter_id << machine_bits | machine_id;
///  5. mode is "strict" or "monotonic".
/// The remaining ranges (node_id, max_wait_ms, max_drift_ms) are checked by the Generator
/// constructor, which every path goes through.
GeneratorOptions resolve_options(GeneratorArgs args);

// The fields of Stats and Status, each written once. Columns: C++ type, name (the
// canonical snake_case name: C++, Python, the CLI's JSON), camelCase name (Node, Java),
// default, meaning. Every binding builds its record from these lists by expanding them, and
// each language's tests check its record's names and order against
// conformance/vectors/arguments.json, so no binding keeps a positional copy that can drift.
// Mode and LeaseState cross to the hosts as their names (mode_name, lease_state_name).

/// Stats: counters, monotonically increasing over the generator's life.
#define SNOWFLEET_STATS_FIELDS(X)                                                              \
  X(uint64_t, ids_issued, "idsIssued", 0, "Ids returned to callers.")                          \
  X(uint64_t, rewinds_seen, "rewindsSeen", 0,                                                  \
    "Wall readings that were behind the highest reading this generator had seen.")             \
  X(uint64_t, waits, "waits", 0,                                                               \
    "Calls that had to wait (rewind inside the budget, spent millisecond, drift limit).")      \
  X(uint64_t, waited_ns_total, "waitedNsTotal", 0, "Total time those calls waited, in ns.")    \
  X(uint64_t, waited_ns_max, "waitedNsMax", 0, "Longest single wait, in ns.")                  \
  X(uint64_t, refusals, "refusals", 0,                                                         \
    "Calls refused because the clock was unusable (ClockMovedBackwards, "                      \
    "TimestampOutOfRange).")                                                                   \
  X(uint64_t, ms_borrowed, "msBorrowed", 0,                                                    \
    "Monotonic mode: milliseconds the logical clock moved past both its last millisecond and " \
    "the wall clock because a millisecond's sequence ran out.")                                \
  X(uint64_t, mark_writes, "markWrites", 0,                                                    \
    "Leased node ids: high-water marks persisted (about two a second while minting, plus one " \
    "at close()). 0 without a lease.")                                                         \
  X(uint64_t, lease_refusals, "leaseRefusals", 0, "Calls refused with LeaseLost.")             \
  X(uint64_t, mark_write_failures, "markWriteFailures", 0,                                     \
    "Leased node ids: high-water mark writes that failed (disk full, registry unwritable, "    \
    "store unreachable); retried every tick. Calls past the persisted mark are refused while " \
    "they fail. 0 without a lease.")                                                           \
  X(uint64_t, lease_renewal_failures, "leaseRenewalFailures", 0,                               \
    "etcd: keepalives that failed (store unreachable or refusing); the lease goes "            \
    "'unconfirmed' at its local deadline if none succeeds. 0 for 'local' (its lock cannot "    \
    "expire) and without a lease.")

/// Status: whether the generator can issue ids right now; a service maps !healthy to 503.
#define SNOWFLEET_STATUS_FIELDS(X)                                                              \
  X(bool, healthy, "healthy", false, "True when a call now would be served.")                   \
  X(std::string, reason, "reason", "", "Why not, in words; empty when healthy.")                \
  X(int64_t, wall_ms, "wallMs", 0, "The wall reading taken for this status, Unix ms.")          \
  X(int64_t, last_ms, "lastMs", -1, "Unix ms of the last issued id (-1 before the first).")     \
  X(int64_t, drift_ms, "driftMs", 0,                                                            \
    "max(0, last_ms - wall_ms): how far the generator runs ahead of the wall clock.")           \
  X(int64_t, node_id, "nodeId", 0, "The node id in every id.")                                  \
  X(Mode, mode, "mode", Mode::kStrict, "'strict' or 'monotonic'.")                              \
  X(LeaseState, lease_state, "leaseState", LeaseState::kNone,                                   \
    "'none' unless the node id is leased ('local', 'etcd'); then 'held', 'unconfirmed' "        \
    "(etcd, past the local deadline), 'lost' or 'released' (after close()).")                   \
  X(int64_t, mark_ms, "markMs", -1,                                                             \
    "The slot's persisted high-water mark, Unix ms: no later holder of the slot issues an id "  \
    "at or below it. -1 without a lease.")                                                      \
  X(int64_t, lease_expires_in_ms, "leaseExpiresInMs", -1,                                       \
    "etcd: ms until the local lease deadline (negative once past it). -1 when the lease "       \
    "cannot expire while the process lives ('local') or there is no lease.")                    \
  X(int64_t, mark_headroom_ms, "markHeadroomMs", -1,                                            \
    "How far the persisted mark runs ahead of the later of last_ms and wall_ms, in ms (0 when " \
    "it does not: calls wait for a mark write, and refuse while writes fail). -1 without a "    \
    "lease.")

#define SNOWFLEET_X_FIELD(type, name, camel, init, doc) type name = init;
/// Counters, monotonically increasing over the generator's life (SNOWFLEET_STATS_FIELDS).
struct Stats {
  SNOWFLEET_STATS_FIELDS(SNOWFLEET_X_FIELD)
};
/// Whether the generator can issue ids right now (SNOWFLEET_STATUS_FIELDS).
struct Status {
  SNOWFLEET_STATUS_FIELDS(SNOWFLEET_X_FIELD)
};
#undef SNOWFLEET_X_FIELD

/// One field of Stats or Status, for tests and tools that list them.
struct FieldInfo {
  const char* name;   ///< canonical snake_case name
  const char* camel;  ///< camelCase name (Node, Java)
  const char* doc;
};
/// The fields of Stats, in declaration order.
const std::vector<FieldInfo>& stats_fields();
/// The fields of Status, in declaration order.
const std::vector<FieldInfo>& status_fields();

}  // namespace snowfleet
