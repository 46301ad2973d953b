// One etcd lease per process and store: the generators of a process that lease node ids
// from the same endpoints, prefix, TTL and credentials hold their slot keys with one etcd
// lease, kept alive by one thread, as etcd's own clients do. So the keepalive load on etcd
// grows with processes, not generators, and a claim needs no lease grant of its own (in a
// storm of claims, the grants were what etcd fell behind on). Only built with etcd support.
// Internal.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "etcd_genesis.hpp"
#include "etcd_http.hpp"
#include "node_source.hpp"

namespace snowfleet {
namespace detail {
namespace etcd {

/// What a slot held with a shared lease hears from the lease's keepalive thread.
class LeaseHolder {
 public:
  /// A keepalive succeeded: the lease lives until `deadline` (Clock::monotonic_ns).
  virtual void lease_confirmed(int64_t deadline) = 0;
  /// A keepalive failed (`why`); the deadline stays where it was.
  virtual void lease_unconfirmed(const std::string& why) = 0;
  /// etcd no longer has the lease: every key on it is gone. Final.
  virtual void lease_lost(const std::string& why) = 0;

 protected:
  ~LeaseHolder() = default;
};

/// One etcd lease and its keepalive thread, shared (reference-counted) by the slots of this
/// process that use the same store. The last reference revokes it.
class ProcessLease {
 public:
  /// The live lease of this process for `config` (its endpoints, prefix, TTL and
  /// credentials) and `clock`, granted now if there is none (or it was lost, or was
  /// inherited across fork(): a child never uses its parent's lease). Throws what the grant
  /// request throws (Unreachable, Refused).
  static std::shared_ptr<ProcessLease> acquire(const EtcdConfig& config,
                                               const std::shared_ptr<Clock>& clock);

  ProcessLease(const EtcdConfig& config, std::shared_ptr<Clock> clock);
  /// Stops the keepalive and revokes the lease (unless its last keepalive failed: then the
  /// store would not answer the revoke either, and the lease expires by its TTL). In a
  /// forked child: leaks the thread handle and the connection, revokes nothing.
  ~ProcessLease();
  ProcessLease(const ProcessLease&) = delete;
  ProcessLease& operator=(const ProcessLease&) = delete;

  int64_t id() const noexcept { return id_; }
  /// Starts telling `holder` about keepalives; returns the current deadline (INT64_MIN if
  /// the lease is already lost).
  int64_t attach(LeaseHolder* holder);
  /// Stops telling `holder`; returns at once even while a keepalive is in flight.
  void detach(LeaseHolder* holder);
  /// The lease's local deadline for a confirmation sent at `sent` with `ttl_s` granted.
  int64_t deadline_after(int64_t sent, int64_t ttl_s) const noexcept;
  bool lost() const noexcept { return lost_.load(std::memory_order_acquire); }
  /// etcd answered a request on this lease that it does not know it ("requested lease not
  /// found": expired or revoked before a keepalive could tell): every holder is lost, the
  /// keepalive stops, and the next acquire() grants a new lease.
  void mark_lost(const std::string& why);

  /// What this process knows of the held slots under the prefix, shared by its claims on
  /// this store: each starts from what the previous ones learned (so it usually costs a
  /// single compare-and-swap), and concurrent ones never pick the same slot (they would
  /// only race each other and crowd etcd). A lost race brings a fresh read with its answer.
  struct HeldSlots {
    int64_t slots = -1;          ///< the layout's slot count `held` is for; -1: unknown
    std::set<int64_t> held;      ///< held below `slots`, as of the last read plus our claims
    std::set<int64_t> claiming;  ///< picked by a claim of this process, answer pending
    /// Reads of the held slots that failed, and why the last one did: a claim that waited
    /// for the lock while another's read failed fails with it, instead of sending its own
    /// (against an etcd that hangs, N waiting claims would otherwise take N timeouts).
    std::atomic<uint64_t> read_failures{0};
    std::string read_error;
  };
  /// A turn to send a claim or mark request: at most kRequestsInFlight at once per process
  /// and store. A storm of this process's generators then queues here, not in etcd, whose
  /// latency (and so every request's timeout) stays that of a few requests. Claims go
  /// first: a held generator's keeper writes its mark ahead of need (twice a second, even
  /// idle), so a claim that waited behind every holder's keeper would wait for nothing.
  /// Against an etcd that hangs, the 8 turns are held for a full request timeout each: a
  /// request that gets no answer fails the requests then waiting for a turn (they would
  /// only wait to get none either), and close() cancels its generator's wait. A slow etcd
  /// that answers keeps its queue: a storm of claims waits its turn however long.
  class RequestTurn {
   public:
    enum Kind { kClaim, kMark };
    /// Waits for a turn; throws Unreachable when a request in flight gets no answer or
    /// `*cancel` (the caller's Http cancellation generation) moves meanwhile.
    RequestTurn(ProcessLease& lease, Kind kind, const std::atomic<uint64_t>* cancel);
    ~RequestTurn();
    RequestTurn(const RequestTurn&) = delete;
    RequestTurn& operator=(const RequestTurn&) = delete;

   private:
    ProcessLease& lease_;
  };
  /// One claim or mark request in a turn: `http.post(path, body, timeout_ms)`, whose
  /// Unreachable (not a cancellation) also fails the requests waiting for a turn.
  nlohmann::json send(Http& http, RequestTurn::Kind kind, const std::string& path,
                      const nlohmann::json& body, long timeout_ms,
                      const std::atomic<uint64_t>* cancel);
  static constexpr int kRequestsInFlight = 8;
  /// Wakes the requests waiting for a turn, so that one whose caller was cancelled gives up.
  void wake_turns();

  /// The prefix's genesis the slots on this lease were claimed under; checked after each
  /// keepalive (etcd_genesis.hpp).
  GenesisWatch& genesis() noexcept { return genesis_; }

  /// The shared state and the mutex that guards it.
  std::mutex& claim_state(HeldSlots** held) {
    *held = &held_;
    return claim_mu_;
  }

 private:
  void grant();
  void keepalive_loop();
  /// One keepalive: the single place where a keepalive's outcome (deadline moved, failed,
  /// lease gone) is decided and told to every holder.
  bool keepalive_once();

  const EtcdConfig cfg_;  // a copy: the Http handles keep a reference to it
  const std::shared_ptr<Clock> clock_;
  const pid_t pid_;
  std::atomic<uint64_t> cancel_gen_{0};  // see Http: a keepalive in flight at destruction
  Http http_;                            // grant, revoke (under grant_mu_ / destruction)
  Http keepalive_http_;                  // the keepalive thread's own handle
  int64_t margin_ns_ = 0;
  long request_ms_ = 1000;
  int64_t id_ = 0;
  std::mutex grant_mu_;                      // one grant for all the threads that acquire at once
  std::atomic<uint64_t> grant_failures_{0};  // see grant()
  std::string grant_error_;                  // the last grant's failure, under grant_mu_
  std::mutex claim_mu_;                      // held_
  HeldSlots held_;
  std::mutex turn_mu_;  // in_flight_
  std::condition_variable turn_cv_;
  int in_flight_ = 0;
  int claims_waiting_ = 0;
  uint64_t turn_failures_ = 0;  // requests in a turn that got no answer
  std::string turn_failure_;    // why the last one did not
  std::mutex mu_;               // holders_, stop_, failing_
  std::condition_variable cv_;
  std::vector<LeaseHolder*> holders_;
  int64_t deadline_ = INT64_MIN;
  bool stop_ = false;
  bool failing_ = false;  // the last keepalive failed
  std::atomic<bool> lost_{false};
  GenesisWatch genesis_;
  std::thread thread_;
};

}  // namespace etcd
}  // namespace detail
}  // namespace snowfleet
