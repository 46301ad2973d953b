// The "k8s-lease://" node-source spec: the Leases' name prefix and the options ttl, node,
// namespace, kubeconfig and context. Pure text handling, so it can be tested and fuzzed.
// Internal.
#pragma once

#include <cstdint>
#include <string>

#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace detail {
namespace kube {

/// A "k8s-lease://" spec, parsed.
struct K8sConfig {
  std::string prefix;  ///< slot N is the Lease <prefix>-<N>
  int64_t ttl_s = 10;
  int64_t node = -1;       ///< pinned slot, -1: any free one
  std::string namespace_;  ///< "" : the kubeconfig context's, in-cluster's, else "default"
  std::string kubeconfig;  ///< "" : $KUBECONFIG, in-cluster, ~/.kube/config
  std::string context;     ///< "" : the kubeconfig's current-context
  std::string text;        ///< "k8s-lease://<prefix>", for messages
};

/// Parses "k8s-lease://<prefix>[?ttl=S][&node=N][&namespace=NS][&kubeconfig=PATH]
/// [&context=NAME]" for `layout`. Throws kInvalidArgument naming the option, the value and
/// the rule.
K8sConfig parse_k8s_spec(const std::string& spec, const Layout& layout);

/// Whether `s` is a DNS label as Kubernetes checks a namespace or a label value here:
/// 1 to `max` lower-case letters, digits and '-', starting and ending alphanumeric.
bool valid_dns_label(const std::string& s, size_t max = 63);

}  // namespace kube
}  // namespace detail
}  // namespace snowfleet
