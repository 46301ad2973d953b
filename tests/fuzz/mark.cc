// detail::parse_int64 / parse_uint, the one integer reader behind registry marks (a local
// slot's .mark file, an etcd mark key), etcd reply fields, specs and ids: accepted exactly
// when the text is -?[0-9]{1,19} (no '-' for parse_uint) within int64, with the value
// Python's int() gives; a refusal leaves the output untouched.
#include <string_view>

#include "base/strict_int.hpp"
#include "fuzz_check.hpp"

namespace {

// The oracle: the grammar checked by hand, the value summed in 128 bits.
bool expected(std::string_view s, bool allow_negative, int64_t* out) {
  const bool negative = !s.empty() && s[0] == '-';
  if (negative && !allow_negative) return false;
  const std::string_view digits = negative ? s.substr(1) : s;
  if (!fuzz::all_digits(digits)) return false;
  __int128 v = 0;
  for (char c : digits) v = v * 10 + (c - '0');
  if (negative) v = -v;
  if (v < INT64_MIN || v > INT64_MAX) return false;
  *out = static_cast<int64_t>(v);
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = fuzz::text_of(data, size);
  constexpr int64_t kUntouched = 0x5EED;
  for (const bool allow_negative : {false, true}) {
    int64_t want = kUntouched, got = kUntouched;
    const bool valid = expected(text, allow_negative, &want);
    const bool accepted = snowfleet::detail::parse_int64(text, &got, allow_negative);
    FUZZ_CHECK(accepted == valid);
    FUZZ_CHECK(got == (accepted ? want : kUntouched));
    if (!allow_negative) {
      int64_t u = kUntouched;
      FUZZ_CHECK(snowfleet::detail::parse_uint(text, &u) == accepted);
      FUZZ_CHECK(u == got);
    }
  }
  return 0;
}
