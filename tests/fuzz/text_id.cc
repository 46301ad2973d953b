// parse_base32 / parse_base62: each accepted exactly when an independent oracle (alphabet
// search, 128-bit arithmetic) finds the text of its length and alphabet worth at most
// 2^63 - 1; then formatting the id gives the canonical text (base32: upper case, aliases
// resolved; base62: the text itself) and parses back to the same id.
#include <cctype>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"

namespace {

constexpr std::string_view kB32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
constexpr std::string_view kB62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// The canonical digit of a base32 character: upper case, I and L as 1, O as 0; '\0' if none.
char canonical32(char c) {
  const char up = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  if (up == 'I' || up == 'L') return '1';
  if (up == 'O') return '0';
  return kB32.find(up) == std::string_view::npos ? '\0' : up;
}

bool expected(std::string_view text, bool base32, int64_t* out, std::string* canonical) {
  if (text.size() != (base32 ? 13u : 11u)) return false;
  unsigned __int128 v = 0;
  for (char c : text) {
    const char d = base32 ? canonical32(c) : c;
    const size_t at = (base32 ? kB32 : kB62).find(d);
    if (d == '\0' || at == std::string_view::npos) return false;
    v = v * (base32 ? 32 : 62) + at;
    canonical->push_back(d);
  }
  if (v > static_cast<unsigned __int128>(INT64_MAX)) return false;
  *out = static_cast<int64_t>(v);
  return true;
}

void check(std::string_view text, bool base32) {
  int64_t want = -1;
  std::string canonical;
  const bool valid = expected(text, base32, &want, &canonical);
  const auto format = base32 ? snowfleet::IdFormat::kBase32 : snowfleet::IdFormat::kBase62;
  int64_t id;
  try {
    id = snowfleet::parse_id_as(text, format);
  } catch (const snowfleet::Error& e) {
    fuzz::check_refusal(e);
    FUZZ_CHECK(!valid);
    return;
  }
  FUZZ_CHECK(valid);
  FUZZ_CHECK(id == want);
  const std::string formatted = snowfleet::format_id_as(id, format);
  FUZZ_CHECK(formatted == canonical);
  FUZZ_CHECK(snowfleet::parse_id_as(formatted, format) == id);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = fuzz::text_of(data, size);
  check(text, true);
  check(text, false);
  return 0;
}
