// Node-id sources. static/env/k8s derive the id from configuration; they cannot detect a
// duplicate, which is why the leased sources exist (node_source_local.cc,
// node_source_etcd.cc).
#include "node_source.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <string>

#include "base/fail.hpp"
#include "base/internal.hpp"
#include "base/quote.hpp"
#include "uuid/random_internal.hpp"

namespace snowfleet {
namespace detail {
namespace {

// `id` is unsigned so that a k8s ordinal plus its offset (each up to 2^63 - 1) is exact.
int64_t checked(uint64_t id, const Layout& layout, const std::string& from) {
  if (id > static_cast<uint64_t>(layout.max_node_id()))
    throw Error(ErrorKind::kNodeIdUnavailable,
                from + " gives node id " + std::to_string(id) + ", outside [0, " +
                    std::to_string(layout.max_node_id()) + "] for layout " + layout.to_string());
  return static_cast<int64_t>(id);
}

}  // namespace

int64_t probe_start(int64_t slots) {
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  const size_t h = std::hash<std::string>{}(std::string(host) + "/" + std::to_string(getpid()));
  // Mix the bits (std::hash of a string is decent, but cheap to be sure), then reduce.
  uint64_t x = static_cast<uint64_t>(h);
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return static_cast<int64_t>(x % static_cast<uint64_t>(slots));
}

Probe probe_order(int64_t slots) {
  static std::atomic<uint64_t> claims{0};
  uint64_t x = static_cast<uint64_t>(probe_start(slots)) ^
               (claims.fetch_add(1, std::memory_order_relaxed) + 1) * 0x9e3779b97f4a7c15ULL ^
               static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  const uint64_t n = static_cast<uint64_t>(slots);
  const int64_t start = static_cast<int64_t>(splitmix64_next(&x) % n);
  return {start, (splitmix64_next(&x) % n) | 1};
}

namespace {

int64_t static_node(const std::string& spec, const Layout& layout, const std::string& quoted) {
  int64_t id;
  if (!parse_uint(spec.substr(7), &id)) bad(quoted + ": expected static:<non-negative integer>");
  if (id > layout.max_node_id())
    bad(quoted + ": node id must be in [0, " + std::to_string(layout.max_node_id()) +
        "] for layout " + layout.to_string() + ", got " + std::to_string(id));
  return id;
}

int64_t env_node(const std::string& spec, const Layout& layout, const std::string& quoted) {
  const std::string var = spec.substr(4);
  if (var.empty()) bad(quoted + ": expected env:<VARIABLE>");
  const char* value = std::getenv(var.c_str());
  const std::string shown = "variable " + detail::quote(var);
  int64_t id;
  if (value == nullptr)
    throw Error(ErrorKind::kNodeIdUnavailable, quoted + ": " + shown + " is not set");
  if (!parse_uint(value, &id))
    throw Error(
        ErrorKind::kNodeIdUnavailable,
        quoted + ": " + shown + " holds " + detail::quote(value) + ", not a non-negative integer");
  return checked(id, layout, quoted);
}

int64_t k8s_node(const std::string& spec, const Layout& layout, const std::string& quoted) {
  int64_t offset = 0;
  if (spec.size() > 3 && !parse_uint(spec.substr(4), &offset))
    bad(quoted + ": expected k8s or k8s:<non-negative offset>");
  // A StatefulSet pod is named <set>-<ordinal>; HOSTNAME is the usual carrier, with
  // gethostname() as the fallback when the variable is not exported.
  std::string host;
  if (const char* h = std::getenv("HOSTNAME")) host = h;
  if (host.empty()) {
    char buf[256] = {0};
    if (gethostname(buf, sizeof buf - 1) == 0) host = buf;
  }
  const auto dash = host.rfind('-');
  int64_t ordinal;
  if (dash == std::string::npos || !parse_uint(host.substr(dash + 1), &ordinal))
    throw Error(ErrorKind::kNodeIdUnavailable,
                quoted + ": hostname " + detail::quote(host) +
                    " does not end in -<ordinal> (is this a StatefulSet pod?)");
  return checked(static_cast<uint64_t>(ordinal) + static_cast<uint64_t>(offset), layout, quoted);
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

NodeClaim claim_node(const std::string& spec, const Layout& layout,
                     const std::shared_ptr<Clock>& clock, const SlotFilter& usable) {
  NodeClaim claim;
  // getenv, open and libcurl would read only the text before a NUL byte: another variable,
  // directory or host than the one the spec names.
  if (const auto nul = spec.find('\0'); nul != std::string::npos)
    bad("node source " + detail::quote(redact_node_source(spec)) + " has a NUL byte at byte " +
        std::to_string(nul) + "; a node source is text without NUL bytes");
  const std::string quoted = "node source " + detail::quote(redact_node_source(spec));
  if (starts_with(spec, "static:")) {
    claim.node_id = static_node(spec, layout, quoted);
  } else if (starts_with(spec, "env:")) {
    claim.node_id = env_node(spec, layout, quoted);
  } else if (spec == "k8s" || starts_with(spec, "k8s:")) {
    claim.node_id = k8s_node(spec, layout, quoted);
  } else if (spec == "local" || starts_with(spec, "local:") || starts_with(spec, "local?")) {
    claim.lease = claim_local(spec, layout, usable);
    claim.node_id = claim.lease->node_id();
  } else if (starts_with(spec, "etcd://")) {
    claim.lease = claim_etcd(spec, layout, clock, usable);
    claim.node_id = claim.lease->node_id();
  } else if (starts_with(spec, "k8s-lease://")) {
    claim.lease = claim_k8s_lease(spec, layout, clock, usable);
    claim.node_id = claim.lease->node_id();
  } else if (starts_with(spec, "postgres://") || starts_with(spec, "postgresql://")) {
    claim.lease = claim_postgres(spec, layout, clock, usable);
    claim.node_id = claim.lease->node_id();
  } else {
    bad(quoted +
        " is not one of static:<id>, env:<VAR>, k8s[:<offset>], local[:<dir>][?node=<id>], "
        "etcd://host:port/<prefix>, k8s-lease://<prefix>[?ttl=..], "
        "postgres://[user@]host/db[?table=..&ttl=..]");
  }
  return claim;
}

}  // namespace detail
}  // namespace snowfleet
