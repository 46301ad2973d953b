// Where a Kubernetes client finds its API server and credentials, in the order
// controller-runtime's GetConfig uses: the spec's kubeconfig= option, $KUBECONFIG (a
// ':'-list: the first file to set a name or current-context wins, as client-go merges
// them), in-cluster (KUBERNETES_SERVICE_HOST and _PORT and the service account's files),
// ~/.kube/config. Reads files but talks to nobody. Internal.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace snowfleet {
namespace detail {
namespace kube {

/// The service account directory a pod is given.
inline constexpr const char* kServiceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount";

/// An API server and how to talk to it. Certificates and keys come either as files or as
/// PEM text (a kubeconfig's -data forms, decoded).
struct Target {
  std::string server;  ///< https://host:port (no trailing '/')
  std::string ca_file, ca_pem;
  bool insecure = false;   ///< insecure-skip-tls-verify
  std::string token;       ///< a bearer token given inline
  std::string token_file;  ///< ... or read from this file (re-read: in-cluster tokens rotate)
  std::string cert_file, cert_pem, key_file, key_pem;
  std::string namespace_;  ///< the context's (or in-cluster) namespace, "" if none
  std::string namespace_from;  ///< where namespace_ was read, for messages
  std::string source;      ///< "kubeconfig /path (context x)" or "in-cluster", for messages
};

/// The namespace the Leases live in: the spec's `namespace=` when given (checked by the
/// spec's parser), else the target's, else "default". A target's namespace goes into every
/// request's path: one that is not a DNS label (as every Kubernetes namespace is) is
/// refused with Error kNodeIdUnavailable, naming where it was read.
std::string chosen_namespace(const std::string& spec_namespace, const Target& target);

/// `s` without whitespace at either end, as client-go reads a service account's namespace
/// and token files.
std::string trim_space(const std::string& s);

/// Refuses (Error kNodeIdUnavailable, naming `where` and the byte, never the token) a
/// bearer token holding a control character other than a tab: it goes into a header line,
/// where a CR or LF would end it and start another (Go's net/http refuses such a value).
void check_token(const std::string& token, const std::string& where);

/// What chose the target: the spec's options.
struct Where {
  std::string kubeconfig;  ///< the kubeconfig= option ("" when not given)
  std::string context;     ///< context= ("" : the current-context)
};

/// Finds the target as described above, with `env` and `home` as the environment
/// ($KUBECONFIG, KUBERNETES_SERVICE_HOST/PORT) and `sa_dir` the service account directory
/// (tests pass their own). Throws Error kNodeIdUnavailable naming the file, the field and
/// the rule when something is missing or not supported (exec and auth-provider users,
/// username/password, impersonation, proxy-url).
Target find_target(const Where& where, const std::string& kubeconfig_env,
                   const std::string& service_host, const std::string& service_port,
                   const std::string& home, const std::string& sa_dir = kServiceAccountDir);

/// find_target with the process's environment.
Target find_target(const Where& where);

/// The target a parsed kubeconfig (`config`, read from the files `files`; relative paths
/// are relative to the directory of the file that named them, `dirs` by the same index as
/// the merged entries record) gives for `context` ("": current-context). Exposed for tests.
Target target_from_kubeconfig(const std::vector<std::string>& files,
                              const std::vector<nlohmann::json>& configs,
                              const std::string& context);

}  // namespace kube
}  // namespace detail
}  // namespace snowfleet
