// The bearer token of a kubeconfig's tokenFile or the in-cluster service account: a file
// the kubelet rewrites as it rotates the token. Read again once a minute and after the
// server refused the token (401). A periodic re-read that fails (the file missing for a
// moment while it is swapped, empty, or not a token) keeps the token read last, as
// client-go's cached token source does, and is tried again at the next request; a failed
// first read, and a failed re-read after a 401, are errors, and a token the server refused
// is never sent again: every request reads the file until it gives another. Internal.
#pragma once

#include <cstdint>
#include <string>

namespace snowfleet {
namespace detail {
namespace kube {

class TokenFile {
 public:
  static constexpr int64_t kRereadNs = int64_t{60} * 1'000'000'000;

  /// `where` names the node source and `source` the kubeconfig or in-cluster origin in errors.
  TokenFile(std::string path, std::string where, std::string source);

  /// The token to send at monotonic time `now_ns`; `refused`: the server answered 401 to the
  /// token returned last. Throws Error kNodeIdUnavailable naming the file and the reason.
  const std::string& get(int64_t now_ns, bool refused);

 private:
  bool read(std::string* token, std::string* why) const;

  std::string path_, where_, source_;
  std::string token_;
  int64_t read_ns_ = 0;
  bool refused_ = false;  // the server answered 401 to token_: read the file before any use
};

}  // namespace kube
}  // namespace detail
}  // namespace snowfleet
