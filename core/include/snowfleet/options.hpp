// snowfleet public API: modes, lease states, generator options, the argument rulebook
// (resolve_options), Stats and Status.
// Included by <snowfleet/snowfleet.hpp>.
#pragma once

#include <atomic>
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
  /// The reference Snowflake (conformance/model/reference_snowflake.py): reads the wall clock
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

/// An id space whose state lives in memory the caller provides instead of the process's
/// id-space registry: memory several processes map (PostgreSQL's shared memory, whose
/// backends are one node; processes of one host sharing one node id through a mapped
/// file). Every generator pointed at the same words mints from one state, whichever process
/// it runs in, with the same rewind guard as in one process. The words must outlive the
/// generators, and the caller keeps generators of its process that are not on them out of
/// the space (the registry does not see this one). A generator on a shared space is still
/// refused in a forked child (kForkDetected): create it in the process that mints.
struct SharedIdSpace {
  /// The packed state word: elapsed_ms << sequence_bits | sequence of the last id issued
  /// in the space (-1 before the first; last_packed_of_ms() starts it after a mark).
  /// Process-shared: std::atomic<int64_t> is lock-free, hence address-free.
  std::atomic<int64_t>* state = nullptr;
  /// The last packed value the caller's persisted high-water mark covers
  /// (last_packed_of_ms(layout, mark)), moved forward by the caller's own writer: nothing
  /// above it is issued; a call that needs more waits for it on the clock, within
  /// max_wait_ms, then refuses with kLeaseLost. null: no limit.
  const std::atomic<int64_t>* mark_limit = nullptr;
  /// The packed state the caller started the word at after its persisted mark
  /// (last_packed_of_ms(layout, mark)), or null. While the word still holds it nothing has
  /// been issued since the start, so a clock behind it is not a rewind: a refusal names the
  /// mark the space waits for, as after a leased node id's claim.
  const std::atomic<int64_t>* start = nullptr;
  /// Names the memory in messages, e.g. "PostgreSQL shared memory".
  std::string where;
};
static_assert(std::atomic<int64_t>::is_always_lock_free,
              "a shared id space needs a lock-free (address-free) 64-bit atomic");

/// The packed value of the last id of Unix millisecond `unix_ms` under `layout` (clamped
/// to the layout's window; -1 before its epoch): the mark limit of a mark at `unix_ms`,
/// and the state that makes a space continue after it.
int64_t last_packed_of_ms(const Layout& layout, int64_t unix_ms) noexcept;
/// The Unix millisecond of packed value `packed` (epoch - 1 for -1, the empty state).
int64_t ms_of_packed(const Layout& layout, int64_t packed) noexcept;

struct GeneratorOptions {
  Layout layout;
  /// The node id, 0 .. layout.max_node_id(). Required unless node_source is set.
  int64_t node_id = -1;
  /// Where the node id comes from, as one string shared by every language and the CLI:
  /// "static:37", "env:SNOWFLEET_NODE_ID", "k8s[:OFFSET]", "local[:DIR][?node=N&share=NAME]"
  /// (either option, or both), "etcd://host:port/prefix?ttl=10", "postgres://...",
  /// "k8s-lease://PREFIX". Empty: use node_id. "share=NAME": one leased node id for every
  /// process of the host naming the registry and the share (docs/fleet.md).
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
  /// Mint on state in caller-provided memory (see SharedIdSpace); needs node_id. Empty
  /// (state null): the process's id-space registry.
  SharedIdSpace shared;
};

// The C++ type of each kind of lists.h: in records (Stats, Status) and, as a user gives it
// (optional; a mode as its name; a null clock: the system clock), in GeneratorArgs.
#define SNOWFLEET_CPP_TYPE_I64 int64_t
#define SNOWFLEET_CPP_TYPE_U64 uint64_t
#define SNOWFLEET_CPP_TYPE_F64 double
#define SNOWFLEET_CPP_TYPE_BOOL bool
#define SNOWFLEET_CPP_TYPE_TEXT std::string
#define SNOWFLEET_CPP_TYPE_MODE ::snowfleet::Mode
#define SNOWFLEET_CPP_TYPE_LEASE_STATE ::snowfleet::LeaseState
#define SNOWFLEET_CPP_INIT_I64(v) v
#define SNOWFLEET_CPP_INIT_U64(v) v
#define SNOWFLEET_CPP_INIT_BOOL(v) ((v) != 0)
#define SNOWFLEET_CPP_INIT_TEXT(v) std::string()
#define SNOWFLEET_CPP_INIT_MODE(v) static_cast<::snowfleet::Mode>(v)
#define SNOWFLEET_CPP_INIT_LEASE_STATE(v) static_cast<::snowfleet::LeaseState>(v)
#define SNOWFLEET_CPP_ARG_I64 std::optional<int64_t>
#define SNOWFLEET_CPP_ARG_F64 std::optional<double>
#define SNOWFLEET_CPP_ARG_TEXT std::optional<std::string>
#define SNOWFLEET_CPP_ARG_MODE std::optional<std::string>
#define SNOWFLEET_CPP_ARG_LAYOUT std::optional<::snowfleet::Layout>
#define SNOWFLEET_CPP_ARG_CLOCK std::shared_ptr<::snowfleet::Clock>

/// A generator's options as a user writes them in any language: one member per entry of
/// SNOWFLEET_GENERATOR_ARGS (lists.h), every one optional. Bindings fill it from the host's
/// arguments (converting types only) and the core applies the one rulebook in
/// resolve_options(), so every language accepts and refuses the same combinations with the
/// same words. The canonical names are the ones messages use.
struct GeneratorArgs {
#define SNOWFLEET_X_ARG(name, camel, kind, doc) SNOWFLEET_CPP_ARG_##kind name;
  SNOWFLEET_GENERATOR_ARGS(SNOWFLEET_X_ARG)
#undef SNOWFLEET_X_ARG
  WaitHooks wait_hooks;  ///< the binding's, never the user's
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

// The fields of Stats and Status are SNOWFLEET_STATS_FIELDS and SNOWFLEET_STATUS_FIELDS in
// lists.h. Every binding builds its record from these lists by expanding them, and each
// language's tests check its record's names and order against
// conformance/vectors/arguments.json, so no binding keeps a positional copy that can drift.
// Mode and LeaseState cross to the hosts as their names (mode_name, lease_state_name).

#define SNOWFLEET_X_FIELD(name, camel, kind, init, doc) \
  SNOWFLEET_CPP_TYPE_##kind name = SNOWFLEET_CPP_INIT_##kind(init);
/// Counters, monotonically increasing over the generator's life (SNOWFLEET_STATS_FIELDS).
struct Stats {
  SNOWFLEET_STATS_FIELDS(SNOWFLEET_X_FIELD)
};
/// Whether the generator can issue ids right now (SNOWFLEET_STATUS_FIELDS).
struct Status {
  SNOWFLEET_STATUS_FIELDS(SNOWFLEET_X_FIELD)
};
#undef SNOWFLEET_X_FIELD

/// One entry of a list in lists.h (a record's field, an argument), for bindings, tests and
/// tools that list them.
struct FieldInfo {
  const char* name;   ///< canonical snake_case name
  const char* camel;  ///< camelCase name (Node, Java)
  const char* kind;   ///< the kind token as text: "I64", "U64", "TEXT", "MODE", ...
  const char* doc;
};
/// The fields of Stats, in declaration order.
const std::vector<FieldInfo>& stats_fields();
/// The fields of Status, in declaration order.
const std::vector<FieldInfo>& status_fields();
/// A generator's arguments (SNOWFLEET_GENERATOR_ARGS), in order.
const std::vector<FieldInfo>& generator_arg_fields();
/// A layout's properties (SNOWFLEET_LAYOUT_FIELDS), in order.
const std::vector<FieldInfo>& layout_fields();

}  // namespace snowfleet
