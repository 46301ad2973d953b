// HTTP to etcd's v3 JSON gateway (etcd_http.hpp). Only built with etcd support.
#if SNOWFLEET_HAVE_ETCD
#include "etcd_http.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "curl_loader.hpp"
#include "etcd_reply.hpp"
#include "internal.hpp"

namespace snowfleet {
namespace detail {
namespace etcd {
namespace {

using nlohmann::json;

// Replies are small (the largest, a keys-only range over 65,536 slots, is a few MB): a
// reply past this is refused rather than read into memory without end.
constexpr size_t kMaxReply = size_t{16} << 20;

size_t collect(char* data, size_t size, size_t n, void* out) {
  auto* body = static_cast<std::string*>(out);
  if (body->size() + size * n > kMaxReply) return 0;  // libcurl stops: CURLE_WRITE_ERROR
  body->append(data, size * n);
  return size * n;
}

// The request's view of the cancellation generation: on_progress aborts the transfer
// once the generation has moved (see Http's `cancel`).
struct Cancel {
  const std::atomic<uint64_t>* gen;
  uint64_t at_start;
};
int on_progress(void* p, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  const auto* c = static_cast<const Cancel*>(p);
  return c->gen->load(std::memory_order_acquire) != c->at_start ? 1 : 0;
}

}  // namespace

Http::Http(const EtcdConfig& c, const std::atomic<uint64_t>* cancel) : cfg_(c), cancel_(cancel) {
  load_curl(c.text);  // libcurl is opened at run time, on the first etcd:// claim
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  h_ = curl_easy_init();
  headers_ = curl_slist_append(nullptr, "Content-Type: application/json");
  if (!h_ || !headers_) throw Error(ErrorKind::kInternal, "libcurl could not create a handle");
}

Http::~Http() {
  if (leak_) return;  // forked child: the handle's connection may be mid-use in the parent
  curl_easy_cleanup(h_);
  curl_slist_free_all(headers_);
}

// Each endpoint gets an equal share of what is left of `timeout_ms` (a refused connection
// takes none), so a list of endpoints that all hang costs one timeout, not one each.
json Http::post(const std::string& path, const json& body, long timeout_ms) {
  const std::string data = body.dump();
  std::string last;
  const int64_t until = monotonic_ns() + int64_t{timeout_ms} * kNsPerMs;
  Cancel cancel{cancel_, cancel_->load(std::memory_order_acquire)};
  for (size_t i = 0; i < cfg_.endpoints.size(); ++i) {
    const size_t k = (current_ + i) % cfg_.endpoints.size();
    const int64_t left_ms = (until - monotonic_ns()) / kNsPerMs;
    if (left_ms <= 0) break;
    const long share = static_cast<long>(
        std::max<int64_t>(std::min<int64_t>(left_ms, 100),
                          left_ms / static_cast<int64_t>(cfg_.endpoints.size() - i)));
    const std::string url =
        std::string(cfg_.tls ? "https://" : "http://") + cfg_.endpoints[k] + path;
    std::string out;
    curl_easy_reset(h_);
    curl_easy_setopt(h_, CURLOPT_URL, url.c_str());
    curl_easy_setopt(h_, CURLOPT_POSTFIELDS, data.c_str());
    curl_easy_setopt(h_, CURLOPT_POSTFIELDSIZE, static_cast<long>(data.size()));
    curl_easy_setopt(h_, CURLOPT_HTTPHEADER, headers_);
    curl_easy_setopt(h_, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(h_, CURLOPT_WRITEDATA, &out);
    curl_easy_setopt(h_, CURLOPT_TIMEOUT_MS, share);
    curl_easy_setopt(h_, CURLOPT_CONNECTTIMEOUT_MS, std::min(share, 1000L));
    curl_easy_setopt(h_, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(h_, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(h_, CURLOPT_XFERINFODATA, &cancel);
    curl_easy_setopt(h_, CURLOPT_NOSIGNAL, 1L);  // no SIGALRM from a library thread
    curl_easy_setopt(h_, CURLOPT_PROXY, "");     // loopback etcd must not go via $http_proxy
    if (!cfg_.cacert.empty()) curl_easy_setopt(h_, CURLOPT_CAINFO, cfg_.cacert.c_str());
    if (!cfg_.cert.empty()) curl_easy_setopt(h_, CURLOPT_SSLCERT, cfg_.cert.c_str());
    if (!cfg_.key.empty()) curl_easy_setopt(h_, CURLOPT_SSLKEY, cfg_.key.c_str());
    const CURLcode rc = curl_easy_perform(h_);
    if (rc == CURLE_ABORTED_BY_CALLBACK) throw Unreachable("request cancelled (closing)");
    if (rc != CURLE_OK) {
      last = cfg_.endpoints[k] + ": " +
             (rc == CURLE_WRITE_ERROR ? "the reply is larger than " +
                                            std::to_string(kMaxReply >> 20) + " MiB"
                                      : std::string(curl_easy_strerror(rc)));
      continue;
    }
    current_ = k;  // stick to an endpoint that answers
    long status = 0;
    curl_easy_getinfo(h_, CURLINFO_RESPONSE_CODE, &status);
    json j = json::parse(out, nullptr, false);
    if (j.is_discarded())
      throw Refused(cfg_.endpoints[k] + path + " answered HTTP " + std::to_string(status) +
                    " with something that is not JSON");
    if (status != 200 || (j.is_object() && j.contains("error"))) {
      std::string msg = j.is_object() && j.contains("message") && j["message"].is_string()
                            ? j["message"].get<std::string>()
                            : out.substr(0, 200);
      if (j.is_object() && j.contains("error") && j["error"].is_object() &&
          j["error"].contains("message"))
        msg = j["error"]["message"].dump();
      throw Refused(cfg_.endpoints[k] + path + ": HTTP " + std::to_string(status) + ": " + msg);
    }
    return j;
  }
  throw Unreachable("etcd unreachable (" + last + ")");
}

}  // namespace etcd
}  // namespace detail
}  // namespace snowfleet
#endif
