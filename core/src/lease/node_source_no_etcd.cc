// "etcd://" and "k8s-lease://" in a build without etcd support (SNOWFLEET_ETCD=OFF, or AUTO
// on a machine without the libcurl and nlohmann-json headers): the build links this file
// instead of lease/etcd/ and lease/k8s/, and the source says what is missing.
#include <string>

#include "base/quote.hpp"
#include "node_source.hpp"

namespace snowfleet {
namespace detail {

std::shared_ptr<NodeLease> claim_etcd(const std::string& spec, const Layout&,
                                      const std::shared_ptr<Clock>&, const SlotFilter&) {
  throw Error(ErrorKind::kNodeIdUnavailable,
              "node source " + quote(redact_node_source(spec)) +
                  ": this snowfleet was built without etcd support (it needs libcurl and "
                  "nlohmann-json at build time)");
}

std::shared_ptr<NodeLease> claim_k8s_lease(const std::string& spec, const Layout&,
                                           const std::shared_ptr<Clock>&, const SlotFilter&) {
  throw Error(ErrorKind::kNodeIdUnavailable,
              "node source " + quote(spec) +
                  ": this snowfleet was built without the Kubernetes Lease source (like etcd, "
                  "it needs libcurl and nlohmann-json at build time)");
}

}  // namespace detail
}  // namespace snowfleet
