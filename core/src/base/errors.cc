// Error kinds: the table behind snowfleet::error_kinds(), generated from the one list in
// lists.h so the enum, the codes and the names can never disagree.
#include "base/fail.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {

const std::vector<ErrorKindInfo>& error_kinds() {
  static const std::vector<ErrorKindInfo> kinds = {
#define SNOWFLEET_X_INFO(e, code, name, category, summary) \
  {ErrorKind::e, #code, name, category, summary},
      SNOWFLEET_ERROR_KINDS(SNOWFLEET_X_INFO)
#undef SNOWFLEET_X_INFO
  };
  return kinds;
}

const char* error_code(ErrorKind kind) noexcept {
  switch (kind) {
#define SNOWFLEET_X_CODE(e, code, name, category, summary) \
  case ErrorKind::e:                                       \
    return #code;
    SNOWFLEET_ERROR_KINDS(SNOWFLEET_X_CODE)
#undef SNOWFLEET_X_CODE
  }
  return "INTERNAL";
}

Error::Error(ErrorKind kind, const std::string& message, int64_t drift_ms)
    : std::runtime_error(message), kind_(kind), drift_ms_(drift_ms) {}

namespace detail {
void bad(const std::string& what) { throw Error(ErrorKind::kInvalidArgument, what); }
}  // namespace detail

}  // namespace snowfleet
