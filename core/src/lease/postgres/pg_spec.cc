// Parsing and redacting a "postgres://" node-source spec (pg_spec.hpp).
#include "pg_spec.hpp"

#include <set>
#include <string>

#include "base/fail.hpp"
#include "base/quote.hpp"
#include "base/strict_int.hpp"
#include "lease/node_source.hpp"
#include "lease/spec_options.hpp"

namespace snowfleet {
namespace detail {
namespace pg {
namespace {

bool valid_identifier(const std::string& s) {
  if (s.empty() || s.size() > 63 || (s[0] >= '0' && s[0] <= '9')) return false;
  return s.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") == std::string::npos;
}

// A libpq parameter whose value may be a secret.
bool secret_key(const std::string& key) {
  std::string k;
  for (char c : key) k += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return k.find("pass") != std::string::npos || k.find("secret") != std::string::npos;
}

// Applies one of snowfleet's options to `c`; false when `k` is not one (a libpq parameter).
// An option snowfleet reads (a repeat would silently override: refused).
bool own_key(const std::string& k) {
  return k == "table" || k == "ttl" || k == "max_ttl" || k == "node";
}

bool own_option(const std::string& k, const std::string& v, const Layout& layout,
                const std::string& quoted, PostgresConfig& c) {
  if (k == "table") {
    if (!valid_table_name(v))
      bad(quoted + ": table must be [schema.]name in lower-case letters, digits and '_' " +
          "(not starting with a digit, at most 63 bytes each), got " + quote(v));
    c.table = v;
  } else if (k == "ttl") {
    c.ttl_s = ttl_option(quoted, "ttl", v);
  } else if (k == "max_ttl") {
    c.max_ttl_s = ttl_option(quoted, "max_ttl", v);
  } else if (k == "node") {
    c.node = node_option(quoted, v, layout);
  } else {
    return false;
  }
  return true;
}

}  // namespace

bool valid_table_name(const std::string& name) {
  const auto dot = name.find('.');
  if (dot == std::string::npos) return valid_identifier(name);
  return valid_identifier(name.substr(0, dot)) && valid_identifier(name.substr(dot + 1));
}

PostgresConfig parse_postgres_spec(const std::string& spec, const Layout& layout) {
  PostgresConfig c;
  c.text = redact_postgres_spec(spec);
  const std::string quoted = "node source " + quote(c.text);
  const auto q = spec.find('?');
  c.conninfo = spec.substr(0, q);
  if (q == std::string::npos) return c;
  const std::string query = spec.substr(q + 1);
  std::string passed;  // the libpq parameters, in their order
  std::set<std::string> given;
  for (size_t pos = 0; pos <= query.size();) {
    const auto amp = query.find('&', pos);
    const std::string kv =
        query.substr(pos, amp == std::string::npos ? std::string::npos : amp - pos);
    const auto eq = kv.find('=');
    const std::string k = kv.substr(0, eq), v = eq == std::string::npos ? "" : kv.substr(eq + 1);
    if (own_key(k) && !given.insert(k).second)
      bad(quoted + ": option " + quote(k) + " is given twice");
    if (!kv.empty() && !own_option(k, v, layout, quoted, c))
      passed += (passed.empty() ? "" : "&") + kv;
    if (amp == std::string::npos) break;
    pos = amp + 1;
  }
  if (!passed.empty()) c.conninfo += "?" + passed;
  if (c.max_ttl_s != 0 && c.ttl_s > c.max_ttl_s)
    bad(quoted + ": ttl=" + std::to_string(c.ttl_s) + " is above max_ttl=" +
        std::to_string(c.max_ttl_s) + " (the longest TTL the table's members may use)");
  return c;
}

}  // namespace pg

std::string redact_postgres_spec(const std::string& spec) {
  std::string out = spec;
  const auto scheme = out.find("://");
  if (scheme == std::string::npos) return out;
  const size_t start = scheme + 3;
  const size_t end = std::min(out.find('/', start), out.find('?', start));
  const size_t at = out.rfind('@', end == std::string::npos ? std::string::npos : end - 1);
  if (at != std::string::npos && at >= start && (end == std::string::npos || at < end)) {
    const size_t colon = out.find(':', start);
    if (colon < at) out.replace(colon + 1, at - colon - 1, "***");
  }
  const size_t qm = out.find('?');
  for (size_t pos = qm == std::string::npos ? out.size() : qm + 1; pos < out.size();) {
    size_t amp = out.find('&', pos);
    if (amp == std::string::npos) amp = out.size();
    const size_t eq = out.find('=', pos);
    if (eq < amp && pg::secret_key(out.substr(pos, eq - pos))) {
      out.replace(eq + 1, amp - eq - 1, "***");
      amp = eq + 4;
    }
    pos = amp + 1;
  }
  return out;
}

}  // namespace detail
}  // namespace snowfleet
