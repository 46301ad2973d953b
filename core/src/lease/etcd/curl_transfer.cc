// Shared pieces of a libcurl transfer (curl_transfer.hpp).
#include "curl_transfer.hpp"

namespace snowfleet {
namespace detail {
namespace etcd {

size_t collect_reply(char* data, size_t size, size_t n, void* out) {
  auto* body = static_cast<std::string*>(out);
  if (body->size() + size * n > kMaxReply) return 0;  // libcurl stops: CURLE_WRITE_ERROR
  body->append(data, size * n);
  return size * n;
}

int cancel_progress(void* p, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  const auto* c = static_cast<const Cancel*>(p);
  return c->gen->load(std::memory_order_acquire) != c->at_start ? 1 : 0;
}

}  // namespace etcd
}  // namespace detail
}  // namespace snowfleet
