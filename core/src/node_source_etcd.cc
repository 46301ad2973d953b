// "etcd://host:port[,host:port...]/<prefix>?ttl=10[&node=N][&cacert=..&cert=..&key=..]":
// node ids leased from etcd through its v3 JSON gateway (libcurl + nlohmann-json, both
// optional at build time: without them, SNOWFLEET_HAVE_ETCD is undefined and this source
// says so).
//
//   claim:     POST /v3/lease/grant {TTL}; POST /v3/kv/range over <prefix>/slots/ to skip
//              held slots; then per free slot, starting at a host+pid-derived one,
//              POST /v3/kv/txn: if create_revision(<prefix>/slots/N) == 0, put it with our
//              lease and read <prefix>/marks/N (the high-water mark) in the same revision.
//   keepalive: a background thread, every ttl/3: POST /v3/lease/keepalive. Each success
//              moves the local deadline to (send time + TTL - margin) on the generator's
//              monotonic clock; TTL 0 means the lease is gone: lost for good.
//   mark:      POST /v3/kv/txn: if create_revision(<prefix>/slots/N) is still ours, put
//              <prefix>/marks/N. A holder that lost its slot can never move the mark.
//   release:   stop the keepalive, POST /v3/lease/revoke (deletes the slot key; the mark
//              key has no lease and stays).
// Keys and values are base64 in this API, int64 fields are JSON strings, and fields with
// default values are omitted from responses. The spec parser and the reply readers
// (etcd_reply.hpp) are pure functions, fuzzed by tests/fuzz/node_source.cc and
// tests/fuzz/etcd_reply.cc.
#include "node_source.hpp"

#include <string>

#include "strict_int.hpp"

#if SNOWFLEET_HAVE_ETCD
#include <curl/curl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "etcd_reply.hpp"
#include "internal.hpp"
#endif

namespace snowfleet {
namespace detail {
namespace {

[[noreturn]] void bad(const std::string& what) { throw Error(ErrorKind::kInvalidArgument, what); }

}  // namespace

// ---- configuration: pure text handling, built with or without etcd support -------------
EtcdConfig parse_etcd_spec(const std::string& spec, const Layout& layout) {
  EtcdConfig c;
  c.text = spec.substr(0, spec.find('?'));
  const std::string quoted = "node source '" + spec.substr(0, 200) + "'";
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
    if (h.empty() || colon == std::string::npos || colon == 0 ||
        !parse_uint(h.substr(colon + 1), &port) || port < 1 || port > 65535)
      bad(quoted + ": expected etcd://host:port[,host:port...]/<prefix>[?ttl=10], got endpoint '" +
          h.substr(0, 80) + "'");
    c.endpoints.push_back(h);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  pos = 0;
  while (!query.empty() && pos <= query.size()) {
    const auto amp = query.find('&', pos);
    const std::string kv =
        query.substr(pos, amp == std::string::npos ? std::string::npos : amp - pos);
    const auto eq = kv.find('=');
    const std::string k = kv.substr(0, eq), v = eq == std::string::npos ? "" : kv.substr(eq + 1);
    if (k == "ttl") {
      if (!parse_uint(v, &c.ttl_s) || c.ttl_s < 2 || c.ttl_s > 3600)
        bad(quoted + ": ttl must be an integer number of seconds in [2, 3600], got '" +
            v.substr(0, 40) + "'");
    } else if (k == "node") {
      if (!parse_uint(v, &c.node) || c.node > layout.max_node_id())
        bad(quoted + ": node must be in [0, " + std::to_string(layout.max_node_id()) +
            "] for layout " + layout.to_string() + ", got '" + v.substr(0, 40) + "'");
    } else if (k == "cacert" || k == "cert" || k == "key") {
      if (v.empty()) bad(quoted + ": " + k + " needs a file path");
      (k == "cacert" ? c.cacert : k == "cert" ? c.cert : c.key) = v;
      c.tls = true;
    } else if (k == "tls") {
      if (v != "0" && v != "1") bad(quoted + ": tls must be 0 or 1, got '" + v.substr(0, 40) + "'");
      c.tls = v == "1" || c.tls;
    } else if (!kv.empty()) {
      bad(quoted + ": unknown option '" + k.substr(0, 40) +
          "' (known: ttl, node, tls, cacert, cert, key)");
    }
    if (amp == std::string::npos) break;
    pos = amp + 1;
  }
  return c;
}

#if !SNOWFLEET_HAVE_ETCD

std::shared_ptr<NodeLease> claim_etcd(const std::string& spec, const Layout&,
                                      const std::shared_ptr<Clock>&, const SlotFilter&) {
  throw Error(ErrorKind::kNodeIdUnavailable,
              "node source '" + spec.substr(0, 200) +
                  "': this snowfleet was built without etcd support (it needs libcurl and "
                  "nlohmann-json at build time)");
}

#else

namespace {

using nlohmann::json;

constexpr int64_t kMaxProbes = 65536;

// ---- base64 (keys and values in the JSON gateway) -------------------------------------
const char kB64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string b64(const std::string& in) {
  std::string out;
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const uint32_t v =
        (uint32_t(uint8_t(in[i])) << 16) | (uint32_t(uint8_t(in[i + 1])) << 8) | uint8_t(in[i + 2]);
    out += kB64[v >> 18];
    out += kB64[(v >> 12) & 63];
    out += kB64[(v >> 6) & 63];
    out += kB64[v & 63];
  }
  if (i < in.size()) {
    uint32_t v = uint32_t(uint8_t(in[i])) << 16;
    if (i + 1 < in.size()) v |= uint32_t(uint8_t(in[i + 1])) << 8;
    out += kB64[v >> 18];
    out += kB64[(v >> 12) & 63];
    out += i + 1 < in.size() ? kB64[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

}  // namespace

// ---- reading replies (etcd_reply.hpp) ---------------------------------------------------
namespace etcd {

std::string unb64(const std::string& in) {
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (char c : in) {
    const char* p = c ? std::strchr(kB64, c) : nullptr;
    if (p == nullptr) continue;  // '=' padding
    acc = (acc << 6) | uint32_t(p - kB64);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += char((acc >> bits) & 0xff);
    }
  }
  return out;
}

// A malformed value is never a guess: it refuses the reply.
int64_t i64(const json& obj, const char* field) {
  if (!obj.is_object() || !obj.contains(field)) return 0;
  const json& v = obj[field];
  int64_t out;
  if (v.is_string() && parse_int64(v.get<std::string>(), &out, true)) return out;
  if (v.is_number_integer() && !v.is_number_unsigned()) return v.get<int64_t>();
  if (v.is_number_unsigned() && v.get<uint64_t>() <= uint64_t{INT64_MAX})
    return static_cast<int64_t>(v.get<uint64_t>());
  throw Refused(std::string("malformed etcd reply: field ") + field + " is " +
                v.dump().substr(0, 40) + ", not an int64");
}

const json& field(const json& j, const char* key) {
  static const json null;
  if (!j.is_object()) return null;
  const auto it = j.find(key);
  return it == j.end() ? null : *it;
}

const json& item(const json& j, size_t i) {
  static const json null;
  return j.is_array() && i < j.size() ? j[i] : null;
}

std::set<int64_t> held_slots(const json& reply, const std::string& slots_dir) {
  std::set<int64_t> held;
  const json& kvs = field(reply, "kvs");  // absent when no slot is held
  if (kvs.is_null()) return held;
  if (!kvs.is_array()) throw Refused("malformed etcd reply: kvs is " + kvs.dump().substr(0, 40));
  for (const json& kv : kvs) {
    const json& key = field(kv, "key");
    const std::string k = key.is_string() ? unb64(key.get<std::string>()) : "";
    if (k.compare(0, slots_dir.size(), slots_dir) != 0)
      throw Refused("malformed etcd reply: a range over " + slots_dir + " listed " +
                    kv.dump().substr(0, 80));
    int64_t n;
    if (parse_uint(std::string_view(k).substr(slots_dir.size()), &n)) held.insert(n);
  }
  return held;
}

ClaimReply read_claim_reply(const json& reply) {
  ClaimReply r;
  const json& succeeded = field(reply, "succeeded");  // absent when false
  if (!succeeded.is_null() && !succeeded.is_boolean())
    throw Refused("malformed etcd reply: succeeded is " + succeeded.dump().substr(0, 40));
  r.succeeded = succeeded.is_boolean() && succeeded.get<bool>();
  if (!r.succeeded) return r;
  r.revision = i64(field(reply, "header"), "revision");
  if (r.revision <= 0)
    throw Refused("malformed etcd reply: a claim that succeeded without a header revision");
  // responses[1] answers the range over the mark key; no kvs: the slot has no mark yet. A
  // reply without that range (another shape, a transcoder's camelCase) says nothing about
  // the slot's history, which must never be read as "none".
  const json& range = field(item(field(reply, "responses"), 1), "response_range");
  if (!range.is_object())
    throw Refused("malformed etcd reply: the claim's answer has no responses[1].response_range "
                  "(the slot's mark could not be read)");
  const json& kvs = field(range, "kvs");
  if (kvs.is_array() && !kvs.empty()) {
    const json& value = field(kvs[0], "value");
    const std::string v = value.is_string() ? unb64(value.get<std::string>()) : "";
    if (!parse_int64(v, &r.mark_ms, true) || r.mark_ms < -1) {
      r.mark_readable = false;
      r.mark_ms = -1;
      r.mark_text = v;
    }
  }
  return r;
}

}  // namespace etcd

namespace {

using etcd::i64;
using etcd::Refused;

std::string slot_text(int64_t slot) {
  std::string n = std::to_string(slot);
  if (n.size() < 4) n.insert(0, 4 - n.size(), '0');
  return n;
}

// ---- HTTP: one libcurl easy handle per user thread --------------------------------------
struct Unreachable : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// Replies are small (the largest, a keys-only range over 65,536 slots, is a few MB): a
// reply past this is refused rather than read into memory without end.
constexpr size_t kMaxReply = size_t{16} << 20;

size_t collect(char* data, size_t size, size_t n, void* out) {
  auto* body = static_cast<std::string*>(out);
  if (body->size() + size * n > kMaxReply) return 0;  // libcurl stops: CURLE_WRITE_ERROR
  body->append(data, size * n);
  return size * n;
}

// Aborts a transfer once *cancel no longer equals the value it had when the request
// started (EtcdLease::cancel_pending, release): a store that hangs cannot hold close().
struct Cancel {
  const std::atomic<uint64_t>* gen;
  uint64_t at_start;
};
int on_progress(void* p, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  const auto* c = static_cast<const Cancel*>(p);
  return c->gen->load(std::memory_order_acquire) != c->at_start ? 1 : 0;
}

class Http {
 public:
  Http(const EtcdConfig& c, const std::atomic<uint64_t>* cancel) : cfg_(c), cancel_(cancel) {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    h_ = curl_easy_init();
    headers_ = curl_slist_append(nullptr, "Content-Type: application/json");
    if (!h_ || !headers_) throw Error(ErrorKind::kInternal, "libcurl could not create a handle");
  }
  ~Http() {
    if (leak_) return;  // forked child: the handle's connection may be mid-use in the parent
    curl_easy_cleanup(h_);
    curl_slist_free_all(headers_);
  }
  void leak() { leak_ = true; }

  // POSTs to the endpoints in turn until one answers. `timeout_ms` bounds the whole call:
  // each endpoint gets an equal share of what is left (a refused connection takes none),
  // so a list of endpoints that all hang costs one timeout, not one each.
  json post(const std::string& path, const json& body, long timeout_ms) {
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

 private:
  const EtcdConfig& cfg_;
  const std::atomic<uint64_t>* cancel_;
  CURL* h_ = nullptr;
  curl_slist* headers_ = nullptr;
  size_t current_ = 0;
  bool leak_ = false;
};

class EtcdLease final : public NodeLease {
 public:
  EtcdLease(EtcdConfig cfg, std::shared_ptr<Clock> clock)
      : cfg_(std::move(cfg)),
        clock_(std::move(clock)),
        http_(cfg_, &cancel_gen_),
        keepalive_http_(cfg_, &cancel_gen_) {
    ttl_ns_ = cfg_.ttl_s * 1'000'000'000;
    // The margin absorbs the request's flight time and a clock-rate difference between
    // this host and etcd's leader: a fifth of the TTL, at least half a second.
    margin_ns_ = std::max<int64_t>(ttl_ns_ / 5, 500 * kNsPerMs);
    request_ms_ = static_cast<long>(std::min<int64_t>(2000, cfg_.ttl_s * 1000 / 3));
  }

  ~EtcdLease() override {
    if (abandoned_) {
      // Forked child (normally the generator leaks the whole lease instead): the keepalive
      // thread does not exist here and its handle may be mid-request. Leak both.
      new std::thread(std::move(thread_));
      http_.leak();
      keepalive_http_.leak();
      return;
    }
    release();
  }

  // Runs the claim protocol; throws kNodeIdUnavailable when no slot can be had.
  void claim(const Layout& layout, const SlotFilter& usable) {
    const std::string quoted = "node source '" + cfg_.text + "'";
    const std::string slots_dir = cfg_.prefix + "/slots/";
    int64_t granted_ttl = 0;
    int64_t sent = clock_->monotonic_ns();
    try {
      const json g =
          http_.post("/v3/lease/grant", {{"TTL", std::to_string(cfg_.ttl_s)}}, request_ms_);
      lease_id_ = i64(g, "ID");
      granted_ttl = i64(g, "TTL");
      if (lease_id_ == 0 || granted_ttl <= 0)
        throw Refused("lease grant answered without ID/TTL: " + g.dump().substr(0, 200));
    } catch (const std::exception& e) {  // transport, etcd error, malformed JSON
      throw Error(ErrorKind::kNodeIdUnavailable, quoted + ": " + e.what());
    }
    deadline_.store(deadline_after(sent, granted_ttl), std::memory_order_release);
    try {
      std::string end = slots_dir;
      end.back() = static_cast<char>(end.back() + 1);  // range end: "<prefix>/slots0"
      const std::set<int64_t> taken = etcd::held_slots(
          http_.post("/v3/kv/range",
                     {{"key", b64(slots_dir)}, {"range_end", b64(end)}, {"keys_only", true}},
                     request_ms_),
          slots_dir);
      const int64_t slots = layout.max_node_id() + 1;
      std::vector<int64_t> order;
      if (cfg_.node >= 0) {
        order.push_back(cfg_.node);
      } else {
        const int64_t start = probe_start(slots);
        for (int64_t i = 0; i < std::min(slots, kMaxProbes); ++i) {
          const int64_t slot = (start + i) % slots;
          // Skip slots held in etcd and, without asking etcd, slots whose ids an open
          // generator of this process mints already.
          if (!taken.count(slot) && (!usable || usable(slot))) order.push_back(slot);
        }
      }
      char host[256] = {0};
      gethostname(host, sizeof host - 1);
      const std::string holder = std::string(host) + " pid " + std::to_string(getpid());
      std::string unreadable;  // why a free slot was skipped, for the refusal
      for (int64_t slot : order) {
        const std::string key = slots_dir + slot_text(slot);
        const std::string mark_key = cfg_.prefix + "/marks/" + slot_text(slot);
        const json txn = {
            {"compare", json::array({{{"key", b64(key)},
                                      {"target", "CREATE"},
                                      {"result", "EQUAL"},
                                      {"create_revision", "0"}}})},
            {"success", json::array({{{"request_put",
                                       {{"key", b64(key)},
                                        {"value", b64(holder)},
                                        {"lease", std::to_string(lease_id_)}}}},
                                     {{"request_range", {{"key", b64(mark_key)}}}}})}};
        const etcd::ClaimReply got =
            etcd::read_claim_reply(http_.post("/v3/kv/txn", txn, request_ms_));
        if (!got.succeeded) continue;  // someone else was faster
        if (!got.mark_readable || got.mark_ms > layout.max_timestamp_ms()) {
          // A history we cannot read is not an empty one, and a mark past the layout's
          // window blocks the slot for good: give it back, try another.
          if (unreadable.empty())
            unreadable = !got.mark_readable
                             ? "the mark key " + mark_key + " holds '" +
                                   got.mark_text.substr(0, 20) + "', not a Unix ms"
                             : "the mark key " + mark_key + " holds " +
                                   std::to_string(got.mark_ms) +
                                   ", past the last millisecond of layout " + layout.to_string();
          give_back(key, got.revision);
          continue;
        }
        node_id_ = slot;
        slot_key_ = key;
        mark_key_ = mark_key;
        create_revision_ = got.revision;
        claimed_mark_ms_ = got.mark_ms;
        mark_ms_.store(got.mark_ms, std::memory_order_relaxed);
        where_ = cfg_.text + " slot " + std::to_string(slot) + " (lease " +
                 std::to_string(lease_id_) + ")";
        thread_ = std::thread([this] { keepalive_loop(); });
        return;
      }
      revoke();
      std::string msg = cfg_.node >= 0 ? quoted + ": slot " + std::to_string(cfg_.node) +
                                             " under " + slots_dir +
                                             (unreadable.empty() ? " is held by another process"
                                                                 : " is not available")
                                       : quoted + ": no free node id under " + slots_dir + " (" +
                                             std::to_string(taken.size()) + " of " +
                                             std::to_string(slots) + " slots held)";
      if (!unreadable.empty()) msg += "; skipped: " + unreadable;
      throw Error(ErrorKind::kNodeIdUnavailable, msg);
    } catch (const Error&) {
      throw;
    } catch (const std::exception& e) {  // transport, etcd error, malformed JSON
      revoke();
      throw Error(ErrorKind::kNodeIdUnavailable, quoted + ": " + e.what());
    }
  }

  void write_mark(int64_t mark_ms) override {
    if (released_) throw Error(ErrorKind::kLeaseLost, where_ + " was released");
    if (lost()) throw Error(ErrorKind::kLeaseLost, problem());
    const json txn = {
        {"compare", json::array({{{"key", b64(slot_key_)},
                                  {"target", "CREATE"},
                                  {"result", "EQUAL"},
                                  {"create_revision", std::to_string(create_revision_)}}})},
        {"success",
         json::array({{{"request_put",
                        {{"key", b64(mark_key_)}, {"value", b64(std::to_string(mark_ms))}}}}})}};
    bool succeeded = false;
    try {
      const json t = http_.post("/v3/kv/txn", txn, request_ms_);
      succeeded = t.value("succeeded", false);
    } catch (const std::exception& e) {  // transport, etcd error, malformed JSON
      const std::string why = where_ + ": could not persist the high-water mark: " + e.what();
      set_problem(why);
      throw Error(ErrorKind::kLeaseLost, why);
    }
    if (!succeeded) {
      lose(where_ + ": the slot key " + slot_key_ +
           " is no longer ours (our lease expired; another process may hold the slot)");
      throw Error(ErrorKind::kLeaseLost, problem());
    }
    mark_ms_.store(mark_ms, std::memory_order_release);
  }

  int64_t mark_lead_ms() const noexcept override { return cfg_.ttl_s * 1000; }
  const std::atomic<int64_t>* deadline() const noexcept override { return &deadline_; }

  void release() noexcept override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (released_) return;
      released_ = true;
    }
    cancel_pending();  // a keepalive in flight to a hanging store
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
    // Revoking frees the slot at once; when the store did not answer the last keepalive,
    // it would not answer this either: the lease then expires by itself after its TTL.
    if (problem().empty()) revoke();
  }

  void cancel_pending() noexcept override { cancel_gen_.fetch_add(1, std::memory_order_acq_rel); }

  void abandon_after_fork() noexcept override { abandoned_ = true; }

 private:
  void revoke() noexcept {
    if (lease_id_ == 0) return;
    try {
      http_.post("/v3/lease/revoke", {{"ID", std::to_string(lease_id_)}}, 1000);
    } catch (...) {
      // The lease expires by itself after its TTL.
    }
    lease_id_ = 0;
  }

  // The local deadline for a lease confirmed (granted or kept alive) by a request sent at
  // `sent` with `ttl_s` seconds granted. A TTL above the one asked for is not believed (a
  // huge one would overflow the product and keep the fence from ever closing).
  int64_t deadline_after(int64_t sent, int64_t ttl_s) const noexcept {
    const int64_t ttl = std::min(ttl_s, cfg_.ttl_s);
    return saturating_add(sent, ttl * 1'000'000'000 - margin_ns_);
  }

  // Deletes a slot key we created at `revision` (a slot we will not keep).
  void give_back(const std::string& key, int64_t revision) {
    const json txn = {
        {"compare", json::array({{{"key", b64(key)},
                                  {"target", "CREATE"},
                                  {"result", "EQUAL"},
                                  {"create_revision", std::to_string(revision)}}})},
        {"success", json::array({{{"request_delete_range", {{"key", b64(key)}}}}})}};
    http_.post("/v3/kv/txn", txn, request_ms_);  // failing that, our lease deletes it
  }

  void lose(const std::string& why) {
    deadline_.store(INT64_MIN, std::memory_order_release);
    set_lost(why);
  }

  void keepalive_loop() {
    const auto period = std::chrono::milliseconds(cfg_.ttl_s * 1000 / 3);
    auto wait = period;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mu_);
        if (cv_.wait_for(lock, wait, [this] { return released_.load(); })) return;
      }
      const int64_t sent = clock_->monotonic_ns();
      try {
        const json r = keepalive_http_.post("/v3/lease/keepalive",
                                            {{"ID", std::to_string(lease_id_)}}, request_ms_);
        const int64_t ttl = i64(r.value("result", json::object()), "TTL");
        if (ttl <= 0) {
          lose(where_ +
               ": etcd reports the lease expired; the slot may belong to another "
               "process now");
          return;
        }
        deadline_.store(deadline_after(sent, ttl), std::memory_order_release);
        set_problem("");
        wait = period;
      } catch (const std::exception& e) {
        // Keep trying, faster: the deadline decides when minting stops.
        set_problem(std::string("keepalive failed: ") + e.what());
        wait = std::min<std::chrono::milliseconds>(period, std::chrono::milliseconds(250));
      }
    }
  }

  EtcdConfig cfg_;
  std::shared_ptr<Clock> clock_;
  Http http_;            // claim, marks (the mark keeper's thread, then close()), revoke
  Http keepalive_http_;  // the keepalive thread's own handle
  int64_t ttl_ns_ = 0, margin_ns_ = 0;
  long request_ms_ = 1000;
  int64_t lease_id_ = 0, create_revision_ = 0;
  std::string slot_key_, mark_key_;
  std::atomic<int64_t> deadline_{INT64_MIN};
  std::mutex mu_;
  std::condition_variable cv_;
  std::atomic<bool> released_{false};
  std::atomic<uint64_t> cancel_gen_{0};  // see Cancel (the Http handles keep its address)
  bool abandoned_ = false;
  std::thread thread_;
};

}  // namespace

std::shared_ptr<NodeLease> claim_etcd(const std::string& spec, const Layout& layout,
                                      const std::shared_ptr<Clock>& clock,
                                      const SlotFilter& usable) {
  auto lease = std::make_shared<EtcdLease>(parse_etcd_spec(spec, layout), clock);
  lease->claim(layout, usable);
  return lease;
}

#endif

}  // namespace detail
}  // namespace snowfleet
