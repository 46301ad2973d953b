#include "quote.hpp"

namespace snowfleet {
namespace detail {
namespace {

// The length of the well-formed UTF-8 character at the start of `s` (RFC 3629: no
// overlongs, no surrogates, nothing past U+10FFFF), or 0 when it does not start one.
size_t utf8_length(std::string_view s) {
  const auto b = [&s](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(0);
  if (c < 0x80) return 1;
  size_t len;
  unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;  // overlong
    if (c == 0xED) hi = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;  // overlong
    if (c == 0xF4) hi = 0x8F;  // past U+10FFFF
  } else {
    return 0;
  }
  if (s.size() < len || b(1) < lo || b(1) > hi) return 0;
  for (size_t k = 2; k < len; ++k)
    if ((b(k) & 0xC0) != 0x80) return 0;
  return len;
}

}  // namespace

size_t char_count(std::string_view text) {
  size_t n = 0;
  for (size_t i = 0; i < text.size(); ++n) {
    const size_t len = utf8_length(text.substr(i));
    i += len == 0 ? 1 : len;
  }
  return n;
}

std::string quote(std::string_view text) {
  constexpr size_t kQuoteBytes = 60;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "'";
  size_t i = 0;
  while (i < text.size()) {
    const size_t len = utf8_length(text.substr(i));
    if (i + (len == 0 ? 1 : len) > kQuoteBytes) break;  // a character is kept whole or left out
    const auto u = static_cast<unsigned char>(text[i]);
    if (len > 1 || (len == 1 && u >= 0x20 && u != 0x7F)) {
      out.append(text.data() + i, len);
      i += len;
      continue;
    }
    // A control byte, or a byte that is not part of a UTF-8 character: its value, so the
    // message stays valid UTF-8 and still says exactly which byte was given.
    out += {'\\', 'x', kHex[u >> 4], kHex[u & 0xF]};
    ++i;
  }
  return out + (i < text.size() ? "...'" : "'");
}

}  // namespace detail
}  // namespace snowfleet
