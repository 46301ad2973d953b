#include "quote.hpp"

namespace snowfleet {
namespace detail {
namespace {

// The length of the well-formed UTF-8 character at the start of `s` (RFC 3629: no
// overlongs, no surrogates, nothing past U+10FFFF), or 0 when it does not start one.
size_t utf8_length(std::string_view s) {
  // RFC 3629's table: lead bytes, the sequence's length, the range of its second byte.
  struct Lead {
    unsigned char first, last;
    size_t len;
    unsigned char lo, hi;
  };
  static constexpr Lead kLeads[] = {
      {0xC2, 0xDF, 2, 0x80, 0xBF}, {0xE0, 0xE0, 3, 0xA0, 0xBF},  // E0: no overlongs
      {0xE1, 0xEC, 3, 0x80, 0xBF}, {0xED, 0xED, 3, 0x80, 0x9F},  // ED: no surrogates
      {0xEE, 0xEF, 3, 0x80, 0xBF}, {0xF0, 0xF0, 4, 0x90, 0xBF},  // F0: no overlongs
      {0xF1, 0xF3, 4, 0x80, 0xBF}, {0xF4, 0xF4, 4, 0x80, 0x8F},  // F4: to U+10FFFF
  };
  const auto b = [&s](size_t k) { return static_cast<unsigned char>(s[k]); };
  if (b(0) < 0x80) return 1;
  for (const Lead& lead : kLeads) {
    if (b(0) < lead.first || b(0) > lead.last) continue;
    if (s.size() < lead.len || b(1) < lead.lo || b(1) > lead.hi) return 0;
    for (size_t k = 2; k < lead.len; ++k)
      if ((b(k) & 0xC0) != 0x80) return 0;
    return lead.len;
  }
  return 0;
}

constexpr char kHex[] = "0123456789abcdef";

}  // namespace

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const size_t len = utf8_length(text.substr(i));
    if (len > 0) {
      out.append(text.data() + i, len);
      i += len;
      continue;
    }
    const auto u = static_cast<unsigned char>(text[i++]);
    out += {'\\', 'x', kHex[u >> 4], kHex[u & 0xF]};
  }
  return out;
}

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
