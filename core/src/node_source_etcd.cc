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
// default values are omitted from responses. The pieces live beside this file: the spec
// parser (etcd_spec.cc), base64 (etcd_base64.hpp), the reply readers (etcd_reply.hpp) and
// the HTTP transport (etcd_http.hpp); this file is the lease protocol.
#include "node_source.hpp"

#include <string>

#include "quote.hpp"

#if SNOWFLEET_HAVE_ETCD
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "etcd_base64.hpp"
#include "etcd_http.hpp"
#include "etcd_reply.hpp"
#include "internal.hpp"
#endif

namespace snowfleet {
namespace detail {

#if !SNOWFLEET_HAVE_ETCD

std::shared_ptr<NodeLease> claim_etcd(const std::string& spec, const Layout&,
                                      const std::shared_ptr<Clock>&, const SlotFilter&) {
  throw Error(ErrorKind::kNodeIdUnavailable,
              "node source " + quote(redact_node_source(spec)) +
                  ": this snowfleet was built without etcd support (it needs libcurl and "
                  "nlohmann-json at build time)");
}

#else

namespace {

using etcd::b64;
using etcd::Http;
using etcd::i64;
using etcd::Refused;
using nlohmann::json;

constexpr int64_t kMaxProbes = 65536;

std::string slot_text(int64_t slot) {
  std::string n = std::to_string(slot);
  if (n.size() < 4) n.insert(0, 4 - n.size(), '0');
  return n;
}

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
    const std::string quoted = "node source " + quote(cfg_.text);
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
                             ? "the mark key " + mark_key + " holds " + quote(got.mark_text) +
                                   ", not a Unix ms"
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
        if (released_) return;  // cancelled by release(): no reason to skip its revoke
        // Keep trying, faster: the deadline decides when minting stops.
        set_problem(std::string("keepalive failed: ") + e.what());
        count_renewal_failure();
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

