// snowfleet: Snowflake-style 64-bit ids with a clock-rewind guard and deadlines.
//
// This is the whole public API of the core. The Python, Node.js and Java packages are
// thin bindings over it; the CLI (`snowfleet`) is built from it too.
//
//   #include <snowfleet/snowfleet.hpp>
//
//   snowfleet::GeneratorOptions opts;
//   opts.node_id = 37;                                // default layout 41.10.12@1704067200000
//   snowfleet::Generator gen(opts);                   // strict mode, max_wait_ms = 5
//   int64_t id = gen.next_id();
//   snowfleet::Decoded d = snowfleet::decode(snowfleet::Layout(), id);
//   // d.timestamp_ms, d.node_id == 37, d.sequence
//
//   // Deterministic tests: the clock is an input.
//   auto clock = std::make_shared<snowfleet::ScriptedClock>(
//       std::vector<snowfleet::ScriptedClock::Segment>{{1737747358021}});   // frozen
//   opts.clock = clock;
//   snowfleet::Generator frozen(opts);
//   frozen.next_id();  // == 141264821508263936
//
// An id is `0 | timestamp | node | sequence` from the most significant bit down, where
// timestamp counts milliseconds since the layout's epoch and node may be split into
// datacenter and machine. Every failure is a snowfleet::Error carrying one ErrorKind from
// the closed list below; bindings map each kind to one host exception class.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace snowfleet {

namespace detail {
class NodeLease;   // core/src/node_lease.hpp
class IdSpace;     // core/src/id_space.hpp
class MarkKeeper;  // core/src/mark_keeper.hpp
}

// ---------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------

// The closed list of error kinds, written once. Columns: enumerator, stable code (what
// conformance vectors and every binding's `.code` carry), class name used by the bindings,
// category (which host exception family it belongs to, by meaning), one-line summary.
// No binding keeps an unchecked copy: Python and Node build their exception classes from
// error_kinds() when they load (Python's type stubs name them, and a test compares), and
// Java's tests fail unless its classes match it kind for kind.
//
// Categories: "argument" (the caller passed something outside its domain: ValueError /
// RangeError / IllegalArgumentException), "range" (a time outside the layout's window:
// OverflowError / RangeError), "clock" / "state" / "unavailable" / "internal" (runtime
// conditions: RuntimeError / Error / RuntimeException).
// BEGIN ERROR KINDS
#define SNOWFLEET_ERROR_KINDS(X)                                                             \
  X(kInvalidArgument, "INVALID_ARGUMENT", "InvalidArgument", "argument",                     \
    "An argument is outside its domain: a node id or sequence too large, a malformed "       \
    "layout, a negative id.")                                                                \
  X(kTimestampOutOfRange, "TIMESTAMP_OUT_OF_RANGE", "TimestampOutOfRange", "range",          \
    "A timestamp is before the layout's epoch or past the end of its timestamp window.")     \
  X(kClockMovedBackwards, "CLOCK_MOVED_BACKWARDS", "ClockMovedBackwards", "clock",           \
    "The wall clock is behind a millisecond already issued from (or stopped) for longer "    \
    "than the wait budget; nothing was issued.")                                             \
  X(kForkDetected, "FORK_DETECTED", "ForkDetected", "state",                                 \
    "The generator was created before a fork(); using it in the child would mint the "       \
    "parent's ids.")                                                                         \
  X(kGeneratorClosed, "GENERATOR_CLOSED", "GeneratorClosed", "state",                        \
    "The generator was closed; its node id may already belong to someone else.")             \
  X(kNodeIdUnavailable, "NODE_ID_UNAVAILABLE", "NodeIdUnavailable", "unavailable",           \
    "The node-id source could not provide a node id (no free slot, store unreachable).")     \
  X(kLeaseLost, "LEASE_LOST", "LeaseLost", "unavailable",                                    \
    "The node-id lease could not be confirmed in time; minting stops until it is.")          \
  X(kInternal, "INTERNAL", "InternalError", "internal",                                      \
    "An unexpected failure inside snowfleet (a bug, or the system refused a resource).")
// END ERROR KINDS

/// One kind per entry of SNOWFLEET_ERROR_KINDS, in that order.
enum class ErrorKind : int {
#define SNOWFLEET_X_ENUM(e, code, name, category, summary) e,
  SNOWFLEET_ERROR_KINDS(SNOWFLEET_X_ENUM)
#undef SNOWFLEET_X_ENUM
};

/// Static description of one error kind (for bindings building their tables).
struct ErrorKindInfo {
  ErrorKind kind;
  const char* code;      ///< stable, e.g. "CLOCK_MOVED_BACKWARDS"
  const char* name;      ///< class name in the bindings, e.g. "ClockMovedBackwards"
  const char* category;  ///< "argument", "range", "clock", "state", "unavailable", "internal"
  const char* summary;
};

/// All error kinds, in declaration order.
const std::vector<ErrorKindInfo>& error_kinds();
/// The stable code of `kind`.
const char* error_code(ErrorKind kind) noexcept;

/// The only exception type the core throws.
class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message, int64_t drift_ms = 0);
  ErrorKind kind() const noexcept { return kind_; }
  const char* code() const noexcept { return error_code(kind_); }
  /// For kClockMovedBackwards: how many ms the clock was behind the last issued
  /// millisecond (0 when the clock stopped rather than retreated). 0 otherwise.
  int64_t drift_ms() const noexcept { return drift_ms_; }

 private:
  ErrorKind kind_;
  int64_t drift_ms_;
};

// ---------------------------------------------------------------------------------------
// Layout
// ---------------------------------------------------------------------------------------

/// The bit layout of an id: 1 sign bit (always 0) + timestamp + node + sequence = 64,
/// where node is optionally split into datacenter (high bits) + machine (low bits).
/// A Layout value is always valid: every constructor validates.
/// Text form: "41.10.12@1704067200000" or, split, "41.5.5.12@1288834974657"; the presets'
/// names ("default", "twitter", "discord") are accepted by parse() too.
class Layout {
 public:
  /// The default layout: 41.10.12@1704067200000 (epoch 2024-01-01T00:00:00Z).
  constexpr Layout() noexcept = default;

  /// Unsplit node field. Throws kInvalidArgument naming the bad field.
  static Layout create(int64_t epoch_ms, int timestamp_bits, int node_bits, int sequence_bits);
  /// Node field split into datacenter_bits (>= 1) + machine_bits.
  static Layout create_split(int64_t epoch_ms, int timestamp_bits, int datacenter_bits,
                             int machine_bits, int sequence_bits);
  /// The presets, under the names every language uses (Layout.DEFAULT, .TWITTER, .DISCORD)
  /// and their text names "default", "twitter", "discord".
  static const Layout kDefault;  ///< 41.10.12@1704067200000
  static const Layout kTwitter;  ///< 41.5.5.12@1288834974657
  static const Layout kDiscord;  ///< 41.5.5.12@1420070400000
  /// Parses the text form or a preset name. Throws kInvalidArgument quoting the text.
  static Layout parse(std::string_view text);

  /// Canonical text form, e.g. "41.10.12@1704067200000".
  std::string to_string() const;
  /// "default", "twitter" or "discord" when equal to a preset, else "".
  const char* preset_name() const noexcept;

  int64_t epoch_ms() const noexcept { return epoch_ms_; }
  int timestamp_bits() const noexcept { return timestamp_bits_; }
  int node_bits() const noexcept { return datacenter_bits_ + machine_bits_; }
  int datacenter_bits() const noexcept { return datacenter_bits_; }  ///< 0 when unsplit
  int machine_bits() const noexcept { return machine_bits_; }        ///< == node_bits when unsplit
  int sequence_bits() const noexcept { return sequence_bits_; }
  bool split() const noexcept { return datacenter_bits_ > 0; }

  int node_shift() const noexcept { return sequence_bits_; }
  int timestamp_shift() const noexcept { return sequence_bits_ + node_bits(); }
  int64_t max_node_id() const noexcept { return (int64_t{1} << node_bits()) - 1; }
  int64_t max_datacenter_id() const noexcept { return (int64_t{1} << datacenter_bits_) - 1; }
  int64_t max_machine_id() const noexcept { return (int64_t{1} << machine_bits_) - 1; }
  int64_t max_sequence() const noexcept { return (int64_t{1} << sequence_bits_) - 1; }
  /// Largest elapsed-ms value the timestamp field holds: 2^timestamp_bits - 1.
  int64_t max_elapsed_ms() const noexcept { return (int64_t{1} << timestamp_bits_) - 1; }
  /// Last Unix millisecond the layout can represent: epoch_ms + max_elapsed_ms.
  int64_t max_timestamp_ms() const noexcept { return epoch_ms_ + max_elapsed_ms(); }

  friend bool operator==(const Layout& a, const Layout& b) noexcept {
    return a.epoch_ms_ == b.epoch_ms_ && a.timestamp_bits_ == b.timestamp_bits_ &&
           a.datacenter_bits_ == b.datacenter_bits_ && a.machine_bits_ == b.machine_bits_ &&
           a.sequence_bits_ == b.sequence_bits_;
  }
  friend bool operator!=(const Layout& a, const Layout& b) noexcept { return !(a == b); }

  /// Bounds every layout obeys (checked by create/parse).
  static constexpr int kMinTimestampBits = 1;
  /// 52 keeps every timestamp (epoch_ms + elapsed <= kMaxEpochMs + 2^52) below 2^53, so it
  /// is exact in a double (a JavaScript Number).
  static constexpr int kMaxTimestampBits = 52;
  static constexpr int64_t kMaxEpochMs = 253402300799999;  ///< 9999-12-31T23:59:59.999Z

 private:
  constexpr Layout(int64_t epoch_ms, int timestamp_bits, int datacenter_bits, int machine_bits,
                   int sequence_bits) noexcept
      : epoch_ms_(epoch_ms),
        timestamp_bits_(timestamp_bits),
        datacenter_bits_(datacenter_bits),
        machine_bits_(machine_bits),
        sequence_bits_(sequence_bits) {}

  int64_t epoch_ms_ = 1704067200000;
  int timestamp_bits_ = 41;
  int datacenter_bits_ = 0;
  int machine_bits_ = 10;
  int sequence_bits_ = 12;
};

inline constexpr Layout Layout::kDefault{1704067200000, 41, 0, 10, 12};
inline constexpr Layout Layout::kTwitter{1288834974657, 41, 5, 5, 12};
inline constexpr Layout Layout::kDiscord{1420070400000, 41, 5, 5, 12};

// ---------------------------------------------------------------------------------------
// Codec
// ---------------------------------------------------------------------------------------

/// The fields of an id. datacenter_id/machine_id are the two halves of node_id
/// (datacenter_id is 0 and machine_id == node_id for an unsplit layout).
struct Decoded {
  int64_t timestamp_ms = 0;  ///< Unix milliseconds
  int64_t node_id = 0;
  int64_t datacenter_id = 0;
  int64_t machine_id = 0;
  int64_t sequence = 0;
};

/// Packs the fields into an id. Nothing is masked: a timestamp outside
/// [epoch_ms, max_timestamp_ms] throws kTimestampOutOfRange, a node id or sequence outside
/// its field throws kInvalidArgument naming the value.
int64_t compose(const Layout& layout, int64_t timestamp_ms, int64_t node_id, int64_t sequence);
/// As compose(), with the node given as datacenter + machine.
int64_t compose_split(const Layout& layout, int64_t timestamp_ms, int64_t datacenter_id,
                      int64_t machine_id, int64_t sequence);
/// The node of an id as a user may give it: node_id, or datacenter_id + machine_id.
struct NodeArgs {
  std::optional<int64_t> node_id;
  std::optional<int64_t> datacenter_id;
  std::optional<int64_t> machine_id;
};
/// compose() with the node given either way, under the rules of resolve_options(): exactly
/// one form (datacenter_id and machine_id together), else kInvalidArgument naming what was
/// given; then the fields are checked in order (timestamp, node, sequence).
int64_t compose(const Layout& layout, int64_t timestamp_ms, const NodeArgs& node,
                int64_t sequence);
/// Unpacks an id. A negative id throws kInvalidArgument.
Decoded decode(const Layout& layout, int64_t id);
/// Unpacks an id given as decimal text (parse_id's rules): how every language decodes an
/// id that arrives as a string (JSON, a URL, a log line).
Decoded decode(const Layout& layout, std::string_view id_text);

/// Parses a decimal id ("141264821508263936"): digits only, 0 <= id <= 2^63 - 1, else
/// kInvalidArgument quoting the text.
int64_t parse_id(std::string_view text);
/// Writes the decimal form of a non-negative id into `out` (at least 20 bytes), returns
/// the length. No allocation: the Node binding's string path uses it directly.
size_t format_id(int64_t id, char* out) noexcept;
std::string format_id(int64_t id);
/// ISO-8601 UTC with milliseconds, e.g. "2025-01-24T19:35:58.021Z".
std::string format_iso8601(int64_t unix_ms);
/// Parses an RFC 3339 date-time into Unix ms: YYYY-MM-DDTHH:MM:SS[.fraction] then Z,
/// +HH:MM or -HH:MM, e.g. "2025-01-24T19:35:58.021Z" or "2025-01-24T20:35:58.021+01:00".
/// The one time-text parser of snowfleet (the CLI's --time and every language's
/// parse_time / parseTime). The RFC 3339 section 5.6 grammar, with these choices:
///  - 'T' and 'Z' may be lower case, as RFC 3339 allows; a space instead of 'T' (which it
///    only mentions in a note) is refused;
///  - the year is 4 ASCII digits, 0000-9999, without a sign; every field has exactly its
///    digits (ASCII only) and its range; the day must exist in its month and year
///    (proleptic Gregorian leap years);
///  - a fraction has 1 or more digits, and every digit past the third must be 0: an id's
///    timestamp is whole milliseconds, and nothing is truncated silently;
///  - second 60 (a leap second) is refused: Unix milliseconds cannot represent it;
///  - the offset is required: Z, or +HH:MM / -HH:MM with HH 00-23 and MM 00-59 (-00:00 is
///    UTC); no basic format, no comma fraction, no surrounding space, no trailing bytes.
/// An offset may move the instant up to 23:59 outside years 0000-9999. For every ms from
/// 0000-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z (Layout::kMaxEpochMs),
/// parse_iso8601(format_iso8601(ms)) == ms. Anything else throws kInvalidArgument quoting
/// the text (cut to 60 bytes, control bytes written as \xNN) and naming the rule that failed.
int64_t parse_iso8601(std::string_view text);

// ---------------------------------------------------------------------------------------
// Clock
// ---------------------------------------------------------------------------------------

/// Everything the generator knows about time comes through this interface, so every
/// rewind, freeze and exhaustion path can be driven deterministically.
///
/// A clock tells real time unless it is a ScriptedClock: generators on the system clock
/// and on any other Clock object mint in one time, so those of one id space share one
/// state word (see Generator). Each ScriptedClock is a time of its own: its generators
/// share state only with generators on that same clock object.
class Clock {
 public:
  virtual ~Clock() = default;
  /// Wall-clock time in ns since the Unix epoch. May jump backwards: that is the fault
  /// the generator guards against.
  virtual int64_t wall_ns() = 0;
  /// Monotonic time in ns (arbitrary origin). Never decreases; bounds every wait.
  virtual int64_t monotonic_ns() = 0;
  /// Blocks the calling thread for about `ns` nanoseconds (ns > 0).
  virtual void sleep_ns(int64_t ns) = 0;
};

/// The process's real clock: CLOCK_REALTIME, CLOCK_MONOTONIC, and a sleep that does not
/// overshoot millisecond boundaries. Generators using it take a faster path that reads the
/// wall clock through a TSC window where the platform allows it (see README, "Clock").
std::shared_ptr<Clock> system_clock();

/// A clock for tests: wall readings come from a script; monotonic time is virtual and
/// advances only when something sleeps on it. Thread-safe. Every reading must lie within
/// [-kMaxAbsMs, kMaxAbsMs] (what nanoseconds in an int64 can hold, about +-292 years
/// around 1970): a script that would read outside it throws kInvalidArgument naming the
/// value, when it is set or at the reading that would leave the range.
///
/// The script is a list of segments. Segment {ms, count, step_ms, every} yields `count`
/// readings: ms + step_ms * (i / every) for i = 0 .. count-1. After the last segment the
/// clock keeps extending the last segment's pattern, so
///   {{t}}                        is a frozen clock,
///   {{a}, {b, 1, 1}}             returns a, b, b+1, b+2, ... (the seeds' scripted_clock),
///   {{t, 1, -4}}                 retreats 4 ms per read,
///   {{t, 1, 1, 2}}               advances 1 ms every 2 reads.
class ScriptedClock : public Clock {
 public:
  struct Segment {
    int64_t ms = 0;       ///< Unix ms of the segment's first reading
    int64_t count = 1;    ///< readings in this segment (>= 1)
    int64_t step_ms = 0;  ///< added every `every` readings (may be negative)
    int64_t every = 1;    ///< >= 1
  };
  /// Largest |reading| in ms: INT64_MAX / 1,000,000.
  static constexpr int64_t kMaxAbsMs = 9223372036854;

  /// A clock frozen at `ms`.
  explicit ScriptedClock(int64_t ms = 0);
  /// Throws kInvalidArgument for an empty script or a count/every below 1.
  explicit ScriptedClock(std::vector<Segment> script);
  /// Forgets the id spaces of generators that ran on this clock.
  ~ScriptedClock() override;

  /// Replaces the remaining script (readings restart at its first segment).
  void set_script(std::vector<Segment> script);
  /// Appends one segment to the script.
  void append(int64_t ms, int64_t count = 1, int64_t step_ms = 0, int64_t every = 1);
  /// Freezes the wall clock at `ms` (replaces the script).
  void set_wall_ms(int64_t ms);
  /// Moves the wall clock by `delta_ms` from the reading it would return next, and
  /// freezes it there.
  void advance_wall_ms(int64_t delta_ms);
  /// The reading the next wall_ns() call would return, in ms (does not consume it).
  int64_t peek_wall_ms() const;
  /// Ticking: while on, time slept on this clock passes on the wall too (every reading is
  /// the script's plus the ns slept since ticking was turned on or the script last set), so a
  /// test of a wait (a rewind waited out, a spent millisecond) sees the clock move while the
  /// generator waits, as a real clock would. Off by default: a frozen script stays frozen.
  void set_ticking(bool on);
  bool ticking() const;

  int64_t wall_ns() override;
  int64_t monotonic_ns() override;
  void sleep_ns(int64_t ns) override;

  int64_t reads() const;         ///< wall readings consumed so far
  int64_t sleep_count() const;   ///< sleep_ns calls so far
  int64_t slept_ns() const;      ///< total virtual time slept (== monotonic_ns())
  int64_t max_sleep_ns() const;  ///< longest single sleep (0 when none)
  int64_t min_sleep_ns() const;  ///< shortest single sleep (0 when none)

 private:
  int64_t current_locked() const;
  mutable std::mutex mu_;
  std::vector<Segment> script_;
  size_t segment_ = 0;
  int64_t index_ = 0;  // reading index inside the current segment
  int64_t reads_ = 0, sleeps_ = 0, mono_ns_ = 0, max_sleep_ = 0, min_sleep_ = 0;
  bool ticking_ = false;
  int64_t tick_base_ns_ = 0;  // mono_ns_ when ticking began or the script was last set
};

// ---------------------------------------------------------------------------------------
// Generator
// ---------------------------------------------------------------------------------------

enum class Mode : int {
  /// The seeds' Snowflake: reads the wall clock for every id; waits out a rewind of up to
  /// max_wait_ms, refuses a larger one; waits (bounded) for the next millisecond when a
  /// millisecond's sequence is spent.
  kStrict = 0,
  /// The seeds' MonotonicSnowflake: a logical clock max(last_ms, now) that borrows the
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
  /// 1-second step (a leap second) and the seeds' 600 ms rewind.
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
    "Wall readings that were behind the highest reading this generator had seen.")            \
  X(uint64_t, waits, "waits", 0,                                                               \
    "Calls that had to wait (rewind inside the budget, spent millisecond, drift limit).")     \
  X(uint64_t, waited_ns_total, "waitedNsTotal", 0, "Total time those calls waited, in ns.")     \
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
  X(uint64_t, lease_refusals, "leaseRefusals", 0, "Calls refused with LeaseLost.")

/// Status: whether the generator can issue ids right now; a service maps !healthy to 503.
#define SNOWFLEET_STATUS_FIELDS(X)                                                             \
  X(bool, healthy, "healthy", false, "True when a call now would be served.")                  \
  X(std::string, reason, "reason", "", "Why not, in words; empty when healthy.")               \
  X(int64_t, wall_ms, "wallMs", 0, "The wall reading taken for this status, Unix ms.")         \
  X(int64_t, last_ms, "lastMs", -1, "Unix ms of the last issued id (-1 before the first).")    \
  X(int64_t, drift_ms, "driftMs", 0,                                                           \
    "max(0, last_ms - wall_ms): how far the generator runs ahead of the wall clock.")          \
  X(int64_t, node_id, "nodeId", 0, "The node id in every id.")                                 \
  X(Mode, mode, "mode", Mode::kStrict, "'strict' or 'monotonic'.")                             \
  X(LeaseState, lease_state, "leaseState", LeaseState::kNone,                                  \
    "'none' unless the node id is leased ('local', 'etcd'); then 'held', 'unconfirmed' "       \
    "(etcd, past the local deadline), 'lost' or 'released' (after close()).")                  \
  X(int64_t, mark_ms, "markMs", -1,                                                            \
    "The slot's persisted high-water mark, Unix ms: no later holder of the slot issues an id " \
    "at or below it. -1 without a lease.")                                                     \
  X(int64_t, lease_expires_in_ms, "leaseExpiresInMs", -1,                                      \
    "etcd: ms until the local lease deadline (negative once past it). -1 when the lease "      \
    "cannot expire while the process lives ('local') or there is no lease.")

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

/// A thread-safe id generator. The hot path is one wall-clock read and one CAS on a
/// packed (millisecond, sequence) word: no mutex, no system call.
///
/// The word belongs to the generator's id space, not to the generator: the ids a
/// generator can mint are fixed by the layout's epoch and timestamp position, the node
/// value (node id << sequence bits, whether written as node_id or as datacenter +
/// machine) and the clock's time (see Clock). Every generator of one id space in this
/// process mints from one word, whichever language or copy of the library made it, so
/// the `twitter` preset and `41.10.12` with Twitter's epoch, or two generators for one
/// node, can never issue the same id, and a generator made after another one closed
/// continues after the last millisecond the other issued. A generator whose ids would
/// overlap an open generator's but cannot share its word (another sequence width, a
/// leased node id) is refused with kNodeIdUnavailable naming the other one.
class Generator {
 public:
  explicit Generator(GeneratorOptions options);
  ~Generator();
  Generator(const Generator&) = delete;
  Generator& operator=(const Generator&) = delete;

  /// The next id. Throws kClockMovedBackwards, kTimestampOutOfRange, kForkDetected,
  /// kGeneratorClosed, and with a leased node id kLeaseLost. On a throw the state is
  /// unchanged, with one exception: a call that waited, found its millisecond taken by
  /// other calls and reserved ids in the next one (holding them until their millisecond,
  /// so that it never waits past its budget for its turn) refuses them with
  /// kClockMovedBackwards if the clock goes back meanwhile; they are skipped, never
  /// issued to anyone.
  int64_t next_id();
  /// Fills out[0..n) with ascending ids; each run of ids inside one millisecond is
  /// reserved with one clock read and one state update. n <= kMaxBatch. If a wait fails
  /// part-way, the ids already reserved are skipped (never issued to anyone) and the
  /// error is thrown.
  void next_ids(int64_t* out, size_t n);
  std::vector<int64_t> next_ids(size_t n);
  static constexpr size_t kMaxBatch = size_t{1} << 24;
  /// A batch size from a host language, checked in the order every call checks: a closed
  /// generator throws kGeneratorClosed (or kForkDetected in a forked child) whatever n is,
  /// then n outside [0, kMaxBatch] throws kInvalidArgument naming n. Bindings call it
  /// before allocating a batch's buffer, so every language answers the same way.
  size_t batch_size(int64_t n) const;

  /// Counters (exact once no call is in flight).
  Stats stats() const noexcept;
  /// Reads the clock once and reports whether a call now would be served.
  Status status();
  /// max(0, last issued ms - wall clock now): how far ahead the generator runs.
  int64_t drift_ms();

  const Layout& layout() const noexcept { return layout_; }
  int64_t node_id() const noexcept { return node_id_; }
  Mode mode() const noexcept { return mode_; }
  double max_wait_ms() const noexcept { return max_wait_ms_; }
  int64_t max_drift_ms() const noexcept { return max_drift_ms_; }

  /// Stops the generator. With a leased node id it first persists the last issued
  /// millisecond as the slot's mark (so a restart need not wait out the reservation made
  /// ahead), then releases the slot (unlock / etcd revoke). Later calls throw
  /// kGeneratorClosed. Idempotent. In a forked child it releases nothing: the slot is the
  /// parent's.
  void close() noexcept;
  bool closed() const noexcept;

 private:
  struct Run {
    int64_t first;  // packed (elapsed_ms << sequence_bits | sequence) of the first id
    int64_t count;
  };
  struct Reading {
    int64_t state;    // state_ loaded before the clock was read
    int64_t high;     // wall_high_ loaded before the clock was read
    int64_t now;      // wall clock, ms since the epoch
    int64_t wall_ns;  // the exact reading (unset when elided)
    bool elided;      // `now` came from the TSC window
  };
  Run reserve(int64_t want);
  Run reserve_slow(int64_t want, Reading reading);
  void check_usable() const;
  [[noreturn]] void throw_unusable() const;
  int64_t read_elapsed_ms(bool* elided, int64_t* wall_ns);
  int64_t read_elapsed_ms_exact(int64_t* wall_ns);
  void note_wall(int64_t now_ms, int64_t high) noexcept;
  int64_t monotonic_now() const;
  bool past_deadline() const;
  bool near_deadline() const;
  [[noreturn]] void throw_lease_lost();
  int64_t current_state() const noexcept;
  std::string mark_text() const;
  std::string describe() const;
  void account(int64_t before, const Run& run, int64_t now) noexcept;
  void close_leased() noexcept;
  int64_t id_of(int64_t packed) const noexcept {
    return ((packed >> layout_.sequence_bits()) << layout_.timestamp_shift()) | node_part_ |
           (packed & seq_mask_);
  }

  Layout layout_;
  Mode mode_;
  int64_t node_id_;
  int64_t node_part_;  // node_id << node_shift
  int64_t seq_mask_;
  int64_t max_elapsed_;
  int64_t max_packed_;  // (max_elapsed << sequence_bits) | seq_mask: the window's last id
  double max_wait_ms_;
  int64_t max_wait_ns_;
  int64_t budget_ns_;  // max(max_wait_ns_, 1 ms): bounds every wait within a call
  int64_t max_drift_ms_;
  std::shared_ptr<Clock> clock_;
  bool system_clock_;
  bool scripted_clock_;  // a ScriptedClock: its monotonic time is not real time
  WaitHooks hooks_;
  std::shared_ptr<detail::NodeLease> lease_;        // null unless the node id is leased
  std::unique_ptr<detail::IdSpace> space_;          // our place in the id-space registry
  std::unique_ptr<detail::MarkKeeper> keeper_;      // leased: extends the mark ahead
  const std::atomic<int64_t>* deadline_ = nullptr;  // lease deadline (monotonic ns) or null
  int64_t initial_state_ = -1;  // state_ at construction (encodes the claimed mark)
  std::mutex close_mu_;         // serialises close()
  std::atomic<int64_t> closed_state_{-1};  // state_ as close() found it

  // What the fast path reads, on one cache line that is written about once per ms: the
  // state word's address, the highest wall reading seen, the usability token, the mark
  // limit. The word itself (packed elapsed_ms << sequence_bits | sequence of the last
  // issued id in this id space, -1 before the first) lives in the process's id-space
  // registry, on a line of its own, shared by every generator of the space; the
  // issued-id counter, written by every call, sits on a third line: threads sharing the
  // generator then bounce those two lines, never the read-mostly one.
  alignas(64) std::atomic<int64_t>* state_ = nullptr;
  std::atomic<int64_t> wall_high_{INT64_MIN};
  std::atomic<uint64_t> usable_token_;  // == fork generation while open and unforked
  uint64_t created_token_;
  // Last packed value the persisted high-water mark covers (INT64_MAX without a lease,
  // INT64_MIN once the lease is lost): the fast path issues nothing above it. Written by
  // the mark keeper's thread.
  std::atomic<int64_t> mark_limit_{INT64_MAX};

  alignas(64) std::atomic<uint64_t> ids_issued_{0};

  alignas(64) std::atomic<uint64_t> rewinds_seen_{0};
  std::atomic<uint64_t> waits_{0}, waited_total_{0}, waited_max_{0}, refusals_{0},
      ms_borrowed_{0}, mark_writes_{0}, lease_refusals_{0};
};

}  // namespace snowfleet
