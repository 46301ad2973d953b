// Node-id sources: one string spelling shared by every language and the CLI.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace detail {

/// A node id and whatever keeps it ours (a held lock, a lease); the id stays claimed for
/// as long as `lease` lives.
struct NodeClaim {
  int64_t node_id = -1;
  std::shared_ptr<void> lease;
};

/// Resolves a node-id source string ("static:37", "env:VAR", "k8s[:OFFSET]", ...) for
/// `layout`. Malformed specs throw kInvalidArgument; a source that cannot provide an id
/// throws kNodeIdUnavailable.
NodeClaim claim_node(const std::string& spec, const Layout& layout);

}  // namespace detail
}  // namespace snowfleet
