// One etcd lease per process and store (etcd_process_lease.hpp).
//
//   grant:     once, by the first claimant of this process for the store (the others wait
//              for it and share it): the prefix's genesis read, or created when there is
//              none (etcd_genesis.hpp), then POST /v3/lease/grant {TTL, ID}, the ID tagged
//              with the prefix (a holder lease; chosen again when etcd has it already).
//   keepalive: one thread, a round every TTL/3 from the start of the last one (250 ms
//              after a failure): POST /v3/lease/keepalive, then, once a slot is held, a
//              read of <prefix>/genesis. Both succeeding moves every holder's deadline to
//              (keepalive send time + TTL - margin); a reply without TTL means etcd expired
//              the lease, another genesis or none that the prefix was wiped or restored:
//              every holder is lost.
//   revoke:    when the last holder lets go (the slot keys on the lease go with it).
//   marks:     one thread sends the marks of this process's slots on the lease in shared
//              transactions (etcd_mark_batch.cc).
#include "etcd_process_lease.hpp"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <new>

#include "base/internal.hpp"
#include "etcd_base64.hpp"
#include "etcd_reply.hpp"
#include "uuid/random_internal.hpp"
#include "json_text.hpp"

namespace snowfleet {
namespace detail {
namespace etcd {

namespace {

// The process's leases by store. Built anew in a forked child (a parent thread may have
// held the mutex at the fork; the leases listed are the parent's), the old one leaked.
struct Registry {
  std::mutex mu;
  std::map<std::string, std::weak_ptr<ProcessLease>> leases;
};
Registry* g_registry = nullptr;

Registry& registry() {
  static const int once = [] {
    g_registry = new Registry();
    pthread_atfork(nullptr, nullptr, [] { g_registry = new Registry(); });
    return 0;
  }();
  (void)once;
  return *g_registry;
}

// Everything that makes two specs the same store to etcd and the same lease to us. The
// clock too: the deadline lives on it (tests give generators scripted clocks of their own).
// Credentials are part of it: a lease granted under one identity is not lent to another.
std::string store_key(const EtcdConfig& c, const Clock* clock) {
  std::string k = c.text + '\n' + std::to_string(c.ttl_s) + '\n' + std::to_string(c.max_ttl_s) +
                  '\n' + (c.tls ? "tls" : "") + '\n' + c.cacert + '\n' + c.cert + '\n' + c.key +
                  '\n' + c.user + '\n' + c.password + '\n' + c.password_file + '\n' +
                  c.password_env + '\n';
  for (const std::string& e : c.endpoints) k += e + ',';
  return k + '\n' + std::to_string(reinterpret_cast<uintptr_t>(clock));
}

}  // namespace

std::shared_ptr<ProcessLease> ProcessLease::acquire(const EtcdConfig& config,
                                                    const std::shared_ptr<Clock>& clock) {
  std::shared_ptr<ProcessLease> lease;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    std::weak_ptr<ProcessLease>& slot = r.leases[store_key(config, clock.get())];
    lease = slot.lock();
    if (!lease || lease->lost() || lease->pid_ != getpid()) {
      lease = std::make_shared<ProcessLease>(config, clock);
      slot = lease;
    }
  }
  lease->grant();
  return lease;
}

ProcessLease::ProcessLease(const EtcdConfig& config, std::shared_ptr<Clock> clock)
    : cfg_(config),
      clock_(std::move(clock)),
      pid_(getpid()),
      http_(cfg_, &cancel_gen_),
      keepalive_http_(cfg_, &cancel_gen_),
      mark_http_(cfg_, &cancel_gen_) {
  // The margin absorbs the request's flight time and a clock-rate difference between this
  // host and etcd's leader: a fifth of the TTL, at least half a second.
  margin_ns_ = std::max<int64_t>(cfg_.ttl_s * 1'000'000'000 / 5, 500 * kNsPerMs);
  request_ms_ = static_cast<long>(std::min<int64_t>(2000, cfg_.ttl_s * 1000 / 3));
}

ProcessLease::~ProcessLease() {
  if (getpid() != pid_) {
    // Forked child: the keepalive thread does not exist here and the handles may be
    // mid-request in the parent. Leak them; the lease is the parent's.
    new std::thread(std::move(thread_));
    new std::thread(std::move(mark_thread_));
    http_.leak();
    keepalive_http_.leak();
    mark_http_.leak();
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  {
    std::lock_guard<std::mutex> lock(mark_mu_);
    mark_stop_ = true;
  }
  cancel_gen_.fetch_add(1, std::memory_order_acq_rel);  // a keepalive or mark in flight
  cv_.notify_all();
  mark_cv_.notify_all();
  wake_turns();  // the mark thread waiting for a turn
  if (thread_.joinable()) thread_.join();
  if (mark_thread_.joinable()) mark_thread_.join();
  if (id_ == 0 || failing_ || lost()) return;
  try {
    http_.post("/v3/lease/revoke", {{"ID", std::to_string(id_)}}, 1000);
  } catch (...) {
    // The lease expires by itself after its TTL.
  }
}

void ProcessLease::grant() {
  // A grant that failed while we waited for the lock fails us too: against an etcd that
  // hangs, N claimants would otherwise wait N request timeouts, one grant after another.
  const uint64_t failures = grant_failures_.load(std::memory_order_acquire);
  std::lock_guard<std::mutex> lock(grant_mu_);
  if (id_ != 0) return;
  if (grant_failures_.load(std::memory_order_acquire) != failures) throw Unreachable(grant_error_);
  const Send send = [this](const std::string& path, const nlohmann::json& body) {
    return http_.post(path, body, request_ms_);
  };
  int64_t sent = 0, id = 0;
  nlohmann::json g;
  try {
    // The genesis first: a lease tagged with the prefix then says a genesis existed, and a
    // claim creating the next one after a wipe fences (etcd_genesis.hpp).
    ensure_genesis(send, cfg_.prefix, Ttls{cfg_.ttl_s, cfg_.max_ttl_s},
                   std::max<int64_t>(0, floor_div(clock_->wall_ns(), kNsPerMs)));
    for (int attempt = 0;; ++attempt) {
      id = holder_lease_id(cfg_.prefix, cfg_.ttl_s, static_cast<uint32_t>(system_random_u48()));
      sent = clock_->monotonic_ns();
      try {
        g = send("/v3/lease/grant",
                 {{"TTL", std::to_string(cfg_.ttl_s)}, {"ID", std::to_string(id)}});
        break;
      } catch (const Refused& e) {
        // 2^20 IDs per prefix and TTL: a collision is rare, three in a row another fault.
        if (attempt >= 2 || std::string(e.what()).find("lease already exists") == std::string::npos)
          throw;
      }
    }
  } catch (const std::exception& e) {
    grant_error_ = e.what();
    grant_failures_.fetch_add(1, std::memory_order_acq_rel);
    throw;
  }
  const int64_t ttl = i64(g, "TTL");
  if (i64(g, "ID") != id || ttl <= 0)
    throw Refused("lease grant of ID " + std::to_string(id) +
                  " answered without it or TTL: " + json_text(g).substr(0, 200));
  {
    std::lock_guard<std::mutex> state(mu_);
    deadline_ = deadline_after(sent, ttl);
  }
  id_ = id;
  thread_ = std::thread([this] { keepalive_loop(); });
  mark_thread_ = std::thread([this] { mark_loop(); });
}

int64_t ProcessLease::deadline_after(int64_t sent, int64_t ttl_s) const noexcept {
  // A TTL above the one asked for is not believed (a huge one would overflow the product
  // and keep the fence from ever closing).
  const int64_t ttl = std::min(ttl_s, cfg_.ttl_s);
  return saturating_add(sent, ttl * 1'000'000'000 - margin_ns_);
}

ProcessLease::RequestTurn::RequestTurn(ProcessLease& lease, const std::atomic<uint64_t>* cancel,
                                       bool ahead)
    : lease_(lease) {
  const uint64_t gen = cancel->load(std::memory_order_acquire);
  const auto cancelled = [&] { return cancel->load(std::memory_order_acquire) != gen; };
  std::unique_lock<std::mutex> lock(lease_.turn_mu_);
  const uint64_t failures = lease_.turn_failures_;
  if (ahead) ++lease_.ahead_waiting_;
  lease_.turn_cv_.wait(lock, [&] {
    return cancelled() || lease_.turn_failures_ != failures ||
           (lease_.in_flight_ < kRequestsInFlight && (ahead || lease_.ahead_waiting_ == 0));
  });
  if (ahead) --lease_.ahead_waiting_;
  if (cancelled() || lease_.turn_failures_ != failures) {
    const std::string why =
        cancelled() ? std::string("request cancelled (closing)")
                    : "a request ahead of this one got no answer: " + lease_.turn_failure_;
    lock.unlock();
    lease_.turn_cv_.notify_all();  // a claim waiting behind this one
    throw Unreachable(why);
  }
  ++lease_.in_flight_;
}

nlohmann::json ProcessLease::send(Http& http, const std::string& path, const nlohmann::json& body,
                                  long timeout_ms, const std::atomic<uint64_t>* cancel, bool ahead,
                                  int64_t* turn_at) {
  const RequestTurn turn(*this, cancel, ahead);
  if (turn_at) *turn_at = clock_->monotonic_ns();
  const uint64_t gen = cancel->load(std::memory_order_acquire);
  try {
    return http.post(path, body, timeout_ms);
  } catch (const Unreachable& e) {
    if (cancel->load(std::memory_order_acquire) == gen) {  // not a cancellation
      {
        std::lock_guard<std::mutex> lock(turn_mu_);
        ++turn_failures_;
        turn_failure_ = e.what();
      }
      turn_cv_.notify_all();
    }
    throw;
  }
}

void ProcessLease::wake_turns() {
  { std::lock_guard<std::mutex> lock(turn_mu_); }  // a waiter is either waiting or will see it
  turn_cv_.notify_all();
  { std::lock_guard<std::mutex> lock(mark_mu_); }
  marked_cv_.notify_all();
  // A claim queued for a batch. Not under claim_mu_: a batch's sender may hold it through a
  // read of the held slots. A claim that misses this wake-up sees its cancellation when the
  // batch in flight ends (only then does a queued claim wait).
  claim_queue_.cv.notify_all();
}

ProcessLease::RequestTurn::~RequestTurn() {
  {
    std::lock_guard<std::mutex> lock(lease_.turn_mu_);
    --lease_.in_flight_;
  }
  lease_.turn_cv_.notify_all();  // a claim waiting behind others must see the last one leave
}

int64_t ProcessLease::attach(LeaseHolder* holder) {
  std::lock_guard<std::mutex> lock(mu_);
  holders_.push_back(holder);
  return lost() ? INT64_MIN : deadline_;
}

void ProcessLease::detach(LeaseHolder* holder) {
  std::lock_guard<std::mutex> lock(mu_);
  holders_.erase(std::remove(holders_.begin(), holders_.end(), holder), holders_.end());
}

void ProcessLease::keepalive_loop() {
  const auto period = std::chrono::milliseconds(cfg_.ttl_s * 1000 / 3);
  auto next = std::chrono::steady_clock::now() + period;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      if (cv_.wait_until(lock, next, [this] { return stop_ || lost(); })) return;
    }
    // A period after this round starts, not after it ends: a round is requests in a row
    // (keepalive, genesis read), and at TTL 2 over a 200 ms link, waiting a period after
    // them let the deadline (this round's send + TTL - margin) lapse before the next
    // round confirmed.
    const auto started = std::chrono::steady_clock::now();
    if (!keepalive_once()) return;
    // Keep trying faster after a failure: the deadline decides when minting stops.
    next = started +
           (failing_ ? std::min<std::chrono::milliseconds>(period, std::chrono::milliseconds(250))
                     : period);
  }
}

void ProcessLease::mark_lost(const std::string& why) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (lost()) return;
    lost_.store(true, std::memory_order_release);
    deadline_ = INT64_MIN;
    for (LeaseHolder* h : holders_) h->lease_lost(why);
  }
  cv_.notify_all();  // the keepalive thread has nothing left to keep
}

bool ProcessLease::keepalive_once() {
  if (lost()) return false;
  const int64_t sent = clock_->monotonic_ns();
  int64_t ttl = 0;
  std::string failure;
  try {
    const nlohmann::json r =
        keepalive_http_.post("/v3/lease/keepalive", {{"ID", std::to_string(id_)}}, request_ms_);
    ttl = i64(r.value("result", nlohmann::json::object()), "TTL");
  } catch (const std::exception& e) {
    failure = std::string("keepalive failed: ") + e.what();
  }
  // Only a keepalive followed by a read of the genesis the slots were claimed under moves
  // their deadlines: after a wipe, none moves past TTL - margin (etcd_genesis.hpp). Two
  // requests a round: the lease itself carries the prefix's holder tag.
  GenesisWatch::Check genesis;
  if (failure.empty() && ttl > 0) {
    genesis = genesis_.check(keepalive_http_, cfg_.prefix, request_ms_);
    if (genesis.outcome == GenesisWatch::Check::kUnreadable) failure = genesis.why;
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (!failure.empty()) {
    // Cancelled by the last release: not a failure, and release() must still revoke.
    if (stop_) return false;
    failing_ = true;
    for (LeaseHolder* h : holders_) h->lease_unconfirmed(failure);
    return true;
  }
  failing_ = false;
  if (ttl <= 0 || genesis.outcome == GenesisWatch::Check::kLost) {
    lost_.store(true, std::memory_order_release);
    deadline_ = INT64_MIN;
    for (LeaseHolder* h : holders_)
      h->lease_lost(ttl <= 0 ? "etcd reports the lease " + std::to_string(id_) +
                                   " expired; the slot may belong to another process now"
                             : genesis.why);
    return false;
  }
  // A first claim adopted its genesis after the check: this round confirms nothing.
  if (!genesis_.still(genesis.checked)) return true;
  deadline_ = deadline_after(sent, ttl);
  for (LeaseHolder* h : holders_) h->lease_confirmed(deadline_);
  return true;
}

}  // namespace etcd
}  // namespace detail
}  // namespace snowfleet
