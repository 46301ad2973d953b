// What every libcurl transfer of the lease engines shares (etcd_http.cc, k8s/kube_http.cc):
// a bounded reply buffer and the cancellation a closing lease uses to cut a request to a
// store that hangs. Internal; only built with libcurl's headers.
#pragma once

#include <curl/curl.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

namespace snowfleet {
namespace detail {
namespace etcd {

/// Replies are small: a reply past this is refused rather than read into memory without end.
inline constexpr size_t kMaxReply = size_t{16} << 20;

/// CURLOPT_WRITEFUNCTION appending to the std::string at `out`, up to kMaxReply (past it the
/// transfer fails with CURLE_WRITE_ERROR).
size_t collect_reply(char* data, size_t size, size_t n, void* out);

/// A request's view of a cancellation generation: the transfer is aborted
/// (CURLE_ABORTED_BY_CALLBACK) once *gen no longer equals at_start.
struct Cancel {
  const std::atomic<uint64_t>* gen;
  uint64_t at_start;
};
/// CURLOPT_XFERINFOFUNCTION for a Cancel passed as CURLOPT_XFERINFODATA.
int cancel_progress(void* cancel, curl_off_t, curl_off_t, curl_off_t, curl_off_t);

}  // namespace etcd
}  // namespace detail
}  // namespace snowfleet
