// Parsing an "etcd://" node-source spec (node_source.hpp): pure text handling, built with
// or without etcd support, fuzzed by tests/fuzz/node_source.cc.
#include <algorithm>
#include <set>
#include <string>

#include "base/fail.hpp"
#include "base/quote.hpp"
#include "base/strict_int.hpp"
#include "node_source.hpp"
#include "spec_options.hpp"

namespace snowfleet {
namespace detail {
namespace {

// A host name, an IPv4 address or a bracketed IPv6 address: nothing libcurl would read as
// anything else (userinfo before '@', a path, a space).
bool valid_host(const std::string& h) {
  if (h.size() > 2 && h.front() == '[' && h.back() == ']')
    return h.find_first_not_of("0123456789abcdefABCDEF:.", 1) == h.size() - 1;
  return !h.empty() && h.find_first_not_of(
                           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                           "0123456789.-_") == std::string::npos;
}

// The query options an etcd spec knows.
bool known_option(const std::string& k) {
  for (const char* o : {"ttl", "max_ttl", "node", "tls", "cacert", "cert", "key", "user",
                        "password_file", "password_env", "password"})
    if (k == o) return true;
  return false;
}

// Whether an unknown option's key may be named: one that reads as a key (a misspelled
// `Password` or `passwd`). Its value never is: the option may be a misspelled password,
// and a "key" of another shape (`password:s3cret`) may be the secret itself.
bool showable_key(const std::string& k) {
  return !k.empty() && k.size() <= 32 &&
         k.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") ==
             std::string::npos;
}

// Userinfo in the authority ("etcd://user:secret@host:port"), refused by the parser but
// named in its message.
void redact_userinfo(std::string& out) {
  const size_t end = std::min(out.find('/', 7), out.find('?'));
  const size_t at = out.rfind('@', end == std::string::npos ? std::string::npos : end - 1);
  if (at != std::string::npos && at >= 7 && (end == std::string::npos || at < end))
    out.replace(7, at - 7, "***");
}

// The option at `pos`, up to `stop` (its '&' or the end), with its secret parts hidden.
void redact_option(std::string& out, size_t pos, size_t stop) {
  if (out.compare(pos, 9, "password=") == 0 && pos + 9 <= stop) {
    // A query cannot carry '&' in a value: what follows up to the next known option may
    // be the rest of a password that holds one.
    while (stop < out.size()) {
      const size_t next = std::min(out.find('&', stop + 1), out.size());
      if (known_option(out.substr(stop + 1, std::min(out.find('=', stop + 1), next) - stop - 1)))
        break;
      stop = next;
    }
    out.replace(pos + 9, stop - pos - 9, "***");
    return;
  }
  const size_t eq = out.find('=', pos);
  const std::string key = out.substr(pos, std::min(eq, stop) - pos);
  if (pos < stop && !known_option(key))
    out.replace(pos, stop - pos, showable_key(key) && eq < stop ? key + "=***" : "***");
}

// What an option is read with: the spec's message prefix and layout, and the config.
struct OptionContext {
  const std::string& quoted;
  const Layout& layout;
  EtcdConfig& c;
};

bool has_password(const EtcdConfig& c) {
  return !c.password.empty() || !c.password_file.empty() || !c.password_env.empty();
}

void set_password(const OptionContext& o, const std::string& k, const std::string& v,
                  const char* needs, std::string EtcdConfig::*field) {
  if (v.empty()) bad(o.quoted + ": " + k + " needs " + needs);
  if (has_password(o.c)) bad(o.quoted + ": give one of password, password_file, password_env");
  o.c.*field = v;
}

void set_tls_file(const OptionContext& o, const std::string& k, const std::string& v,
                  std::string EtcdConfig::*field) {
  if (v.empty()) bad(o.quoted + ": " + k + " needs a file path");
  o.c.*field = v;
  o.c.tls = true;
}

// The query options an etcd spec knows, and how each is read. `once`: a repeat would
// silently override (node=3&node=5: slot 5), so it is refused.
struct Option {
  const char* name;
  bool once;
  void (*read)(const OptionContext& o, const std::string& k, const std::string& v);
};

const Option kOptions[] = {
    {"ttl", true,
     [](const OptionContext& o, const std::string&, const std::string& v) {
       o.c.ttl_s = ttl_option(o.quoted, "ttl", v);
     }},
    {"max_ttl", true,
     [](const OptionContext& o, const std::string&, const std::string& v) {
       o.c.max_ttl_s = ttl_option(o.quoted, "max_ttl", v);
     }},
    {"node", true,
     [](const OptionContext& o, const std::string&, const std::string& v) {
       o.c.node = node_option(o.quoted, v, o.layout);
     }},
    {"tls", true,
     [](const OptionContext& o, const std::string&, const std::string& v) {
       if (v != "0" && v != "1") bad(o.quoted + ": tls must be 0 or 1, got " + quote(v));
       o.c.tls = v == "1" || o.c.tls;
     }},
    {"cacert", true,
     [](const OptionContext& o, const std::string& k, const std::string& v) {
       set_tls_file(o, k, v, &EtcdConfig::cacert);
     }},
    {"cert", true,
     [](const OptionContext& o, const std::string& k, const std::string& v) {
       set_tls_file(o, k, v, &EtcdConfig::cert);
     }},
    {"key", true,
     [](const OptionContext& o, const std::string& k, const std::string& v) {
       set_tls_file(o, k, v, &EtcdConfig::key);
     }},
    {"user", true,
     [](const OptionContext& o, const std::string&, const std::string& v) {
       if (v.empty()) bad(o.quoted + ": user needs a name");
       o.c.user = v;
     }},
    {"password_file", false,
     [](const OptionContext& o, const std::string& k, const std::string& v) {
       set_password(o, k, v, "a file path", &EtcdConfig::password_file);
     }},
    {"password_env", false,
     [](const OptionContext& o, const std::string& k, const std::string& v) {
       set_password(o, k, v, "a variable name", &EtcdConfig::password_env);
     }},
    {"password", false,
     [](const OptionContext& o, const std::string& k, const std::string& v) {
       set_password(o, k, v, "a value", &EtcdConfig::password);
     }},
};

const Option* find_option(const std::string& k) {
  for (const Option& o : kOptions)
    if (k == o.name) return &o;
  return nullptr;
}

// An option the table does not know: refused without its value (it may be secret).
[[noreturn]] void unknown_option(const std::string& quoted, const std::string& k, bool has_value,
                                 bool after_password) {
  if (after_password)  // likely the rest of a password holding '&': not named either
    bad(quoted + ": an unknown option follows password= (a password holding '&' cannot be " +
        "given inline: use password_file= or password_env=)");
  bad(quoted + ": " +
      (showable_key(k) && has_value
           ? "unknown option " + quote(k) + " (its value is not shown: it may be secret)"
           : std::string("an unknown option (not shown: it may be secret)")) +
      "; known: ttl, max_ttl, node, tls, cacert, cert, key, user, password_file, password_env, "
      "password");
}

// One "host:port" of the spec's endpoint list, checked and added to `c.endpoints`.
void add_endpoint(const std::string& h, const std::string& quoted, EtcdConfig& c) {
  int64_t port;
  const auto colon = h.rfind(':');
  if (h.find('@') != std::string::npos)
    bad(quoted +
        ": an endpoint holds no credentials (give user= and password_file= or "
        "password_env= in the query), got endpoint " +
        quote(redact_node_source("etcd://" + h).substr(7)));
  if (h.empty() || colon == std::string::npos || colon == 0 ||
      !parse_uint(h.substr(colon + 1), &port) || port < 1 || port > 65535)
    bad(quoted + ": expected etcd://host:port[,host:port...]/<prefix>[?ttl=10], got endpoint " +
        quote(h));
  if (!valid_host(h.substr(0, colon)))
    bad(quoted + ": endpoint " + quote(h) +
        " has a host that is not a name or an address (letters, digits, '.', '-', '_', or "
        "[IPv6])");
  if (std::find(c.endpoints.begin(), c.endpoints.end(), h) != c.endpoints.end())
    bad(quoted + ": endpoint " + quote(h) + " is listed twice");
  c.endpoints.push_back(h);
}

// Calls `each` on every `sep`-separated part of `text` (one empty part when it is empty).
template <typename F>
void for_each_part(const std::string& text, char sep, F each) {
  for (size_t pos = 0;;) {
    const auto next = text.find(sep, pos);
    each(text.substr(pos, next == std::string::npos ? std::string::npos : next - pos));
    if (next == std::string::npos) return;
    pos = next + 1;
  }
}

void read_options(const std::string& query, const OptionContext& o) {
  if (query.empty()) return;
  bool after_password = false;  // the previous option was an inline password
  std::set<std::string> given;
  for_each_part(query, '&', [&](const std::string& kv) {
    const auto eq = kv.find('=');
    const std::string k = kv.substr(0, eq), v = eq == std::string::npos ? "" : kv.substr(eq + 1);
    const Option* opt = find_option(k);
    if (opt && opt->once && !given.insert(k).second)
      bad(o.quoted + ": option " + quote(k) + " is given twice");
    if (opt)
      opt->read(o, k, v);
    else if (!kv.empty())
      unknown_option(o.quoted, k, eq != std::string::npos, after_password);
    after_password = k == "password";
  });
}

}  // namespace

namespace {

// A spec of none of the sources (a mistyped scheme: "postgres:u:pw@h", "POSTGRES://..."):
// whatever sits between its first ':' and its last '@' may be a password.
std::string redact_unknown_scheme(const std::string& spec) {
  static const char* const kKnown[] = {"static:", "env:", "k8s", "local", "k8s-lease://"};
  for (const char* known : kKnown)
    if (spec.rfind(known, 0) == 0) return spec;
  const size_t colon = spec.find(':'), at = spec.rfind('@');
  if (colon == std::string::npos || at == std::string::npos || at < colon) return spec;
  return spec.substr(0, colon + 1) + "***" + spec.substr(at);
}

}  // namespace

std::string redact_node_source(const std::string& spec) {
  if (spec.rfind("postgres://", 0) == 0 || spec.rfind("postgresql://", 0) == 0)
    return redact_postgres_spec(spec);
  if (spec.rfind("etcd://", 0) != 0) return redact_unknown_scheme(spec);
  std::string out = spec;
  redact_userinfo(out);
  const size_t q = out.find('?');
  if (q == std::string::npos) return out;
  for (size_t pos = q + 1; pos <= out.size();) {
    const size_t amp = out.find('&', pos);
    redact_option(out, pos, amp == std::string::npos ? out.size() : amp);
    const size_t next = out.find('&', pos);
    if (next == std::string::npos) break;
    pos = next + 1;
  }
  return out;
}

EtcdConfig parse_etcd_spec(const std::string& spec, const Layout& layout) {
  EtcdConfig c;
  c.text = spec.substr(0, spec.find('?'));
  const std::string quoted = "node source " + quote(redact_node_source(spec));
  std::string rest = spec.substr(7);  // after etcd://
  std::string query;
  if (const auto q = rest.find('?'); q != std::string::npos) {
    query = rest.substr(q + 1);
    rest = rest.substr(0, q);
  }
  const auto slash = rest.find('/');
  c.prefix = slash == std::string::npos ? "" : rest.substr(slash + 1);
  while (!c.prefix.empty() && c.prefix.back() == '/') c.prefix.pop_back();
  if (c.prefix.empty()) c.prefix = "snowfleet";
  for_each_part(rest.substr(0, slash), ',',
                [&](const std::string& h) { add_endpoint(h, quoted, c); });
  read_options(query, OptionContext{quoted, layout, c});
  if (!c.user.empty() && !has_password(c))
    bad(quoted + ": user " + quote(c.user) +
        " needs a password: password_file=PATH, password_env=VAR or password=...");
  if (c.user.empty() && has_password(c)) bad(quoted + ": a password needs user=NAME");
  if (c.max_ttl_s != 0 && c.ttl_s > c.max_ttl_s)
    bad(quoted + ": ttl=" + std::to_string(c.ttl_s) + " is above max_ttl=" +
        std::to_string(c.max_ttl_s) + " (the longest TTL the prefix's members may use)");
  return c;
}

}  // namespace detail
}  // namespace snowfleet
