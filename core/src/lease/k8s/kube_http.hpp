// HTTPS to a kube-apiserver through libcurl (loaded at run time by the etcd engine's
// curl_loader): one request at a time on one easy handle, with the target's CA, client
// certificate or bearer token. The token of a tokenFile (in-cluster: a bound token the
// kubelet rotates) is read again every minute and after a 401 (kube_token.hpp). Internal.
#pragma once

#include <curl/curl.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "kube_config.hpp"
#include "kube_token.hpp"

namespace snowfleet {
namespace detail {
namespace kube {

/// No answer (connection refused, timeout, TLS failure, cancelled): the outcome is unknown.
struct Unreachable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// An HTTP answer: its status and its body as JSON (discarded when not JSON).
struct Reply {
  long status = 0;
  nlohmann::json body;
  int64_t retry_after_s = -1;  // the Retry-After header in seconds; -1: none or not a number
};

class Http {
 public:
  /// `spec` names the node source in errors; requests in flight fail once `*cancel` moves.
  Http(Target target, std::string spec, const std::atomic<uint64_t>* cancel);
  ~Http();
  Http(const Http&) = delete;
  Http& operator=(const Http&) = delete;
  /// Forked child: free nothing (the connection may be mid-use in the parent).
  void leak() { leak_ = true; }

  /// Sends `method` (GET, POST, PATCH) to `path` with `body` (JSON; a PATCH as a merge patch)
  /// within `timeout_ms`. `sent`: the monotonic time just before the request first went
  /// out (sent again after a 401 or a 429, the body is the same, and so is `sent`). A
  /// 429 (API Priority and Fairness turned the request away before serving it) is sent
  /// again after its Retry-After, up to kRetries429 times, each wait at most `timeout_ms`.
  /// Throws Unreachable, or Error kNodeIdUnavailable when a file the target names cannot
  /// be read or this libcurl cannot take inline certificates.
  Reply request(const std::string& method, const std::string& path, const nlohmann::json* body,
                long timeout_ms, int64_t* sent = nullptr);

  const Target& target() const { return target_; }
  static constexpr int kRetries429 = 3;

 private:
  Reply send(const std::string& method, const std::string& path, const std::string& data,
             long timeout_ms, int64_t* sent);
  void set_tls();
  void refresh_token(bool refused);
  void rebuild_headers(const std::string& method, bool with_body);
  bool nap_unless_cancelled(int64_t ms) const;

  Target target_;
  std::string spec_;
  const std::atomic<uint64_t>* cancel_;
  CURL* h_ = nullptr;
  curl_slist* headers_ = nullptr;
  std::unique_ptr<TokenFile> token_file_;  // null: the target's token, or none
  std::string token_;
  char error_[CURL_ERROR_SIZE] = {0};
  bool leak_ = false;
};

}  // namespace kube
}  // namespace detail
}  // namespace snowfleet
