// Parsing an "etcd://" node-source spec (node_source.hpp): pure text handling, built with
// or without etcd support, fuzzed by tests/fuzz/node_source.cc.
#include <string>

#include "node_source.hpp"
#include "quote.hpp"
#include "strict_int.hpp"

namespace snowfleet {
namespace detail {
namespace {

[[noreturn]] void bad(const std::string& what) { throw Error(ErrorKind::kInvalidArgument, what); }

}  // namespace

EtcdConfig parse_etcd_spec(const std::string& spec, const Layout& layout) {
  EtcdConfig c;
  c.text = spec.substr(0, spec.find('?'));
  const std::string quoted = "node source " + quote(spec);
  std::string rest = spec.substr(7);  // after etcd://
  std::string query;
  if (const auto q = rest.find('?'); q != std::string::npos) {
    query = rest.substr(q + 1);
    rest = rest.substr(0, q);
  }
  const auto slash = rest.find('/');
  const std::string hosts = rest.substr(0, slash);
  c.prefix = slash == std::string::npos ? "" : rest.substr(slash + 1);
  while (!c.prefix.empty() && c.prefix.back() == '/') c.prefix.pop_back();
  if (c.prefix.empty()) c.prefix = "snowfleet";
  size_t pos = 0;
  while (pos <= hosts.size()) {
    const auto comma = hosts.find(',', pos);
    const std::string h =
        hosts.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    int64_t port;
    const auto colon = h.rfind(':');
    if (h.empty() || colon == std::string::npos || colon == 0 ||
        !parse_uint(h.substr(colon + 1), &port) || port < 1 || port > 65535)
      bad(quoted + ": expected etcd://host:port[,host:port...]/<prefix>[?ttl=10], got endpoint " +
          quote(h));
    c.endpoints.push_back(h);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  pos = 0;
  while (!query.empty() && pos <= query.size()) {
    const auto amp = query.find('&', pos);
    const std::string kv =
        query.substr(pos, amp == std::string::npos ? std::string::npos : amp - pos);
    const auto eq = kv.find('=');
    const std::string k = kv.substr(0, eq), v = eq == std::string::npos ? "" : kv.substr(eq + 1);
    if (k == "ttl") {
      if (!parse_uint(v, &c.ttl_s) || c.ttl_s < 2 || c.ttl_s > 3600)
        bad(quoted + ": ttl must be an integer number of seconds in [2, 3600], got " + quote(v));
    } else if (k == "node") {
      if (!parse_uint(v, &c.node) || c.node > layout.max_node_id())
        bad(quoted + ": node must be in [0, " + std::to_string(layout.max_node_id()) +
            "] for layout " + layout.to_string() + ", got " + quote(v));
    } else if (k == "cacert" || k == "cert" || k == "key") {
      if (v.empty()) bad(quoted + ": " + k + " needs a file path");
      (k == "cacert" ? c.cacert : k == "cert" ? c.cert : c.key) = v;
      c.tls = true;
    } else if (k == "tls") {
      if (v != "0" && v != "1") bad(quoted + ": tls must be 0 or 1, got " + quote(v));
      c.tls = v == "1" || c.tls;
    } else if (!kv.empty()) {
      bad(quoted + ": unknown option " + quote(k) + " (known: ttl, node, tls, cacert, cert, key)");
    }
    if (amp == std::string::npos) break;
    pos = amp + 1;
  }
  return c;
}

}  // namespace detail
}  // namespace snowfleet
