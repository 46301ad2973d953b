// A leased node id: the slot a generator holds, the slot's persisted high-water mark and,
// for stores that can expire a lease (etcd), the local deadline past which the holder must
// stop minting. The generator is the only user; see docs/fleet.md for the design.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace detail {

class NodeLease {
 public:
  virtual ~NodeLease() = default;
  NodeLease(const NodeLease&) = delete;
  NodeLease& operator=(const NodeLease&) = delete;

  int64_t node_id() const noexcept { return node_id_; }
  /// The slot's mark as found at claim time (Unix ms; -1 when the slot never had one):
  /// the highest millisecond an earlier holder may have issued ids in.
  int64_t claimed_mark_ms() const noexcept { return claimed_mark_ms_; }
  /// The mark persisted last (Unix ms; -1 before any).
  int64_t mark_ms() const noexcept { return mark_ms_.load(std::memory_order_acquire); }
  /// Where the slot lives, for messages: "local:/run/ids slot 7", "etcd ... slot 7".
  const std::string& where() const noexcept { return where_; }

  /// Write-ahead: persists `mark_ms` as the slot's high-water mark and returns once it is
  /// durable (local: fsynced; etcd: committed by a transaction that checks the slot is
  /// still ours). Throws Error(kLeaseLost) when it cannot; when the slot is provably no
  /// longer ours, lost() becomes true as well.
  virtual void write_mark(int64_t mark_ms) = 0;
  /// write_mark() for a write nobody waits for yet (the mark keeper ahead of need): the
  /// store may hold it briefly to send it with other slots' marks (etcd: one transaction
  /// for the process's idle generators). Default: write_mark().
  virtual void write_mark_batched(int64_t mark_ms) { write_mark(mark_ms); }
  /// Called about every 100 ms from the generator's background thread, never from a
  /// minting thread: checks that the slot is still ours and repairs what can be repaired
  /// (local: registry files deleted or replaced while held). Calls set_lost() when the slot
  /// is provably no longer ours. Default: nothing to check.
  virtual void maintain() {}
  /// How far (ms) the persisted mark must run ahead of the ids the generator may issue
  /// without writing again, so that a store outage is ridden out until the deadline: 0 for
  /// a lease that cannot expire, the TTL for etcd.
  virtual int64_t mark_lead_ms() const noexcept { return 0; }
  /// The local deadline on the generator's Clock::monotonic_ns, or null when the lease
  /// cannot expire while the process lives. INT64_MIN once the lease is lost.
  virtual const std::atomic<int64_t>* deadline() const noexcept { return nullptr; }

  /// The state word of a node id shared by several processes (a host-shared local lease:
  /// memory each sharer maps), or null when the id space is this process's alone. The
  /// generator mints on it instead of the process's id-space registry.
  virtual std::atomic<int64_t>* shared_state() noexcept { return nullptr; }

  /// A host-shared lease about to be released: true when this process is the last sharer,
  /// and then no process can join until release(). The generator then makes the word final
  /// and persists the millisecond actually reached with write_final_mark(). Default: false.
  virtual bool leaving_last() noexcept { return false; }
  /// After leaving_last(): persists `mark_ms` as the slot's mark when it is below the mark
  /// written ahead (the next holder then need not wait that out). False when it cannot: the
  /// mark written ahead stays, which is safe. Default: false.
  virtual bool write_final_mark(int64_t mark_ms) noexcept {
    (void)mark_ms;
    return false;
  }

  /// The slot is no longer ours (expired, taken over, file replaced): final.
  bool lost() const noexcept { return lost_.load(std::memory_order_acquire); }
  /// Why the lease is lost or unconfirmed (the last failure), "" when all is well.
  std::string problem() const {
    std::lock_guard<std::mutex> lock(problem_mu_);
    return problem_;
  }

  /// Renewals (etcd keepalives) that failed over the lease's life; 0 for a lease that is
  /// never renewed (local). Read by the mark keeper's thread for Stats.
  uint64_t renewal_failures() const noexcept {
    return renewal_failures_.load(std::memory_order_relaxed);
  }

  /// Makes the store requests in flight fail at once (etcd: a mark write or keepalive to a
  /// store that hangs). close() calls it before stopping the mark keeper, so a hanging store
  /// cannot hold close() for a request timeout. Later requests are not affected.
  virtual void cancel_pending() noexcept {}
  /// Gives the slot back (local: unlock; etcd: stop the keepalive, revoke). Idempotent.
  virtual void release() noexcept = 0;
  /// In a forked child: drop this process's references without touching the parent's
  /// lock or lease. The object may then be destroyed (or is leaked, see generator.cc).
  virtual void abandon_after_fork() noexcept = 0;

 protected:
  NodeLease() = default;
  void set_problem(const std::string& why) {
    std::lock_guard<std::mutex> lock(problem_mu_);
    problem_ = why;
  }
  void set_lost(const std::string& why) {
    set_problem(why);
    lost_.store(true, std::memory_order_release);
  }
  /// A source calls this each time a renewal of its lease fails (etcd: a keepalive that
  /// got no confirmation), for Stats::lease_renewal_failures.
  void count_renewal_failure() noexcept {
    renewal_failures_.fetch_add(1, std::memory_order_relaxed);
  }

  int64_t node_id_ = -1;
  int64_t claimed_mark_ms_ = -1;
  std::atomic<int64_t> mark_ms_{-1};
  std::string where_;

 private:
  std::atomic<bool> lost_{false};
  std::atomic<uint64_t> renewal_failures_{0};
  mutable std::mutex problem_mu_;
  std::string problem_;
};

}  // namespace detail
}  // namespace snowfleet
