// The one integer parser for every text the core reads from outside: layout texts,
// node-source specs, environment variables, registry marks, etcd replies, decimal ids.
// Internal (not installed).
#pragma once

#include <charconv>
#include <cstdint>
#include <string_view>
#include <system_error>

namespace snowfleet {
namespace detail {

/// Parses the whole of `s` as a decimal int64: an optional '-' (only when
/// `allow_negative`), then 1 to 19 ASCII digits whose value fits in int64. Anything else
/// (empty text, '+', spaces, "0x", a trailing byte, overflow) returns false and leaves
/// *out unchanged. Never reads outside `s`.
inline bool parse_int64(std::string_view s, int64_t* out, bool allow_negative = false) noexcept {
  if (s.empty() || s.size() > 20) return false;
  const bool negative = s[0] == '-';
  if (negative && !allow_negative) return false;
  const std::string_view digits = negative ? s.substr(1) : s;
  if (digits.empty() || digits.size() > 19) return false;
  for (char c : digits)
    if (c < '0' || c > '9') return false;  // from_chars alone would accept a second '-'
  int64_t v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return false;
  *out = v;
  return true;
}

/// parse_int64 without a sign: a non-negative int64.
inline bool parse_uint(std::string_view s, int64_t* out) noexcept {
  return parse_int64(s, out, false);
}

}  // namespace detail
}  // namespace snowfleet
