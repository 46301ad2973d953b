// One etcd lease per process and store: the generators of a process that lease node ids
// from the same endpoints, prefix, TTL and credentials hold their slot keys with one etcd
// lease, kept alive by one thread, as etcd's own clients do. So the keepalive load on etcd
// grows with processes, not generators, and a claim needs no lease grant of its own (in a
// storm of claims, the grants were what etcd fell behind on). Only built with etcd support.
// Internal.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "etcd_claim_batch.hpp"
#include "etcd_genesis.hpp"
#include "etcd_http.hpp"
#include "lease/node_source.hpp"

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
  /// inherited across fork(): a child never uses its parent's lease), after the prefix's
  /// genesis was read or created, with an ID tagged with the prefix (holder_lease_id,
  /// etcd_genesis.hpp). Throws what those requests throw (Unreachable, Refused).
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
  /// only race each other and crowd etcd). A lost race brings the slots created since.
  struct HeldSlots {
    int64_t slots = -1;      ///< the layout's slot count `held` is for; -1: unknown
    std::set<int64_t> held;  ///< held below `slots`, as of the last read plus our claims
    /// The etcd revision up to which every slot created is in `held` (slots released since
    /// the last whole read may still be listed).
    int64_t revision = 0;
    std::set<int64_t> claiming;  ///< picked by a claim of this process, answer pending
    /// Reads of the held slots that failed, and why the last one did: a claim that waited
    /// for the lock while another's read failed fails with it, instead of sending its own
    /// (against an etcd that hangs, N waiting claims would otherwise take N timeouts).
    std::atomic<uint64_t> read_failures{0};
    std::string read_error;
  };
  /// A turn to send a claim or mark request: at most kRequestsInFlight at once per process
  /// and store. A storm of this process's generators then queues here, not in etcd, whose
  /// latency (and so every request's timeout) stays that of a few requests. Mark
  /// transactions and a closing generator's give-back go first (`ahead`): there is at most
  /// one mark transaction at a time (write_mark), it carries the marks of many slots, and a
  /// generator waiting for its mark is one that holds a slot (a claim's first mark, or a
  /// keeper ahead of need: behind a storm's claims they came too late and the first ids
  /// were refused); a close() queued behind a storm's claims waited for all of them. Against an
  /// etcd that hangs, the 8 turns are held for a full request timeout each: a request that gets no
  /// answer fails the requests then waiting for a turn (they would only wait to get none either),
  /// and close() cancels its generator's wait. A slow etcd that answers keeps its queue: a storm of
  /// claims waits its turn however long.
  class RequestTurn {
   public:
    /// Waits for a turn (`ahead`: ahead of the claims waiting); throws Unreachable when a
    /// request in flight gets no answer or `*cancel` (the caller's Http cancellation
    /// generation) moves meanwhile.
    RequestTurn(ProcessLease& lease, const std::atomic<uint64_t>* cancel, bool ahead = false);
    ~RequestTurn();
    RequestTurn(const RequestTurn&) = delete;
    RequestTurn& operator=(const RequestTurn&) = delete;

   private:
    ProcessLease& lease_;
  };
  /// One request in a turn: `http.post(path, body, timeout_ms)`, whose Unreachable (not a
  /// cancellation) also fails the requests waiting for a turn. `*turn_at` (when given): the
  /// clock's monotonic_ns once the turn came, just before the request went out.
  nlohmann::json send(Http& http, const std::string& path, const nlohmann::json& body,
                      long timeout_ms, const std::atomic<uint64_t>* cancel, bool ahead = false,
                      int64_t* turn_at = nullptr);
  static constexpr int kRequestsInFlight = 8;
  /// Wakes the requests waiting for a turn, a mark write or a claim batch, so that one whose
  /// caller was cancelled gives up.
  void wake_turns();

  /// One slot's mark for write_mark(): persisted only while `slot_key` is still the key
  /// created at `create_revision` (ours).
  struct MarkWrite {
    std::string slot_key, mark_key;
    int64_t create_revision = 0;
    int64_t mark_ms = 0;
    /// The mark key's mod_revision as the slot last knew it (0: no mark key). The put lands
    /// only while the key is still at it, so a write etcd applies late (answered "request
    /// timed out", or the copy a request left with a member that did not answer) fails
    /// instead of overwriting a later mark with its lower one. Set to the revision the write
    /// landed at, or to the one found when another of the slot's writes landed first.
    int64_t mark_revision = 0;
    /// Someone waits for it (a minting thread, the claim, close()): sent at once. Else it
    /// may wait up to kMarkLinger for the marks of other slots to share its transaction.
    bool urgent = true;
    enum Outcome { kPending, kWritten, kLost, kFailed };
    Outcome outcome = kPending;  ///< under the lease's mark mutex
    std::string why;             ///< kFailed: what the request answered, or why none came
    std::chrono::steady_clock::time_point queued;
  };
  /// Persists `w` in one transaction with the marks of this process's other slots on this
  /// lease that are due now (at most kMarksPerTxn; one transaction in flight at a time, sent
  /// by a thread of the lease, in a turn ahead of the claims). Each slot keeps its own compares, on
  /// its own slot key and mark key (`mark_revision`): when one fails, the transaction's failure
  /// branch reads every slot key and mark key, the slots no longer ours come back kLost and the
  /// others are sent again at once (at the mark revision found). Returns the
  /// outcome (kWritten, kLost, kFailed with `w->why`); throws Unreachable when `*cancel` moves
  /// first (the write may still land: a higher mark is only more cautious).
  MarkWrite::Outcome write_mark(const std::shared_ptr<MarkWrite>& w,
                                const std::atomic<uint64_t>* cancel);
  /// Two compares and two failure reads per slot: etcd's default --max-txn-ops (128).
  static constexpr size_t kMarksPerTxn = 64;
  /// How long a write nobody waits for may wait for company: idle keepers write about
  /// every 500 ms each, so 100 ms gathers a process's idle writes into a few transactions
  /// a second while the mark keeps over 300 ms of headroom (and the lead) in reserve.
  static constexpr auto kMarkLinger = std::chrono::milliseconds(100);
  /// The prefix's genesis the slots on this lease were claimed under; checked after each
  /// keepalive (etcd_genesis.hpp).
  GenesisWatch& genesis() noexcept { return genesis_; }

  /// The shared state and the mutex that guards it (and the claims queued for a batch).
  std::mutex& claim_state(HeldSlots** held, ClaimQueue** queue = nullptr) {
    *held = &held_;
    if (queue) *queue = &claim_queue_;
    return claim_mu_;
  }

 private:
  void grant();
  void keepalive_loop();
  /// One keepalive: the single place where a keepalive's outcome (deadline moved, failed,
  /// lease gone) is decided and told to every holder.
  bool keepalive_once();
  void mark_loop();
  /// One batch of mark writes: sends it, and again without the slots found lost.
  void send_marks(std::vector<std::shared_ptr<MarkWrite>> batch);
  /// Settles `batch` as failed for `failed`, and, when its request got no answer
  /// (`unanswered`), every write queued behind it. Under mark_mu_.
  void fail_marks(const std::vector<std::shared_ptr<MarkWrite>>& batch, const std::string& failed,
                  bool unanswered);
  void settle(const std::shared_ptr<MarkWrite>& w, MarkWrite::Outcome outcome,
              const std::string& why = "");  // under mark_mu_

  const EtcdConfig cfg_;  // a copy: the Http handles keep a reference to it
  const std::shared_ptr<Clock> clock_;
  const pid_t pid_;
  std::atomic<uint64_t> cancel_gen_{0};  // see Http: a keepalive in flight at destruction
  Http http_;                            // grant, revoke (under grant_mu_ / destruction)
  Http keepalive_http_;                  // the keepalive thread's own handle
  Http mark_http_;                       // the mark thread's own handle
  int64_t margin_ns_ = 0;
  long request_ms_ = 1000;
  int64_t id_ = 0;
  std::mutex grant_mu_;                      // one grant for all the threads that acquire at once
  std::atomic<uint64_t> grant_failures_{0};  // see grant()
  std::string grant_error_;                  // the last grant's failure, under grant_mu_
  std::mutex claim_mu_;                      // held_, claim_queue_
  HeldSlots held_;
  ClaimQueue claim_queue_;
  std::mutex turn_mu_;  // in_flight_
  std::condition_variable turn_cv_;
  int in_flight_ = 0;
  int ahead_waiting_ = 0;       // requests waiting for a turn ahead of the claims
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
  std::mutex mark_mu_;                 // the mark queue and every queued write's outcome
  std::condition_variable mark_cv_;    // the mark thread: a write queued, or stop
  std::condition_variable marked_cv_;  // writers: an outcome, or a cancellation
  std::vector<std::shared_ptr<MarkWrite>> mark_queue_;
  int urgent_queued_ = 0;
  bool mark_stop_ = false;
  std::thread mark_thread_;
};

}  // namespace etcd
}  // namespace detail
}  // namespace snowfleet
