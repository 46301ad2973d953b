// The JSON text of a value that may hold bytes that are not UTF-8 (a YAML scalar, a user
// name or password from a spec): nlohmann's dump() throws a type_error on them, which no
// caller expects; here they are written as U+FFFD.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace snowfleet {
namespace detail {

inline std::string json_text(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace detail
}  // namespace snowfleet
