// The options the leasing node sources (local:, etcd://, postgres://, k8s-lease://) spell
// alike, each read by one rule with one message.
// Internal.
#pragma once

#include <cstdint>
#include <string>

#include "snowfleet/layout.hpp"

namespace snowfleet {
namespace detail {

/// The longest lease any holder may take, in seconds (a spec's ttl and max_ttl).
constexpr int64_t kMaxTtlS = 3600;

/// `key` (ttl, max_ttl) of the spec `quoted`: whole seconds in [2, kMaxTtlS];
/// kInvalidArgument naming the value otherwise.
int64_t ttl_option(const std::string& quoted, const std::string& key, const std::string& value);

/// node of the spec `quoted`: a node id of `layout`; kInvalidArgument naming the value and
/// the layout otherwise.
int64_t node_option(const std::string& quoted, const std::string& value, const Layout& layout);

}  // namespace detail
}  // namespace snowfleet
