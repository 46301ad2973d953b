// See spec_options.hpp.
#include "spec_options.hpp"

#include "base/quote.hpp"
#include "base/strict_int.hpp"
#include "snowfleet/errors.hpp"

namespace snowfleet {
namespace detail {

int64_t ttl_option(const std::string& quoted, const std::string& key, const std::string& value) {
  int64_t s = 0;
  if (!parse_uint(value, &s) || s < 2 || s > kMaxTtlS)
    throw Error(ErrorKind::kInvalidArgument,
                quoted + ": " + key + " must be an integer number of seconds in [2, " +
                    std::to_string(kMaxTtlS) + "], got " + quote(value));
  return s;
}

int64_t node_option(const std::string& quoted, const std::string& value, const Layout& layout) {
  int64_t node = 0;
  if (!parse_uint(value, &node) || node > layout.max_node_id())
    throw Error(ErrorKind::kInvalidArgument,
                quoted + ": node must be in [0, " + std::to_string(layout.max_node_id()) +
                    "] for layout " + layout.to_string() + ", got " + quote(value));
  return node;
}

}  // namespace detail
}  // namespace snowfleet
