// parse_id: accepted exactly when the text is 1 to 19 ASCII digits of at most 2^63 - 1, and
// then format_id of the result is the text without its leading zeros.
#include <string>
#include <string_view>

#include "fuzz_check.hpp"

namespace {

// The oracle, independent of the core's parser: digit by digit in unsigned 128-bit.
bool expected_id(std::string_view text, int64_t* out) {
  if (!fuzz::all_digits(text)) return false;
  unsigned __int128 v = 0;
  for (char c : text) v = v * 10 + static_cast<unsigned>(c - '0');
  if (v > static_cast<unsigned __int128>(INT64_MAX)) return false;
  *out = static_cast<int64_t>(v);
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = fuzz::text_of(data, size);
  int64_t want = -1;
  const bool valid = expected_id(text, &want);
  int64_t id;
  try {
    id = snowfleet::parse_id(text);
  } catch (const snowfleet::Error& e) {
    fuzz::check_refusal(e);
    FUZZ_CHECK(!valid);
    return 0;
  }
  FUZZ_CHECK(valid);
  FUZZ_CHECK(id == want);
  const std::string formatted = snowfleet::format_id(id);
  FUZZ_CHECK(formatted == fuzz::strip_zeros(text));
  char buf[20];
  FUZZ_CHECK(std::string_view(buf, snowfleet::format_id(id, buf)) == formatted);
  FUZZ_CHECK(snowfleet::parse_id(formatted) == id);
  return 0;
}
