// Quoting outside text inside error messages, the one way every core message does it.
#pragma once

#include <string>
#include <string_view>

namespace snowfleet {
namespace detail {

/// 'text' for an error message: cut to 60 bytes (backing off to a UTF-8 character boundary,
/// so the message stays valid UTF-8 in every host language, then "..."), control bytes
/// written as \xNN, because what() is a C string (a NUL would end the message) and a
/// newline or escape would garble a log line.
std::string quote(std::string_view text);

}  // namespace detail
}  // namespace snowfleet
