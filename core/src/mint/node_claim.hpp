// What the generator asks of a node-id source: a node id and, for the leased sources, the
// NodeLease that keeps it ours. Declared here, beside the lease interface the generator
// drives; the sources that answer (static, env, k8s, local, etcd) live in lease/, which
// defines these functions (lease/node_source.cc, lease/etcd_spec.cc).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "node_lease.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace detail {

/// A node id and, for the leased sources, the lease that keeps it ours for as long as the
/// lease object lives and has not been released.
struct NodeClaim {
  int64_t node_id = -1;
  std::shared_ptr<NodeLease> lease;
};

/// Which slots a lease claim may take: false for a node id this process already uses in a
/// way a lease would conflict with (an open generator of that id space). Empty: any.
using SlotFilter = std::function<bool(int64_t node_id)>;

/// Resolves a node-id source string ("static:37", "env:VAR", "k8s[:OFFSET]",
/// "local[:DIR][?node=N]", "etcd://...") for `layout`. `clock` times the lease deadline
/// (etcd); the leased sources skip slots `usable` refuses. Malformed specs throw
/// kInvalidArgument; a source that cannot provide an id throws kNodeIdUnavailable.
NodeClaim claim_node(const std::string& spec, const Layout& layout,
                     const std::shared_ptr<Clock>& clock, const SlotFilter& usable = {});

/// `spec` as it may appear in a message: an etcd spec's inline password (and any userinfo
/// before '@' in its endpoints) replaced by "***". Other specs unchanged.
std::string redact_node_source(const std::string& spec);

}  // namespace detail
}  // namespace snowfleet
