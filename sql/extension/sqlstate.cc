#include "sqlstate.hpp"

#include "pg.hpp"

namespace snowfleet_pg {

// Standard SQLSTATEs where one means the same thing; the rest in class SF (letters S-Z
// start classes left to implementations, and no PostgreSQL class uses SF). No default:
// the compiler names a kind added to SNOWFLEET_ERROR_KINDS without a SQLSTATE here.
int sqlstate(snowfleet::ErrorKind kind) noexcept {
  using snowfleet::ErrorKind;
  switch (kind) {
    case ErrorKind::kInvalidArgument:
      return ERRCODE_INVALID_PARAMETER_VALUE;  // 22023
    case ErrorKind::kTimestampOutOfRange:
      return ERRCODE_DATETIME_FIELD_OVERFLOW;  // 22008
    case ErrorKind::kClockMovedBackwards:
      return MAKE_SQLSTATE('S', 'F', '0', '0', '1');
    case ErrorKind::kForkDetected:
      return MAKE_SQLSTATE('S', 'F', '0', '0', '2');
    case ErrorKind::kGeneratorClosed:
      return MAKE_SQLSTATE('S', 'F', '0', '0', '3');
    case ErrorKind::kNodeIdUnavailable:
      return MAKE_SQLSTATE('S', 'F', '0', '0', '4');
    case ErrorKind::kLeaseLost:
      return MAKE_SQLSTATE('S', 'F', '0', '0', '5');
    case ErrorKind::kInternal:
      return ERRCODE_INTERNAL_ERROR;  // XX000
  }
  return ERRCODE_INTERNAL_ERROR;
}

}  // namespace snowfleet_pg
