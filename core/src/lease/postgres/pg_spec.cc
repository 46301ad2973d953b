// Parsing and redacting a "postgres://" node-source spec (pg_spec.hpp).
#include "pg_spec.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/fail.hpp"
#include "base/quote.hpp"
#include "base/strict_int.hpp"
#include "lease/node_source.hpp"
#include "lease/spec_options.hpp"

namespace snowfleet {
namespace detail {
namespace {

constexpr const char* kMask = "***";  // a password, wherever a message would show one

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// `s` with its %XX escapes decoded as libpq decodes a URI (an invalid one left as written).
std::string percent_decoded(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex_value(s[i + 1]) >= 0 && hex_value(s[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

using Spans = std::vector<std::pair<size_t, size_t>>;
Spans secret_spans(const std::string& spec);

}  // namespace

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

// One host's port (percent-decoded), `written` as the spec has it: empty is libpq's default.
void check_port(const std::string& item, const std::string& written, const std::string& quoted) {
  int64_t port = 0;
  if (!item.empty() && (!parse_uint(item, &port) || port < 1 || port > 65535))
    bad(quoted + ": port must be a decimal number in [1, 65535] or empty for the " +
        "default (one per host, comma-separated), got " + quote(written));
}

// A port list ("5432,,5433"), `written` as its source has it. `as_integer`: each item read
// as libpq reads $PGPORT's, an integer with blanks around it and an optional '+'
// (" 5432\r" is 5432); the spec's own ports are held to plain digits.
void check_port_list(const std::string& value, const std::string& written,
                     const std::string& quoted, bool as_integer = false) {
  const auto blank = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  for (size_t pos = 0; pos <= value.size();) {
    const size_t comma = std::min(value.find(',', pos), value.size());
    size_t b = pos, e = comma;
    if (as_integer) {
      while (b < e && blank(value[b])) ++b;
      while (e > b && blank(value[e - 1])) --e;
      if (b < e && value[b] == '+') ++b;
    }
    check_port(value.substr(b, e - b), written, quoted);
    pos = comma + 1;
  }
}

void check_sslmode(const std::string& value, const std::string& written,
                   const std::string& quoted) {
  static const std::set<std::string> modes = {"disable", "allow",     "prefer",
                                              "require", "verify-ca", "verify-full"};
  if (!modes.count(value))
    bad(quoted + ": sslmode must be one of disable, allow, prefer, require, verify-ca, " +
        "verify-full, got " + quote(written));
}

// libpq's port and sslmode, checked here: a typo is the spec's error, not a failed connect.
void check_libpq_option(const std::string& k, const std::string& v, const std::string& quoted) {
  if (k == "port") check_port_list(percent_decoded(v), v, quoted);
  if (k == "sslmode") check_sslmode(percent_decoded(v), v, quoted);
}

// What libpq takes from $PGPORT and $PGSSLMODE where the spec gives no port and no sslmode,
// checked as the spec's own would be, naming the variable. An empty $PGPORT is libpq's
// default port; an empty $PGSSLMODE is refused by libpq too. Not with a connection service:
// its file may set either, and libpq then does not read the variable.
void check_libpq_environment(bool spec_has_port, bool spec_has_sslmode, bool service,
                             const std::string& quoted) {
  const char* named = std::getenv("PGSERVICE");
  if (service || (named && *named)) return;
  const char* port = std::getenv("PGPORT");
  if (!spec_has_port && port) check_port_list(port, port, quoted + " with $PGPORT", true);
  const char* mode = std::getenv("PGSSLMODE");
  if (!spec_has_sslmode && mode) check_sslmode(mode, mode, quoted + " with $PGSSLMODE");
}

// Where the URI's host list starts, as libpq reads it (npos: not a URI): after the
// userinfo, which ends at the first '@' before the first '/' (a '?' or ',' before that '@'
// is the userinfo's, as in a password "pa?ss").
size_t hosts_start(const std::string& spec) {
  const auto scheme = spec.find("://");
  if (scheme == std::string::npos) return std::string::npos;
  const size_t start = scheme + 3, at = spec.find_first_of("@/", start);
  return at != std::string::npos && spec[at] == '@' ? at + 1 : start;
}

// `spec`'s text at [off, off + len), or the mask when a password may sit there (a URI
// whose userinfo libpq cannot find reads part of the password as a host or port).
std::string shown(const std::string& spec, size_t off, size_t len) {
  for (const auto& [s_off, s_len] : secret_spans(spec))
    if (s_off < off + len && off < s_off + s_len) return kMask;
  return spec.substr(off, len);
}

// The ports of the host list "host[:port],[ipv6]:port,..." from `from` to the first '/' or
// '?' (libpq's default port for a host without one).
// Whether libpq takes a port list from the host list, and then not $PGPORT: when a host
// has a port, or there are several hosts (their list of empty ports, ",", is one).
bool check_host_ports(const std::string& spec, size_t from, const std::string& quoted) {
  bool listed = false;
  const size_t end = std::min(spec.find_first_of("/?", from), spec.size());
  for (size_t pos = from; pos <= end;) {
    // A bracketed IPv6 host may hold a ',' (libpq reads "[::1,::2]" as two hosts).
    const size_t close = spec[pos] == '[' ? std::min(spec.find(']', pos), end) : pos;
    const size_t comma = std::min(spec.find(',', close), end);
    const size_t colon = spec.find(':', close);
    if (colon < comma) {
      const std::string port = spec.substr(colon + 1, comma - colon - 1);
      check_port(percent_decoded(port), shown(spec, colon + 1, port.size()), quoted);
      listed = listed || !port.empty();
    }
    listed = listed || comma < end;
    pos = comma + 1;
  }
  return listed;
}

// Applies snowfleet's options of `query` to `c` and checks libpq's; returns libpq's, in
// their order, and adds their keys to `libpq_keys`.
std::string take_options(const std::string& query, const Layout& layout, const std::string& quoted,
                         PostgresConfig& c, std::set<std::string>* libpq_keys) {
  std::string passed;
  std::set<std::string> given;
  for (size_t pos = 0; pos <= query.size();) {
    const auto amp = query.find('&', pos);
    const std::string kv =
        query.substr(pos, amp == std::string::npos ? std::string::npos : amp - pos);
    const auto eq = kv.find('=');
    // libpq decodes a key as it decodes a value ("p%6Frt" is port).
    const std::string k = percent_decoded(kv.substr(0, eq));
    const std::string v = eq == std::string::npos ? "" : kv.substr(eq + 1);
    if (own_key(k) && !given.insert(k).second)
      bad(quoted + ": option " + quote(k) + " is given twice");
    if (!kv.empty() && !own_option(k, v, layout, quoted, c)) {
      check_libpq_option(k, v, quoted);
      libpq_keys->insert(k);
      passed += (passed.empty() ? "" : "&") + kv;
    }
    if (amp == std::string::npos) break;
    pos = amp + 1;
  }
  return passed;
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
  const size_t hosts = hosts_start(spec);
  const bool host_port = hosts != std::string::npos && check_host_ports(spec, hosts, quoted);
  const auto q = spec.find('?', hosts == std::string::npos ? 0 : hosts);
  c.conninfo = spec.substr(0, q);
  std::set<std::string> keys;
  if (q != std::string::npos) {
    const std::string passed = take_options(spec.substr(q + 1), layout, quoted, c, &keys);
    if (!passed.empty()) c.conninfo += "?" + passed;
  }
  // libpq turns ssl=true and requiressl into an sslmode.
  check_libpq_environment(host_port || keys.count("port"),
                          keys.count("sslmode") + keys.count("ssl") + keys.count("requiressl") > 0,
                          keys.count("service") > 0, quoted);
  if (c.max_ttl_s != 0 && c.ttl_s > c.max_ttl_s)
    bad(quoted + ": ttl=" + std::to_string(c.ttl_s) + " is above max_ttl=" +
        std::to_string(c.max_ttl_s) + " (the longest TTL the table's members may use)");
  return c;
}

}  // namespace pg

namespace {

// The password of a URI's userinfo when it ends before `end` (from the first ':' to the
// last '@' before `end`, so both libpq's first '@' and a later one are covered); the '@'
// in *at (npos: no userinfo).
void userinfo_password(const std::string& spec, size_t start, size_t end, Spans* spans,
                       size_t* at) {
  *at = spec.rfind('@', end == std::string::npos ? std::string::npos : end - 1);
  if (*at == std::string::npos || *at < start || *at >= end) {
    *at = std::string::npos;
    return;
  }
  const size_t colon = spec.find(':', start);
  if (colon < *at) spans->emplace_back(colon + 1, *at - colon - 1);
}

// Where a userinfo may end at the latest: an unencoded '/' in a password puts its '@' past
// the first '/' (libpq then reads the text after the ':' as a port), up to the first '='
// after that '/' (an '@' in a query's value comes after its '=').
size_t later_userinfo_end(const std::string& spec, size_t slash) {
  return slash == std::string::npos ? std::string::npos : spec.find('=', slash);
}

// The values of the query parameters after the '?' at `qm` whose names read as secrets.
void query_secrets(const std::string& spec, size_t qm, Spans* spans) {
  for (size_t pos = qm == std::string::npos ? spec.size() : qm + 1; pos < spec.size();) {
    size_t amp = spec.find('&', pos);
    if (amp == std::string::npos) amp = spec.size();
    const size_t eq = spec.find('=', pos);
    if (eq < amp && pg::secret_key(percent_decoded(spec.substr(pos, eq - pos))))
      spans->emplace_back(eq + 1, amp - eq - 1);
    pos = amp + 1;
  }
}

// Where a password may sit in `spec` (offset, length; ascending and disjoint). A '?' before
// the userinfo's '@' reads two ways: libpq ends the userinfo at the first '/' only (the '?'
// is the password's), while an '@' in the query ends it there when the URI has no path; the
// spans cover both readings, and an '@' only after the first '/' too.
Spans secret_spans(const std::string& spec) {
  Spans spans;
  const auto scheme = spec.find("://");
  if (scheme == std::string::npos) return spans;
  const size_t start = scheme + 3, slash = spec.find('/', start);
  size_t at_path = std::string::npos, at_query = std::string::npos;
  userinfo_password(spec, start, slash, &spans, &at_path);
  userinfo_password(spec, start, std::min(slash, spec.find('?', start)), &spans, &at_query);
  size_t at_later = std::string::npos;
  userinfo_password(spec, start, later_userinfo_end(spec, slash), &spans, &at_later);
  query_secrets(spec, spec.find('?', start), &spans);
  if (at_path != std::string::npos) query_secrets(spec, spec.find('?', at_path), &spans);
  std::sort(spans.begin(), spans.end());
  Spans merged;
  for (const auto& [off, len] : spans) {
    if (!merged.empty() && off <= merged.back().first + merged.back().second)
      merged.back().second = std::max(merged.back().second, off + len - merged.back().first);
    else
      merged.emplace_back(off, len);
  }
  return merged;
}

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// Replaces each occurrence of `from`; of a secret shorter than kWordlessMin characters only
// those not inside a word ("pw" in "user:pw@h", not the "a" of "that"): masking a short one
// everywhere would garble the message and tell nothing a reader could not guess.
constexpr size_t kWordlessMin = 4;
void replace_all(std::string& text, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (size_t pos = 0; (pos = text.find(from, pos)) != std::string::npos;) {
    const size_t end = pos + from.size();
    if (from.size() < kWordlessMin &&
        ((pos > 0 && word_char(text[pos - 1])) || (end < text.size() && word_char(text[end])))) {
      pos += 1;
      continue;
    }
    text.replace(pos, from.size(), to);
    pos += to.size();
  }
}

// Whether libpq may split the URI's userinfo elsewhere than secret_spans does: libpq ends it
// at the first '@' before the first '/', secret_spans at the last; a '?' before that '@'; an
// '@' past the first '/' (a password's unencoded '/'). Parts of a password can then reach
// libpq's messages as a user, host or query parameter.
bool userinfo_ambiguous(const std::string& uri) {
  const auto scheme = uri.find("://");
  if (scheme == std::string::npos) return false;
  const size_t start = scheme + 3;
  const size_t slash = uri.find('/', start);
  const size_t later = uri.rfind('@', later_userinfo_end(uri, slash));
  if (slash != std::string::npos && later != std::string::npos && later > slash) return true;
  const std::string authority =
      uri.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
  const size_t at = authority.find('@');
  if (at == std::string::npos) return false;
  return authority.find('@', at + 1) != std::string::npos || authority.find('?') < at;
}

// `message` with every double-quoted text replaced by the mask.
std::string without_quoted(const std::string& message) {
  std::string out;
  bool quoted = false;
  for (char c : message) {
    if (c == '"') {
      out += quoted ? std::string(kMask) + "\"" : "\"";
      quoted = !quoted;
    } else if (!quoted) {
      out += c;
    }
  }
  if (quoted) out += kMask;
  return out;
}

bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

// One value of a keyword=value connection string from `i` (quoted or bare, with libpq's
// backslash escapes), leaving `i` past it.
std::string keyword_value(const std::string& s, size_t& i) {
  std::string value;
  const bool quoted = i < s.size() && s[i] == '\'';
  for (i += quoted ? 1 : 0; i < s.size(); ++i) {
    if (quoted ? s[i] == '\'' : space(s[i])) break;
    if (s[i] == '\\' && i + 1 < s.size()) ++i;
    value += s[i];
  }
  if (quoted && i < s.size()) ++i;
  return value;
}

// The values of a keyword=value connection string's secret parameters, as written and as
// libpq reads them.
std::vector<std::string> keyword_secrets(const std::string& conninfo) {
  std::vector<std::string> out;
  if (conninfo.find("://") != std::string::npos) return out;
  const auto skip_space = [&conninfo](size_t i) {
    while (i < conninfo.size() && space(conninfo[i])) ++i;
    return i;
  };
  for (size_t i = skip_space(0);; i = skip_space(i)) {
    const size_t k = i;
    while (i < conninfo.size() && conninfo[i] != '=' && !space(conninfo[i])) ++i;
    const std::string key = conninfo.substr(k, i - k);
    i = skip_space(i);
    if (key.empty() || i >= conninfo.size() || conninfo[i] != '=') return out;
    const size_t v = i = skip_space(i + 1);
    const std::string value = keyword_value(conninfo, i);
    if (pg::secret_key(key)) {
      out.push_back(value);
      out.push_back(conninfo.substr(v, i - v));
    }
  }
}

}  // namespace

std::string redact_postgres_spec(const std::string& spec) {
  std::string out = spec;
  const auto spans = secret_spans(spec);
  for (auto s = spans.rbegin(); s != spans.rend(); ++s) out.replace(s->first, s->second, kMask);
  return out;
}

namespace pg {

std::string mask_libpq_message(const std::string& message, const std::string& conninfo) {
  // (what libpq may quote, what the message shows instead), the longest first
  std::vector<std::pair<std::string, std::string>> swaps = {
      {conninfo, redact_postgres_spec(conninfo)}};
  for (const auto& span : secret_spans(conninfo)) {
    const std::string written = conninfo.substr(span.first, span.second);
    swaps.emplace_back(written, kMask);
    swaps.emplace_back(percent_decoded(written), kMask);
  }
  for (const auto& value : keyword_secrets(conninfo)) swaps.emplace_back(value, kMask);
  if (const char* env = std::getenv("PGPASSWORD")) swaps.emplace_back(env, kMask);
  std::stable_sort(swaps.begin(), swaps.end(),
                   [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  std::string out = message;
  for (const auto& swap : swaps) replace_all(out, swap.first, swap.second);
  return userinfo_ambiguous(conninfo) ? without_quoted(out) : out;
}

}  // namespace pg
}  // namespace detail
}  // namespace snowfleet
