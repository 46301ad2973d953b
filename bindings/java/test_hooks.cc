// Test hooks (see test_hooks.hpp): never linked into the shipped JNI library.
#include "test_hooks.hpp"

#include <new>
#include <stdexcept>

#include "snowfleet_java.hpp"

namespace snowfleet_java {

void throw_error_for_test(int index, const std::string& message, int64_t drift_ms) {
  const auto& kinds = snowfleet::error_kinds();
  if (index < 0 || static_cast<size_t>(index) >= kinds.size())
    throw snowfleet::Error(snowfleet::ErrorKind::kInvalidArgument,
                           "error kind index must be in [0, " + std::to_string(kinds.size() - 1) +
                               "], got " + std::to_string(index));
  throw snowfleet::Error(kinds[static_cast<size_t>(index)].kind, message, drift_ms);
}
void throw_std_exception_for_test(const std::string& message) { throw std::runtime_error(message); }
void throw_bad_alloc_for_test() { throw std::bad_alloc(); }
void throw_unknown_for_test() { throw 42; }
void throw_invalid_utf8_for_test() {
  throw snowfleet::Error(snowfleet::ErrorKind::kInvalidArgument, "cut \xc3 here");
}
int64_t echo(int64_t value) { return value; }
std::string echo_text(const std::string& text) { return text; }
std::string utf8_hex_for_test(const std::string& text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    out += {kHex[u >> 4], kHex[u & 0xF]};
  }
  return out;
}

}  // namespace snowfleet_java
