// snowfleet public API: the closed list of error kinds and snowfleet::Error.
// Included by <snowfleet/snowfleet.hpp>.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "snowfleet/lists.h"

namespace snowfleet {

// The closed list of error kinds is SNOWFLEET_ERROR_KINDS in lists.h (with every other list
// that crosses a language boundary). No binding keeps an unchecked copy: Python and Node
// build their exception classes from error_kinds() when they load (Python's type stubs name
// them, and a test compares), and Java's tests fail unless its classes match it kind for kind.

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
