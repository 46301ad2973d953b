// Keeps a leased generator's high-water mark ahead of the ids it may issue, from a thread of
// its own, so that no minting thread ever writes a mark (an fsync, an etcd round trip) or
// waits on one: a minting thread issues ids up to `mark_limit` and, past it, waits at most
// its wait budget for this thread before it refuses. The same thread calls the lease's
// maintain() (the local registry checks and repairs its files there). Internal.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "node_lease.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace detail {

class MarkKeeper {
 public:
  /// How far the mark runs ahead of the ids that may be issued: the longest a crashed
  /// holder's successor waits (plus the lease's lead), and twice the headroom at which the
  /// keeper writes again, so a minting generator writes about twice a second.
  static constexpr int64_t kAheadMs = 1000;

  struct Inputs {
    std::shared_ptr<NodeLease> lease;
    std::shared_ptr<Clock> clock;
    bool system_clock = false;
    const std::atomic<int64_t>* state = nullptr;           // the generator's state word
    const std::atomic<int64_t>* wall_high = nullptr;       // highest wall reading minting saw (ms)
    std::atomic<int64_t>* mark_limit = nullptr;            // published here
    std::atomic<uint64_t>* mark_writes = nullptr;          // counted here
    std::atomic<uint64_t>* mark_write_failures = nullptr;  // counted here
    /// The lease's renewal failures are added here as the keeper sees them (each tick), so
    /// Stats never reads the lease, which a forked child may be replacing.
    std::atomic<uint64_t>* renewal_failures = nullptr;
    int sequence_bits = 0;
    int64_t epoch_ms = 0;
    int64_t max_elapsed_ms = 0;
    /// Monotonic mode: how far beyond the wall clock to keep covered (min(max_drift_ms,
    /// kAheadMs)), so a burst that runs ahead rarely meets the limit.
    int64_t extra_ahead_ms = 0;
  };

  explicit MarkKeeper(Inputs in);
  /// Stops the thread (see stop()).
  ~MarkKeeper();
  MarkKeeper(const MarkKeeper&) = delete;
  MarkKeeper& operator=(const MarkKeeper&) = delete;

  /// Writes the first mark, covering `now_ms` (ms since the epoch) and the claimed
  /// history, in the calling thread (the generator's constructor), then starts the
  /// thread. Throws the lease's Error when the mark cannot be written.
  void start(int64_t now_ms);
  /// Asks for ids up to `packed` to be covered and waits, in real time and at most
  /// `budget_ns`, until they are, the lease is lost or a write fails. True when covered.
  bool wait_for(int64_t packed, int64_t budget_ns);
  /// True while the last write failed (the store or disk is unavailable): a minting thread
  /// past the limit refuses at once instead of waiting.
  bool failing() const noexcept { return failing_.load(std::memory_order_acquire); }
  /// Why the last write failed ("" after a success). Kept here, not read from the lease's
  /// problem(): the lease's own checks between writes may clear that while writes still fail.
  std::string failure() const;
  /// The mark persisted last, in ms since the epoch (-1 before any).
  int64_t persisted_ms() const noexcept { return persisted_.load(std::memory_order_acquire); }
  /// Stops and joins the thread (a write in progress completes first). Idempotent.
  void stop() noexcept;
  /// In a forked child the thread does not exist: forget it without joining.
  void abandon_after_fork() noexcept;

 private:
  void run();
  void tick(bool requested, bool active);
  /// `urgent`: someone waits (or soon will): not held to share a store request.
  bool write(int64_t target_ms, bool urgent = true);
  int64_t limit_for(int64_t mark_ms) const noexcept;

  Inputs in_;
  int64_t lead_ms_;
  int64_t seq_mask_;
  uint64_t renewal_failures_seen_ = 0;  // of this lease, added to *in_.renewal_failures
  std::atomic<int64_t> persisted_{-1};  // ms since the epoch
  std::atomic<bool> failing_{false};
  bool own_mark_ = false;  // persisted_ is a mark we wrote (not the claimed history)
  mutable std::mutex mu_;
  std::string failure_;              // the last write's error, "" after a success
  std::condition_variable wake_;     // the keeper: a request or stop
  std::condition_variable written_;  // minting threads: the limit moved or a write failed
  int64_t wanted_ = -1;              // highest packed value a minting thread asked for
  uint64_t outcomes_ = 0;            // writes attempted, for waiters
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace detail
}  // namespace snowfleet
