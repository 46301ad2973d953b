// Node-source specs: static:, env: and k8s[:OFFSET] are claimed for real (they do no I/O),
// etcd:// and postgres:// specs are parsed (never claimed), local specs are skipped (a claim
// is file I/O: its text handling lives in node_source_local.cc's claim_local, which is not
// pure).
// Properties: a spec is accepted exactly as its form says, with the node id its text and
// environment give, or refused with kInvalidArgument / kNodeIdUnavailable; an accepted etcd
// spec has endpoints host:port with port 1-65535, ttl 2-3600 s, a node in the layout, and
// printed back from its parts it parses to the same configuration; a user comes with exactly
// one password source, and a refusal's message does not depend on an inline password.
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "lease/node_source.hpp"
#include "lease/postgres/pg_spec.hpp"

using snowfleet::Error;
using snowfleet::ErrorKind;
using snowfleet::Layout;
namespace detail = snowfleet::detail;

namespace {

// The environment the claims see: only these variables.
constexpr const char* kVar = "SNOWFLEET_FUZZ_NODE";  // = 7
constexpr int64_t kVarValue = 7;
constexpr int64_t kOrdinal = 3;  // HOSTNAME=web-3

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

int64_t value_of(std::string_view digits) {
  int64_t v = 0;
  for (char c : digits) v = v * 10 + (c - '0');
  return v;
}

void check_claim(const std::string& spec, const Layout& layout) {
  detail::NodeClaim claim;
  try {
    claim = detail::claim_node(spec, layout, nullptr);
  } catch (const Error& e) {
    FUZZ_CHECK(e.kind() == ErrorKind::kInvalidArgument ||
               e.kind() == ErrorKind::kNodeIdUnavailable);
    FUZZ_CHECK(std::string_view(e.what()).size() < 1024);
    // No source reads a spec with a NUL byte: the C calls behind them would stop there.
    if (spec.find('\0') != std::string::npos) FUZZ_CHECK(e.kind() == ErrorKind::kInvalidArgument);
    return;
  }
  FUZZ_CHECK(spec.find('\0') == std::string::npos);
  FUZZ_CHECK(claim.lease == nullptr);
  FUZZ_CHECK(claim.node_id >= 0 && claim.node_id <= layout.max_node_id());
  const std::string_view s = spec;
  if (starts_with(s, "static:")) {
    FUZZ_CHECK(fuzz::all_digits(s.substr(7)));
    FUZZ_CHECK(claim.node_id == value_of(s.substr(7)));
  } else if (starts_with(s, "env:")) {
    FUZZ_CHECK(s.substr(4) == kVar);  // the only variable holding a number
    FUZZ_CHECK(claim.node_id == kVarValue);
  } else if (s == "k8s") {
    FUZZ_CHECK(claim.node_id == kOrdinal);
  } else {
    FUZZ_CHECK(starts_with(s, "k8s:") && fuzz::all_digits(s.substr(4)));
    FUZZ_CHECK(claim.node_id == kOrdinal + value_of(s.substr(4)));
  }
}

std::string print(const detail::EtcdConfig& c) {
  std::string s = "etcd://";
  for (size_t i = 0; i < c.endpoints.size(); ++i) s += (i ? "," : "") + c.endpoints[i];
  s += "/" + c.prefix + "?ttl=" + std::to_string(c.ttl_s);
  if (c.node >= 0) s += "&node=" + std::to_string(c.node);
  if (!c.cacert.empty()) s += "&cacert=" + c.cacert;
  if (!c.cert.empty()) s += "&cert=" + c.cert;
  if (!c.key.empty()) s += "&key=" + c.key;
  if (c.tls) s += "&tls=1";
  if (!c.user.empty()) s += "&user=" + c.user;
  if (!c.password.empty()) s += "&password=" + c.password;
  if (!c.password_file.empty()) s += "&password_file=" + c.password_file;
  if (!c.password_env.empty()) s += "&password_env=" + c.password_env;
  return s;
}

// `spec` with each inline password ("password=V" in the query, V not empty) replaced by
// "Q": the same spec to the parser, whose messages must not depend on V.
std::string other_passwords(const std::string& spec) {
  std::string out = spec;
  const auto q = out.find('?');
  for (size_t pos = q == std::string::npos ? out.size() : q + 1; pos < out.size();) {
    auto amp = out.find('&', pos);
    const size_t end = amp == std::string::npos ? out.size() : amp;
    if (out.compare(pos, 9, "password=") == 0 && end > pos + 9) {
      out.replace(pos + 9, end - pos - 9, "Q");
      amp = out.find('&', pos);
    }
    if (amp == std::string::npos) break;
    pos = amp + 1;
  }
  return out;
}

void check_etcd_spec(const std::string& spec, const Layout& layout) {
  detail::EtcdConfig c;
  try {
    c = detail::parse_etcd_spec(spec, layout);
  } catch (const Error& e) {
    fuzz::check_refusal(e);
    // An inline password is never shown: the message is the same whatever the password.
    const std::string other = other_passwords(spec);
    if (other != spec) {
      try {
        detail::parse_etcd_spec(other, layout);
        FUZZ_CHECK(false);
      } catch (const Error& e2) {
        FUZZ_CHECK(std::string_view(e.what()) == e2.what());
      }
    }
    return;
  }
  FUZZ_CHECK(!c.endpoints.empty());
  for (const std::string& h : c.endpoints) {
    const auto colon = h.rfind(':');
    FUZZ_CHECK(colon != std::string::npos && colon > 0);
    const std::string_view port = std::string_view(h).substr(colon + 1);
    FUZZ_CHECK(fuzz::all_digits(port) && value_of(port) >= 1 && value_of(port) <= 65535);
    FUZZ_CHECK(h.find_first_of(",/?@ ") == std::string::npos);
  }
  FUZZ_CHECK(!c.prefix.empty() && c.prefix.back() != '/');
  FUZZ_CHECK(c.ttl_s >= 2 && c.ttl_s <= 3600);
  FUZZ_CHECK(c.node >= -1 && c.node <= layout.max_node_id());
  FUZZ_CHECK(c.tls || (c.cacert.empty() && c.cert.empty() && c.key.empty()));
  FUZZ_CHECK(c.text == spec.substr(0, spec.find('?')));
  const int passwords =
      int{!c.password.empty()} + int{!c.password_file.empty()} + int{!c.password_env.empty()};
  FUZZ_CHECK(c.user.empty() ? passwords == 0 : passwords == 1);

  const detail::EtcdConfig back = detail::parse_etcd_spec(print(c), layout);
  FUZZ_CHECK(back.endpoints == c.endpoints && back.prefix == c.prefix && back.ttl_s == c.ttl_s &&
             back.node == c.node && back.cacert == c.cacert && back.cert == c.cert &&
             back.key == c.key && back.tls == c.tls && back.user == c.user &&
             back.password == c.password && back.password_file == c.password_file &&
             back.password_env == c.password_env);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  clearenv();
  setenv(kVar, "7", 1);
  setenv("SNOWFLEET_FUZZ_SPACED", " 7", 1);
  setenv("HOSTNAME", "web-3", 1);
  return 0;
}

// A postgres:// spec: refused as an invalid argument, or its options within their rules, the
// URI libpq gets without them, and no part of a password in what messages show.
void check_postgres_spec(const std::string& spec, const Layout& layout) {
  detail::pg::PostgresConfig c;
  try {
    c = detail::pg::parse_postgres_spec(spec, layout);
  } catch (const Error& e) {
    FUZZ_CHECK(e.kind() == ErrorKind::kInvalidArgument);
    return;
  }
  FUZZ_CHECK(c.ttl_s >= 2 && c.ttl_s <= 3600);
  FUZZ_CHECK(c.node >= -1 && c.node <= layout.max_node_id());
  FUZZ_CHECK(detail::pg::valid_table_name(c.table));
  FUZZ_CHECK(c.conninfo.size() <= spec.size());
  FUZZ_CHECK(c.text == detail::redact_node_source(spec));
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string spec(fuzz::text_of(data, size));
  // The default layout (node ids 0-1023) and one whose node field is as wide as it gets.
  static const Layout kLayouts[] = {Layout(), Layout::create(0, 1, 62, 0)};
  if (starts_with(spec, "local")) return 0;  // a claim is file I/O
  if (starts_with(spec, "postgres://") || starts_with(spec, "postgresql://")) {  // network I/O
    for (const Layout& layout : kLayouts) check_postgres_spec(spec, layout);
    return 0;
  }
  // claim_node refuses a spec with a NUL byte before it reaches any source, so such etcd
  // specs go through claim_node (and never reach the network).
  const bool etcd_spec = starts_with(spec, "etcd://") && spec.find('\0') == std::string::npos;
  for (const Layout& layout : kLayouts) {
    if (etcd_spec)
      check_etcd_spec(spec, layout);
    else
      check_claim(spec, layout);
  }
  return 0;
}
