// Shared by the fuzz targets: a property check that survives release builds, and the
// input as text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "snowfleet/snowfleet.hpp"

/// Aborts (a libFuzzer finding, with the input saved) when a property does not hold.
#define FUZZ_CHECK(cond)                                                                \
  do {                                                                                  \
    if (!(cond)) {                                                                      \
      std::fprintf(stderr, "property failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
      std::abort();                                                                     \
    }                                                                                   \
  } while (0)

namespace fuzz {

inline std::string_view text_of(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// The contract of every parser of outside text: an Error of kind kInvalidArgument with a
/// message that quotes a bounded part of the text, never a huge one.
inline void check_refusal(const snowfleet::Error& e) {
  FUZZ_CHECK(e.kind() == snowfleet::ErrorKind::kInvalidArgument);
  const std::string_view what = e.what();
  FUZZ_CHECK(!what.empty() && what.size() < 1024);
}

/// True when `s` is 1 to `max` ASCII digits.
inline bool all_digits(std::string_view s, size_t max = 19) {
  if (s.empty() || s.size() > max) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

/// `s` (ASCII digits) without its leading zeros; "0" for all zeros.
inline std::string_view strip_zeros(std::string_view s) {
  while (s.size() > 1 && s[0] == '0') s.remove_prefix(1);
  return s;
}

}  // namespace fuzz
