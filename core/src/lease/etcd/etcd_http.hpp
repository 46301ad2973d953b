// HTTP to etcd's v3 JSON gateway: one libcurl easy handle per user thread, POSTing JSON to
// a list of endpoints in turn, authenticating as the spec's user when it names one. Only
// built with etcd support (libcurl and nlohmann-json). Internal.
#pragma once

#include <curl/curl.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "lease/node_source.hpp"

namespace snowfleet {
namespace detail {
namespace etcd {

/// No endpoint answered (or the request was cancelled).
struct Unreachable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// An attempt's time with `n` endpoints and `budget_ms` for the request: never longer than a
/// single pass gave each member; at least twice what answers took lately (`slow_ms`), so a
/// link that is slow but alive is not cut off.
int64_t attempt_share(int64_t n, int64_t budget_ms, int64_t slow_ms);

/// This attempt's time: the member that answered the last request (`first`) gets the single
/// pass's share `pass_ms`; the last attempt that fits takes all that is left (`left_ms`)
/// rather than leave a stub.
long attempt_time(bool first, int64_t attempt_ms, int64_t pass_ms, int64_t left_ms);

/// A libcurl easy handle bound to the endpoints of `config`. Not thread-safe: each thread
/// that talks to etcd owns one.
class Http {
 public:
  /// `cancel`: a transfer is aborted once *cancel no longer equals the value it had when
  /// the request started (EtcdLease::cancel_pending, release), so a store that hangs cannot
  /// hold close(). Both referents must outlive the handle.
  Http(const EtcdConfig& config, const std::atomic<uint64_t>* cancel);
  ~Http();
  Http(const Http&) = delete;
  Http& operator=(const Http&) = delete;

  /// Forked child: the destructor frees nothing (the connection may be mid-use in the
  /// parent).
  void leak() { leak_ = true; }

  /// POSTs `body` to `path` on the endpoints in turn until one answers, within
  /// `timeout_ms` for the whole request (and as much again for each authentication). Returns the
  /// JSON reply; throws Unreachable when no endpoint answers, Refused (etcd_reply.hpp) when one
  /// answers with an error or not JSON, or a certificate, key or password the spec names cannot be
  /// read. With a user, the first request authenticates (/v3/auth/authenticate) and every request
  /// carries the token (one per process and credentials, shared by every handle); a token etcd
  /// no longer knows (expired, revoked) is renewed once per call.
  nlohmann::json post(const std::string& path, const nlohmann::json& body, long timeout_ms);

 private:
  // One POST over the endpoints until `until_ns` (monotonic), with the current token.
  nlohmann::json send(const std::string& path, const std::string& data, int64_t until_ns);
  // A token for the user (token_), other than the one held: the process's shared one when
  // another handle has renewed it, else a new one for the password, before `until_ns`.
  void authenticate(int64_t until_ns);
  void set_token(const std::string& token);
  std::string password() const;
  void check_files();

  const EtcdConfig& cfg_;
  const std::atomic<uint64_t>* cancel_;
  CURL* h_ = nullptr;
  curl_slist* headers_ = nullptr;       // Content-Type
  curl_slist* auth_headers_ = nullptr;  // Content-Type and Authorization: token_
  std::string token_;
  char error_[CURL_ERROR_SIZE] = {0};
  size_t current_ = 0;    // the endpoint a request asks first
  bool answered_ = true;  // ... and it answered the last request
  int64_t slow_ms_ = 0;   // the slowest recent answer, decaying by 1/8 per answer
  bool files_checked_ = false;
  bool leak_ = false;
};

}  // namespace etcd
}  // namespace detail
}  // namespace snowfleet
