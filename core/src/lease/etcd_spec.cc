// Parsing an "etcd://" node-source spec (node_source.hpp): pure text handling, built with
// or without etcd support, fuzzed by tests/fuzz/node_source.cc.
#include <algorithm>
#include <set>
#include <string>

#include "base/fail.hpp"
#include "base/quote.hpp"
#include "base/strict_int.hpp"
#include "node_source.hpp"

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
  for (const char* o : {"ttl", "node", "tls", "cacert", "cert", "key", "user", "password_file",
                        "password_env", "password"})
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

}  // namespace

std::string redact_node_source(const std::string& spec) {
  if (spec.rfind("postgres", 0) == 0) return redact_postgres_spec(spec);
  if (spec.rfind("etcd://", 0) != 0) return spec;
  std::string out = spec;
  // Userinfo in the authority ("etcd://user:secret@host:port"), refused by the parser but
  // named in its message.
  const size_t end = std::min(out.find('/', 7), out.find('?'));
  const size_t at = out.rfind('@', end == std::string::npos ? std::string::npos : end - 1);
  if (at != std::string::npos && at >= 7 && (end == std::string::npos || at < end))
    out.replace(7, at - 7, "***");
  const size_t q = out.find('?');
  if (q == std::string::npos) return out;
  for (size_t pos = q + 1; pos <= out.size();) {
    const size_t amp = out.find('&', pos);
    size_t stop = amp == std::string::npos ? out.size() : amp;
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
    } else {
      const size_t eq = out.find('=', pos);
      const std::string key = out.substr(pos, std::min(eq, stop) - pos);
      if (pos < stop && !known_option(key))
        out.replace(pos, stop - pos, showable_key(key) && eq < stop ? key + "=***" : "***");
    }
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
    for (const std::string& seen : c.endpoints)
      if (seen == h) bad(quoted + ": endpoint " + quote(h) + " is listed twice");
    c.endpoints.push_back(h);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  pos = 0;
  bool after_password = false;  // the previous option was an inline password
  std::set<std::string> given;  // a repeat would silently override (node=3&node=5: slot 5)
  while (!query.empty() && pos <= query.size()) {
    const auto amp = query.find('&', pos);
    const std::string kv =
        query.substr(pos, amp == std::string::npos ? std::string::npos : amp - pos);
    const auto eq = kv.find('=');
    const std::string k = kv.substr(0, eq), v = eq == std::string::npos ? "" : kv.substr(eq + 1);
    if ((k == "ttl" || k == "node" || k == "tls" || k == "cacert" || k == "cert" || k == "key" ||
         k == "user") &&
        !given.insert(k).second)
      bad(quoted + ": option " + quote(k) + " is given twice");
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
    } else if (k == "user") {
      if (v.empty()) bad(quoted + ": user needs a name");
      c.user = v;
    } else if (k == "password" || k == "password_file" || k == "password_env") {
      if (v.empty())
        bad(quoted + ": " + k + " needs " +
            (k == "password"        ? "a value"
             : k == "password_file" ? "a file path"
                                    : "a variable name"));
      if (!c.password.empty() || !c.password_file.empty() || !c.password_env.empty())
        bad(quoted + ": give one of password, password_file, password_env");
      (k == "password" ? c.password : k == "password_file" ? c.password_file : c.password_env) = v;
    } else if (!kv.empty() && after_password) {
      // Likely the rest of a password holding '&': not named, it may be secret.
      bad(quoted + ": an unknown option follows password= (a password holding '&' cannot be " +
          "given inline: use password_file= or password_env=)");
    } else if (!kv.empty()) {
      bad(quoted + ": " +
          (showable_key(k) && eq != std::string::npos
               ? "unknown option " + quote(k) + " (its value is not shown: it may be secret)"
               : std::string("an unknown option (not shown: it may be secret)")) +
          "; known: ttl, node, tls, cacert, cert, key, user, password_file, password_env, "
          "password");
    }
    after_password = k == "password";
    if (amp == std::string::npos) break;
    pos = amp + 1;
  }
  const bool has_password =
      !c.password.empty() || !c.password_file.empty() || !c.password_env.empty();
  if (!c.user.empty() && !has_password)
    bad(quoted + ": user " + quote(c.user) +
        " needs a password: password_file=PATH, password_env=VAR or password=...");
  if (c.user.empty() && has_password) bad(quoted + ": a password needs user=NAME");
  return c;
}

}  // namespace detail
}  // namespace snowfleet
