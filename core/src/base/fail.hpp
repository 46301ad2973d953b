// The one way the core refuses an argument. Internal.
#pragma once

#include <string>

namespace snowfleet {
namespace detail {

/// Throws Error(kInvalidArgument, what): `what` names the argument, the rule and the value.
[[noreturn]] void bad(const std::string& what);

}  // namespace detail
}  // namespace snowfleet
