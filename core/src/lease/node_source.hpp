// Node-id sources: one string spelling shared by every language and the CLI. claim_node(),
// the entry point the generator calls, is declared with the lease interface in
// mint/node_claim.hpp; these are the sources behind it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "mint/node_claim.hpp"
#include "mint/node_lease.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace detail {

/// "local[:DIR]": a slot file in DIR held with an open-file-description lock and (Linux) an
/// abstract Unix socket named after DIR and the slot.
std::shared_ptr<NodeLease> claim_local(const std::string& spec, const Layout& layout,
                                       const SlotFilter& usable = {});
/// "etcd://host:port[,host:port...]/prefix?ttl=10": a slot key held by an etcd lease.
std::shared_ptr<NodeLease> claim_etcd(const std::string& spec, const Layout& layout,
                                      const std::shared_ptr<Clock>& clock,
                                      const SlotFilter& usable = {});

/// "k8s-lease://ids?ttl=10[&node=N][&namespace=NS][&kubeconfig=PATH][&context=NAME]": a
/// Kubernetes Lease <prefix>-<N> held by this process (lease/k8s/). Built with etcd support
/// (it needs libcurl the same way).
std::shared_ptr<NodeLease> claim_k8s_lease(const std::string& spec, const Layout& layout,
                                           const std::shared_ptr<Clock>& clock,
                                           const SlotFilter& usable = {});

/// "postgres://[user@]host[:port]/db?table=snowfleet_slots&ttl=10": a row of a lease table
/// in PostgreSQL (lease/postgres/).
std::shared_ptr<NodeLease> claim_postgres(const std::string& spec, const Layout& layout,
                                          const std::shared_ptr<Clock>& clock,
                                          const SlotFilter& usable = {});
/// A "postgres://" spec as shown in messages: the password in the userinfo and the values of
/// password parameters replaced by "***" (lease/postgres/pg_spec.cc).
std::string redact_postgres_spec(const std::string& spec);

/// An "etcd://" spec, parsed.
struct EtcdConfig {
  std::vector<std::string> endpoints;  ///< host:port
  std::string prefix;                  ///< no trailing '/'
  int64_t ttl_s = 10;
  /// The longest TTL the prefix's members may use (etcd_genesis.hpp); 0: not stated.
  int64_t max_ttl_s = 0;
  int64_t node = -1;  ///< pinned slot
  std::string cacert, cert, key;
  bool tls = false;
  std::string user;  ///< etcd user (authentication on when not empty)
  /// Where the user's password comes from: exactly one is set when `user` is. Read when
  /// authenticating (so a rotated file is picked up), never shown in a message.
  std::string password, password_file, password_env;
  std::string text;  ///< the spec, for messages (without the query, so without credentials)
};

/// Parses
/// "etcd://host:port[,host:port...]/prefix?ttl=10[&max_ttl=S][&node=N][&tls=1][&cacert=..&cert=..
/// &key=..][&user=..&password_file=..|password_env=..|password=..]" (`spec` starts with
/// "etcd://") for `layout`. Throws kInvalidArgument naming the
/// part that is wrong. Pure text handling (claim_etcd's first step), so it can be fuzzed.
EtcdConfig parse_etcd_spec(const std::string& spec, const Layout& layout);

/// The first slot to probe: derived from host name and pid so that a fleet restarting at
/// once does not stampede slot 0. `slots` > 0.
int64_t probe_start(int64_t slots);

/// The order a local claim probes slots in: start, start + stride, ... (mod slots). Drawn
/// afresh for every claim, so that claimants starting at once (threads of one process
/// included) spread over the registry instead of walking one another's slots in the same
/// order; the stride is odd and `slots` a power of two, so the walk visits every slot once.
struct Probe {
  int64_t start;
  uint64_t stride;
};
Probe probe_order(int64_t slots);

}  // namespace detail
}  // namespace snowfleet
