#include "quote.hpp"

namespace snowfleet {
namespace detail {

std::string quote(std::string_view text) {
  constexpr size_t kQuoteBytes = 60;
  size_t n = text.size();
  if (n > kQuoteBytes) {
    n = kQuoteBytes;
    for (int back = 0; back < 3 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80; ++back)
      --n;
  }
  std::string out = "'";
  for (const char c : text.substr(0, n)) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u != 0x7F) {
      out += c;
      continue;
    }
    static constexpr char kHex[] = "0123456789abcdef";
    out += {'\\', 'x', kHex[u >> 4], kHex[u & 0xF]};
  }
  return out + (n < text.size() ? "...'" : "'");
}

}  // namespace detail
}  // namespace snowfleet
