// HTTPS to a kube-apiserver (kube_http.hpp).
#include "kube_http.hpp"

#include <curl/curl.h>
#include <strings.h>
#include <time.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>

#include "base/internal.hpp"
#include "base/strict_int.hpp"
#include "lease/etcd/curl_loader.hpp"
#include "lease/etcd/curl_transfer.hpp"
#include "lease/etcd/json_text.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace detail {
namespace kube {
namespace {

// A PEM text for a *_BLOB option (libcurl copies it). Headers older than 7.77 (the last of
// the three options) declare no blobs: such a build refuses inline data as an old libcurl
// does at run time (CURLE_UNKNOWN_OPTION).
#if LIBCURL_VERSION_NUM >= 0x074d00
CURLcode set_blob(CURL* h, CURLoption option, const std::string& pem) {
  curl_blob blob{const_cast<char*>(pem.data()), pem.size(), CURL_BLOB_COPY};
  return curl_easy_setopt(h, option, &blob);
}
#define SNOWFLEET_CURL_BLOB(name) CURLOPT_##name##_BLOB
#else
enum NoBlob { kNoBlob };
CURLcode set_blob(CURL*, NoBlob, const std::string&) { return CURLE_UNKNOWN_OPTION; }
#define SNOWFLEET_CURL_BLOB(name) kNoBlob
#endif

}  // namespace

Http::Http(Target target, std::string spec, const std::atomic<uint64_t>* cancel)
    : target_(std::move(target)), spec_(std::move(spec)), cancel_(cancel) {
  if (!target_.token_file.empty())
    token_file_ = std::make_unique<TokenFile>(target_.token_file, spec_, target_.source);
  etcd::load_curl(spec_);
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  h_ = curl_easy_init();
  if (!h_) throw Error(ErrorKind::kInternal, "libcurl could not create a handle");
}

Http::~Http() {
  if (leak_) return;
  curl_easy_cleanup(h_);
  curl_slist_free_all(headers_);
}

void Http::refresh_token(bool refused) {
  token_ = token_file_ ? token_file_->get(monotonic_ns(), refused) : target_.token;
}

void Http::rebuild_headers(const std::string& method, bool with_body) {
  curl_slist_free_all(headers_);
  headers_ = curl_slist_append(nullptr, "Accept: application/json");
  if (with_body)
    headers_ =
        curl_slist_append(headers_, method == "PATCH" ? "Content-Type: application/merge-patch+json"
                                                      : "Content-Type: application/json");
  if (!token_.empty())
    headers_ = curl_slist_append(headers_, ("Authorization: Bearer " + token_).c_str());
  if (!headers_) throw Error(ErrorKind::kInternal, "libcurl could not build a header list");
}

void Http::set_tls() {
  const auto refuse = [this](const char* what) {
    throw Error(ErrorKind::kNodeIdUnavailable,
                spec_ + ": this libcurl cannot take " + what +
                    " inline (the kubeconfig's -data form needs libcurl 7.77 or later; give "
                    "the file path instead) (" +
                    target_.source + ")");
  };
  if (target_.insecure) {
    curl_easy_setopt(h_, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(h_, CURLOPT_SSL_VERIFYHOST, 0L);
  } else if (!target_.ca_pem.empty()) {
    if (set_blob(h_, SNOWFLEET_CURL_BLOB(CAINFO), target_.ca_pem) != CURLE_OK) refuse("a CA");
  } else if (!target_.ca_file.empty()) {
    curl_easy_setopt(h_, CURLOPT_CAINFO, target_.ca_file.c_str());
  }
  if (!target_.cert_pem.empty()) {
    curl_easy_setopt(h_, CURLOPT_SSLCERTTYPE, "PEM");
    if (set_blob(h_, SNOWFLEET_CURL_BLOB(SSLCERT), target_.cert_pem) != CURLE_OK)
      refuse("a certificate");
  } else if (!target_.cert_file.empty()) {
    curl_easy_setopt(h_, CURLOPT_SSLCERT, target_.cert_file.c_str());
  }
  if (!target_.key_pem.empty()) {
    curl_easy_setopt(h_, CURLOPT_SSLKEYTYPE, "PEM");
    if (set_blob(h_, SNOWFLEET_CURL_BLOB(SSLKEY), target_.key_pem) != CURLE_OK) refuse("a key");
  } else if (!target_.key_file.empty()) {
    curl_easy_setopt(h_, CURLOPT_SSLKEY, target_.key_file.c_str());
  }
}

namespace {

// CURLOPT_HEADERFUNCTION: the Retry-After header's seconds into *(int64_t*)out.
size_t note_retry_after(char* data, size_t size, size_t n, void* out) {
  const std::string line(data, size * n);
  constexpr size_t kName = sizeof "retry-after:" - 1;
  int64_t s = -1;
  if (line.size() > kName && strncasecmp(line.c_str(), "retry-after:", kName) == 0 &&
      parse_uint(trim_space(line.substr(kName)), &s))
    *static_cast<int64_t*>(out) = s;
  return size * n;
}

}  // namespace

Reply Http::send(const std::string& method, const std::string& path, const std::string& data,
                 long timeout_ms, int64_t* sent) {
  std::string out;
  etcd::Cancel cancel{cancel_, cancel_->load(std::memory_order_acquire)};
  rebuild_headers(method, !data.empty());
  curl_easy_reset(h_);
  const std::string url = target_.server + path;
  curl_easy_setopt(h_, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h_, CURLOPT_CUSTOMREQUEST, method.c_str());
  if (!data.empty()) {
    curl_easy_setopt(h_, CURLOPT_POSTFIELDS, data.c_str());
    curl_easy_setopt(h_, CURLOPT_POSTFIELDSIZE, static_cast<long>(data.size()));
  }
  curl_easy_setopt(h_, CURLOPT_HTTPHEADER, headers_);
  curl_easy_setopt(h_, CURLOPT_ERRORBUFFER, error_);
  error_[0] = '\0';
  curl_easy_setopt(h_, CURLOPT_WRITEFUNCTION, etcd::collect_reply);
  curl_easy_setopt(h_, CURLOPT_WRITEDATA, &out);
  int64_t retry_after_s = -1;
  curl_easy_setopt(h_, CURLOPT_HEADERFUNCTION, note_retry_after);
  curl_easy_setopt(h_, CURLOPT_HEADERDATA, &retry_after_s);
  curl_easy_setopt(h_, CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(h_, CURLOPT_CONNECTTIMEOUT_MS, std::min(timeout_ms, 1000L));
  curl_easy_setopt(h_, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(h_, CURLOPT_XFERINFOFUNCTION, etcd::cancel_progress);
  curl_easy_setopt(h_, CURLOPT_XFERINFODATA, &cancel);
  curl_easy_setopt(h_, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h_, CURLOPT_PROXY, "");  // proxy-url is refused, and $https_proxy ignored
  set_tls();
  if (sent) *sent = monotonic_ns();
  const CURLcode rc = curl_easy_perform(h_);
  if (rc == CURLE_ABORTED_BY_CALLBACK) throw Unreachable("request cancelled (closing)");
  if (rc != CURLE_OK)
    throw Unreachable(target_.server + ": " + curl_easy_strerror(rc) +
                      (error_[0] ? std::string(": ") + error_ : std::string()));
  Reply r;
  curl_easy_getinfo(h_, CURLINFO_RESPONSE_CODE, &r.status);
  r.body = nlohmann::json::parse(out, nullptr, false);
  r.retry_after_s = retry_after_s;
  return r;
}

// Sleeps `ms` in short naps, false as soon as the handle's requests are cancelled.
bool Http::nap_unless_cancelled(int64_t ms) const {
  const uint64_t at_start = cancel_->load(std::memory_order_acquire);
  const int64_t until = monotonic_ns() + ms * 1'000'000;
  for (int64_t left = ms * 1'000'000; left > 0; left = until - monotonic_ns()) {
    const int64_t nap = std::min<int64_t>(left, 20'000'000);
    timespec ts{0, static_cast<long>(nap)};
    nanosleep(&ts, nullptr);
    if (cancel_->load(std::memory_order_acquire) != at_start) return false;
  }
  return true;
}

Reply Http::request(const std::string& method, const std::string& path, const nlohmann::json* body,
                    long timeout_ms, int64_t* sent) {
  refresh_token(false);
  const std::string data = body ? json_text(*body) : std::string();
  // Every sending carries the same body (its renewTime read before the first): `sent` stays
  // the first sending's time, or a deadline counted from a later one would outlast the
  // expiry other claimants read in the Lease.
  int64_t first = 0;
  Reply r = send(method, path, data, timeout_ms, &first);
  if (sent) *sent = first;
  if (r.status == 401 && !target_.token_file.empty()) {  // rotated under us: read it again
    refresh_token(true);
    r = send(method, path, data, timeout_ms, nullptr);
  }
  // Turned away before being served (429): safe to send again, whatever the method. The
  // wait is what the server asks (1 s when it does not say), within the request's timeout.
  for (int i = 0; i < kRetries429 && r.status == 429; ++i) {
    const int64_t ask_ms =
        r.retry_after_s >= 0 ? std::min<int64_t>(r.retry_after_s, 60) * 1000 : 1000;
    if (!nap_unless_cancelled(std::min<int64_t>(ask_ms, timeout_ms)))
      throw Unreachable("request cancelled (closing)");
    r = send(method, path, data, timeout_ms, nullptr);
  }
  return r;
}

}  // namespace kube
}  // namespace detail
}  // namespace snowfleet
