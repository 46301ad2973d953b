// parse_iso8601: an accepted text has the RFC 3339 shape, denotes the instant glibc's
// timegm() gives for its fields, and (inside years 0000-9999) formats back with
// format_iso8601 to a text that reparses to the same ms. A refusal quotes the text without
// control bytes, cut on a UTF-8 character boundary.
#include <ctime>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"

namespace {

constexpr int64_t kFirstMs = -62167219200000;                // 0000-01-01T00:00:00.000Z
constexpr int64_t kLastMs = snowfleet::Layout::kMaxEpochMs;  // 9999-12-31T23:59:59.999Z
constexpr int64_t kMaxOffsetMs = (23 * 60 + 59) * 60000;

bool digits_at(std::string_view s, size_t pos, size_t n) {
  return pos + n <= s.size() && fuzz::all_digits(s.substr(pos, n));
}

int64_t number_at(std::string_view s, size_t pos, size_t n) {
  int64_t v = 0;
  for (size_t i = 0; i < n; ++i) v = v * 10 + (s[pos + i] - '0');
  return v;
}

bool valid_utf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : 9;
    if (n == 9 || i + n >= s.size()) return false;
    for (size_t k = 1; k <= n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += n + 1;
  }
  return true;
}

// The instant of an accepted text, from its fields through timegm() (proleptic Gregorian,
// 64-bit time_t); false when timegm had to normalize the date (a day the month lacks).
bool oracle_ms(std::string_view t, int64_t* out) {
  std::tm tm{};
  tm.tm_year = static_cast<int>(number_at(t, 0, 4)) - 1900;
  tm.tm_mon = static_cast<int>(number_at(t, 5, 2)) - 1;
  tm.tm_mday = static_cast<int>(number_at(t, 8, 2));
  tm.tm_hour = static_cast<int>(number_at(t, 11, 2));
  tm.tm_min = static_cast<int>(number_at(t, 14, 2));
  tm.tm_sec = static_cast<int>(number_at(t, 17, 2));
  const int mday = tm.tm_mday, mon = tm.tm_mon;
  const int64_t secs = timegm(&tm);
  if (tm.tm_mday != mday || tm.tm_mon != mon) return false;
  size_t pos = 19;
  int64_t ms = 0;
  if (pos < t.size() && t[pos] == '.') {
    ++pos;
    for (int i = 0; i < 3; ++i) ms = ms * 10 + (digits_at(t, pos, 1) ? t[pos++] - '0' : 0);
    while (digits_at(t, pos, 1)) ++pos;
  }
  int64_t offset_ms = 0;
  if (t[pos] == '+' || t[pos] == '-')
    offset_ms = (t[pos] == '+' ? 1 : -1) *
                (number_at(t, pos + 1, 2) * 60 + number_at(t, pos + 4, 2)) * 60000;
  *out = secs * 1000 + ms - offset_ms;
  return true;
}

// The RFC 3339 shape, checked position by position.
bool has_shape(std::string_view t) {
  if (!(digits_at(t, 0, 4) && t.size() > 19 && t[4] == '-' && digits_at(t, 5, 2) && t[7] == '-' &&
        digits_at(t, 8, 2) && (t[10] == 'T' || t[10] == 't') && digits_at(t, 11, 2) &&
        t[13] == ':' && digits_at(t, 14, 2) && t[16] == ':' && digits_at(t, 17, 2)))
    return false;
  size_t pos = 19;
  if (t[pos] == '.') {
    if (!digits_at(t, ++pos, 1)) return false;
    while (digits_at(t, pos, 1)) ++pos;
  }
  if (pos + 1 == t.size() && (t[pos] == 'Z' || t[pos] == 'z')) return true;
  return pos + 6 == t.size() && (t[pos] == '+' || t[pos] == '-') && digits_at(t, pos + 1, 2) &&
         t[pos + 3] == ':' && digits_at(t, pos + 4, 2);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = fuzz::text_of(data, size);
  int64_t ms;
  try {
    ms = snowfleet::parse_iso8601(text);
  } catch (const snowfleet::Error& e) {
    fuzz::check_refusal(e);
    const std::string_view what = e.what();
    for (char c : what) FUZZ_CHECK(static_cast<unsigned char>(c) >= 0x20 && c != 0x7F);
    if (valid_utf8(text)) FUZZ_CHECK(valid_utf8(what));
    return 0;
  }
  FUZZ_CHECK(has_shape(text));
  int64_t want;
  FUZZ_CHECK(oracle_ms(text, &want));
  FUZZ_CHECK(ms == want);
  FUZZ_CHECK(ms >= kFirstMs - kMaxOffsetMs && ms <= kLastMs + kMaxOffsetMs);
  const std::string formatted = snowfleet::format_iso8601(ms);
  if (ms < kFirstMs || ms > kLastMs) return 0;  // an offset moved it outside 0000-9999
  FUZZ_CHECK(snowfleet::parse_iso8601(formatted) == ms);
  // A text already in the canonical form (ms fraction, 'Z') formats back unchanged.
  if (text.size() == 24 && text[10] == 'T' && text[19] == '.' && text[23] == 'Z')
    FUZZ_CHECK(formatted == text);
  return 0;
}
