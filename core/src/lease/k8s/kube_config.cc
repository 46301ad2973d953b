// Finding the API server and credentials (kube_config.hpp).
#include "kube_config.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "base/quote.hpp"
#include "base/small_file.hpp"
#include "k8s_spec.hpp"
#include "kube_yaml.hpp"
#include "lease/etcd/etcd_base64.hpp"
#include "lease/etcd/json_text.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace detail {
namespace kube {
namespace {

using nlohmann::json;

[[noreturn]] void unavailable(const std::string& why) {
  throw Error(ErrorKind::kNodeIdUnavailable, why);
}

bool read_file(const std::string& path, std::string* out, std::string* why = nullptr) {
  std::string reason;
  if (read_small_file(path, out, &reason)) return true;
  if (why) *why = reason;
  return false;
}



// libcurl opens these itself: refused before any request (see exists_but_not_regular).
void check_regular(const std::string& path, const std::string& what) {
  if (exists_but_not_regular(path))
    unavailable(what + " " + quote(path) + " is not a regular file");
}

std::string dir_of(const std::string& file) {
  const auto slash = file.rfind('/');
  return slash == std::string::npos ? "." : file.substr(0, slash);
}

std::string resolve(const std::string& path, const std::string& dir) {
  return path.empty() || path[0] == '/' ? path : dir + "/" + path;
}

// A field's text: strings as they are, booleans and numbers (JSON flow) as written.
std::string text(const json& obj, const char* key) {
  if (!obj.is_object() || !obj.contains(key) || obj[key].is_null()) return "";
  const json& v = obj[key];
  // Never written out: dump() recurses once per level, and a deep enough list overflows
  // the stack.
  if (v.is_structured())
    unavailable(std::string("kubeconfig field '") + key + "' is a " +
                (v.is_array() ? "list" : "map") + ", not a single value");
  // A YAML scalar may hold any bytes: dump() would throw on one that is not UTF-8.
  return v.is_string() ? v.get<std::string>() : json_text(v);
}

// The named entry of a list (clusters, users, contexts) in the first file that has one: its
// body (the "cluster", "user" or "context" object) and the index of that file.
const json* find_entry(const std::vector<json>& configs, const char* list, const char* body,
                       const std::string& name, size_t* file) {
  for (size_t i = 0; i < configs.size(); ++i) {
    if (!configs[i].is_object() || !configs[i].contains(list)) continue;
    const json& items = configs[i][list];
    if (!items.is_array()) continue;
    for (const json& item : items) {
      if (text(item, "name") != name || !item.is_object()) continue;
      if (!item.contains(body) || !item[body].is_object()) continue;
      *file = i;
      return &item[body];
    }
  }
  return nullptr;
}

std::string decoded(const json& obj, const char* key, const std::string& where) {
  const std::string b64 = text(obj, key);
  if (b64.empty()) return "";
  const std::string pem = etcd::unb64(b64);
  if (pem.find("-----BEGIN ") == std::string::npos)
    unavailable(where + ": " + key + " is not base64 of a PEM block");
  return pem;
}

void refuse_unsupported_user(const json& user, const std::string& where) {
  for (const char* field : {"exec", "auth-provider", "username", "password", "as", "as-groups",
                            "as-uid", "as-user-extra"}) {
    if (user.contains(field))
      unavailable(where + ": the user field " + quote(field) +
                  " is not supported (exec and auth-provider plugins, basic auth and "
                  "impersonation are not); use a token, tokenFile or a client certificate, or "
                  "run in-cluster with a service account");
  }
}

void apply_cluster(const json& c, const std::string& dir, const std::string& where, Target* t) {
  if (c.contains("proxy-url"))
    unavailable(where + ": the cluster field \"proxy-url\" is not supported");
  t->server = text(c, "server");
  while (!t->server.empty() && t->server.back() == '/') t->server.pop_back();
  if (t->server.rfind("https://", 0) != 0 && t->server.rfind("http://", 0) != 0)
    unavailable(where + ": the cluster's server is not an http:// or https:// URL");
  // user:password@ is basic auth, which is not supported, and the URL goes into messages.
  const size_t host = t->server.find("://") + 3;
  if (t->server.find('@', host) < t->server.find('/', host))
    unavailable(where + ": the cluster's server URL holds a user name or password (user@host); " +
                "basic auth is not supported: use a token, tokenFile or a client certificate");
  t->ca_file = resolve(text(c, "certificate-authority"), dir);
  t->ca_pem = decoded(c, "certificate-authority-data", where);
  const std::string insecure = text(c, "insecure-skip-tls-verify");
  if (!insecure.empty() && insecure != "true" && insecure != "false")
    unavailable(where + ": insecure-skip-tls-verify is neither true nor false");
  t->insecure = insecure == "true";
}

void apply_user(const json& u, const std::string& dir, const std::string& where, Target* t) {
  refuse_unsupported_user(u, where);
  t->token = text(u, "token");
  check_token(t->token, where);
  t->token_file = resolve(text(u, "tokenFile"), dir);
  t->cert_file = resolve(text(u, "client-certificate"), dir);
  t->key_file = resolve(text(u, "client-key"), dir);
  t->cert_pem = decoded(u, "client-certificate-data", where);
  t->key_pem = decoded(u, "client-key-data", where);
}

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (const char c : s + ":") {
    if (c != ':') {
      cur += c;
    } else if (!cur.empty()) {
      out.push_back(cur);
      cur.clear();
    }
  }
  return out;
}

Target load_kubeconfigs(const std::vector<std::string>& files, const std::string& context,
                        bool must_exist) {
  std::vector<std::string> read;
  std::vector<json> configs;
  for (const std::string& f : files) {
    std::string body, why;
    if (!read_file(f, &body, &why)) {
      if (must_exist) unavailable("kubeconfig " + quote(f) + " cannot be read: " + why);
      continue;  // client-go skips a $KUBECONFIG entry that does not exist
    }
    try {
      configs.push_back(parse_yaml(body, f));
    } catch (const YamlError& e) {
      unavailable(std::string("kubeconfig ") + e.what());
    }
    read.push_back(f);
  }
  if (configs.empty()) {
    std::string names;
    for (const std::string& f : files) names += (names.empty() ? "" : ", ") + quote(f);
    unavailable("no kubeconfig among $KUBECONFIG's files (" + names + "): none can be read");
  }
  return target_from_kubeconfig(read, configs, context);
}

Target in_cluster(const std::string& host, const std::string& port, const std::string& sa_dir) {
  Target t;
  const bool v6 = host.find(':') != std::string::npos;
  t.server = "https://" + (v6 ? "[" + host + "]" : host) + ":" + port;
  t.ca_file = sa_dir + "/ca.crt";
  t.token_file = sa_dir + "/token";
  std::string ns;
  if (read_file(sa_dir + "/namespace", &ns)) {
    t.namespace_ = trim_space(ns);
    t.namespace_from = "in-cluster " + quote(sa_dir + "/namespace");
  }
  check_regular(t.ca_file, "in-cluster: the service account's CA");
  std::string token;
  if (!read_file(t.token_file, &token))
    unavailable("in-cluster (KUBERNETES_SERVICE_HOST is set): the service account token " +
                quote(t.token_file) + " cannot be read");
  t.source = "in-cluster (" + t.server + ")";
  return t;
}

}  // namespace

Target target_from_kubeconfig(const std::vector<std::string>& files,
                              const std::vector<json>& configs, const std::string& context) {
  std::string name = context;
  for (size_t i = 0; name.empty() && i < configs.size(); ++i)
    name = text(configs[i], "current-context");
  std::string all;
  for (const std::string& f : files) all += (all.empty() ? "" : ":") + f;
  const std::string where = "kubeconfig " + quote(all);
  if (name.empty()) unavailable(where + " has no current-context; give context=NAME");
  size_t ci = 0, cl = 0, us = 0;
  const json* ctx = find_entry(configs, "contexts", "context", name, &ci);
  if (!ctx) unavailable(where + " has no context " + quote(name));
  const std::string cluster = text(*ctx, "cluster"), user = text(*ctx, "user");
  const json* c = find_entry(configs, "clusters", "cluster", cluster, &cl);
  if (!c)
    unavailable(where + " has no cluster " + quote(cluster) + " (context " + quote(name) + ")");
  Target t;
  t.source = "kubeconfig " + quote(files[ci]) + " context " + quote(name);
  apply_cluster(*c, dir_of(files[cl]),
                "kubeconfig " + quote(files[cl]) + " cluster " + quote(cluster), &t);
  if (!user.empty()) {
    const json* u = find_entry(configs, "users", "user", user, &us);
    if (!u) unavailable(where + " has no user " + quote(user) + " (context " + quote(name) + ")");
    apply_user(*u, dir_of(files[us]), "kubeconfig " + quote(files[us]) + " user " + quote(user),
               &t);
  }
  t.namespace_ = text(*ctx, "namespace");
  t.namespace_from = t.source;
  check_regular(t.ca_file, t.source + ": certificate-authority");
  check_regular(t.cert_file, t.source + ": client-certificate");
  check_regular(t.key_file, t.source + ": client-key");
  return t;
}

Target find_target(const Where& where, const std::string& kubeconfig_env,
                   const std::string& service_host, const std::string& service_port,
                   const std::string& home, const std::string& sa_dir) {
  if (!where.kubeconfig.empty()) return load_kubeconfigs({where.kubeconfig}, where.context, true);
  if (const auto files = split_list(kubeconfig_env); !files.empty())
    return load_kubeconfigs(files, where.context, false);
  if (!service_host.empty() && !service_port.empty()) {
    if (!where.context.empty())
      unavailable("context=" + where.context +
                  " names a kubeconfig context, but no kubeconfig "
                  "is given (kubeconfig= or $KUBECONFIG) and this runs in-cluster");
    return in_cluster(service_host, service_port, sa_dir);
  }
  const std::string config = home + "/.kube/config";
  std::string body;
  if (home.empty() || !read_file(config, &body))
    unavailable("no Kubernetes credentials: no kubeconfig= option, $KUBECONFIG " +
                std::string(kubeconfig_env.empty() ? "unset" : "naming no file") +
                ", not in-cluster (KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT " +
                (service_host.empty() ? "unset" : "not both set") + ") and no " + quote(config));
  return load_kubeconfigs({config}, where.context, true);
}

std::string trim_space(const std::string& s) {
  const char* const ws = " \t\r\n\v\f";
  const size_t first = s.find_first_not_of(ws);
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(ws) - first + 1);
}

void check_token(const std::string& token, const std::string& where) {
  for (size_t i = 0; i < token.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(token[i]);
    if ((c < 0x20 && c != '\t') || c == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", c);
      unavailable(where + ": the token holds a control character (byte " + hex + " at offset " +
                  std::to_string(i) + "); a bearer token is one line of text");
    }
  }
}

std::string chosen_namespace(const std::string& spec_namespace, const Target& target) {
  if (!spec_namespace.empty()) return spec_namespace;
  const std::string& ns = target.namespace_;
  if (ns.empty()) return "default";
  if (!valid_dns_label(ns))
    unavailable(target.namespace_from +
                ": namespace must be 1 to 63 lower-case letters, digits and '-', starting "
                "and ending with a letter or digit, got " +
                quote(ns));
  return ns;
}

Target find_target(const Where& where) {
  const auto env = [](const char* name) {
    const char* v = std::getenv(name);
    return std::string(v ? v : "");
  };
  return find_target(where, env("KUBECONFIG"), env("KUBERNETES_SERVICE_HOST"),
                     env("KUBERNETES_SERVICE_PORT"), env("HOME"));
}

}  // namespace kube
}  // namespace detail
}  // namespace snowfleet
