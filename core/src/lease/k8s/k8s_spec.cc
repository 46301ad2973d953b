// Parsing a "k8s-lease://" node-source spec (k8s_spec.hpp).
#include "k8s_spec.hpp"

#include <string>

#include "base/fail.hpp"
#include "base/quote.hpp"
#include "base/strict_int.hpp"
#include "lease/spec_options.hpp"

namespace snowfleet {
namespace detail {
namespace kube {
namespace {

constexpr const char* kScheme = "k8s-lease://";

void set_option(K8sConfig& c, const std::string& k, const std::string& v, const Layout& layout,
                const std::string& quoted) {
  if (k == "ttl") {
    c.ttl_s = ttl_option(quoted, "ttl", v);
  } else if (k == "node") {
    c.node = node_option(quoted, v, layout);
  } else if (k == "namespace") {
    if (!valid_dns_label(v))
      bad(quoted +
          ": namespace must be 1 to 63 lower-case letters, digits and '-', starting "
          "and ending with a letter or digit, got " +
          quote(v));
    c.namespace_ = v;
  } else if (k == "kubeconfig") {
    if (v.empty()) bad(quoted + ": kubeconfig must be a file path, got an empty value");
    c.kubeconfig = v;
  } else if (k == "context") {
    if (v.empty()) bad(quoted + ": context must be a context name, got an empty value");
    c.context = v;
  } else {
    bad(quoted + ": unknown option " + quote(k) +
        " (known: ttl, node, namespace, kubeconfig, context)");
  }
}

}  // namespace

bool valid_dns_label(const std::string& s, size_t max) {
  if (s.empty() || s.size() > max) return false;
  const auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  for (const char c : s)
    if (!alnum(c) && c != '-') return false;
  return alnum(s.front()) && alnum(s.back());
}

K8sConfig parse_k8s_spec(const std::string& spec, const Layout& layout) {
  K8sConfig c;
  const std::string body = spec.substr(std::string(kScheme).size());
  const size_t q = body.find('?');
  c.prefix = body.substr(0, q);
  c.text = kScheme + c.prefix;
  const std::string quoted = "node source " + quote(c.text);
  // The prefix is a label value (snowfleet.dev/prefix), so a DNS label of at most 63; the
  // Lease names <prefix>-<N> are then valid DNS subdomains.
  if (!valid_dns_label(c.prefix))
    bad(quoted +
        ": the prefix must be 1 to 63 lower-case letters, digits and '-', starting "
        "and ending with a letter or digit (it names the Leases <prefix>-<N> and is "
        "their label value), got " +
        quote(c.prefix));
  if (q == std::string::npos) return c;
  const std::string query = body.substr(q + 1);
  std::string seen = "&";
  for (size_t at = 0; at <= query.size();) {
    size_t end = query.find('&', at);
    if (end == std::string::npos) end = query.size();
    const std::string part = query.substr(at, end - at);
    at = end + 1;
    const size_t eq = part.find('=');
    if (eq == std::string::npos)
      bad(quoted + ": options are key=value separated by '&', got " + quote(part));
    const std::string k = part.substr(0, eq);
    if (seen.find("&" + k + "&") != std::string::npos)
      bad(quoted + ": option " + quote(k) + " is given twice");
    seen += k + "&";
    set_option(c, k, part.substr(eq + 1), layout, quoted);
  }
  return c;
}

}  // namespace kube
}  // namespace detail
}  // namespace snowfleet
