// Quoting outside text inside error messages, the one way every core message does it.
#pragma once

#include <string>
#include <string_view>

namespace snowfleet {
namespace detail {

/// 'text' for an error message: at most its first 60 bytes, cut before a character that
/// would cross that limit (then "..."); control bytes and bytes that are not part of a
/// well-formed UTF-8 character written as \xNN. So the message is valid UTF-8 in every host
/// language whatever the input, still names every byte it shows, and holds no NUL (what()
/// is a C string) nor a newline or escape that would garble a log line.
std::string quote(std::string_view text);

/// text as it is, except that each byte not part of a well-formed UTF-8 character is written
/// as \xNN: a whole message made valid UTF-8 (the C interface's promise) when a part of it,
/// such as a path, did not go through quote().
std::string valid_utf8(std::string_view text);

/// How many characters `text` holds for a message ("37 characters"): each well-formed UTF-8
/// character counts once, each byte that is not part of one counts once.
size_t char_count(std::string_view text);

}  // namespace detail
}  // namespace snowfleet
