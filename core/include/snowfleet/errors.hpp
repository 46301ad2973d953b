// snowfleet public API: the closed list of error kinds and snowfleet::Error.
// Included by <snowfleet/snowfleet.hpp>.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace snowfleet {

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
    "The generator, with a static node id, was created before a fork(); using it in the "    \
    "child would mint the parent's ids (a leased one claims a slot of its own instead).")    \
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

}  // namespace snowfleet
