// What the generator's sources share (generator.cc: life cycle; generator_fork.cc: forked
// children; generator_status.cc: reports; mint.cc: the fast path; mint_slow.cc: the
// complete algorithm; mint_wait.cc: its sleeps and keeper waits). Internal.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

#include "base/fail.hpp"
#include "base/internal.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace detail {

constexpr uint64_t kClosedToken = 0;  // fork generations start at 1
// A leased generator's state word after close(): below every real state (those are >= -1),
// so a CAS that expected a real state fails, and every reader checks usability after
// loading the state. Only in the word the closed generator keeps for itself (the registry
// gives the id space a fresh one).
constexpr int64_t kClosedState = INT64_MIN;
// How close (monotonic ns) a lease deadline may come before every call checks it exactly:
// the fast path checks only at the first call of each wall millisecond, so it must stop
// trusting that check a millisecond (plus slew) before the deadline.
constexpr int64_t kFenceMarginNs = 2'000'000;

/// "5", "0.25", "60000.0000001", "1e-07", "nan": a number of ms as the shortest text that
/// reads back as it, for messages.
std::string ms_text(double ms);

/// a = max(a, v).
inline void atomic_max(std::atomic<uint64_t>& a, uint64_t v) noexcept {
  uint64_t cur = a.load(std::memory_order_relaxed);
  while (v > cur && !a.compare_exchange_weak(cur, v, std::memory_order_relaxed)) {
  }
}

/// Takes the process's re-claim lock (generator_fork.cc): held while a leased generator
/// claims a slot of its own in a forked child, and by close() in a forked process. When
/// another thread holds it, waits with the wait hooks released (the Python GIL).
std::unique_lock<std::mutex> lock_revive(const WaitHooks& hooks);

/// Calls the wait hooks around a blocking step that is not a clock wait (waiting for the
/// mark keeper, stopping it, a final mark write, a release): the Python binding releases
/// the GIL there, so a thread blocked on the lease never holds it.
class HooksReleased {
 public:
  explicit HooksReleased(const WaitHooks& hooks)
      : hooks_(hooks), token_(hooks.enter ? hooks.enter(hooks.context) : nullptr) {}
  ~HooksReleased() {
    if (hooks_.leave) hooks_.leave(hooks_.context, token_);
  }
  HooksReleased(const HooksReleased&) = delete;
  HooksReleased& operator=(const HooksReleased&) = delete;

 private:
  const WaitHooks& hooks_;
  void* token_;
};

}  // namespace detail

using detail::GeneratorCore;

// Counts a reserved run (and, in monotonic mode, the milliseconds it borrowed ahead).
// A locked add costs about as much as the state word's CAS (~8 ns here: a third of an id
// without the TSC window), so the first thread to mint owns a counter only it writes, with
// a plain load and store; any other thread adds to the shared one. Both are exact: each
// run is counted once, in one of them. A thread that exits leaves its pointer to a thread
// created later, which then owns the counter after it: never two at once.
inline void GeneratorCore::account(int64_t before, const Run& run, int64_t now) noexcept {
  const uintptr_t me = detail::thread_pointer();
  uintptr_t owner = counter_owner_.load(std::memory_order_relaxed);
  if (SNOWFLEET_LIKELY(me != 0 && owner == me)) {
    owned_ids_issued_.store(
        owned_ids_issued_.load(std::memory_order_relaxed) + static_cast<uint64_t>(run.count),
        std::memory_order_relaxed);
  } else {
    ids_issued_.fetch_add(static_cast<uint64_t>(run.count), std::memory_order_relaxed);
    if (owner == 0 && me != 0)
      counter_owner_.compare_exchange_strong(owner, me, std::memory_order_relaxed);
  }
  if (mode_ == Mode::kMonotonic) {
    // Borrowing happens only at a sequence overflow, so this add is rare.
    const int bits = layout_.sequence_bits();
    const int64_t borrowed =
        ((run.first + (run.count - 1)) >> bits) - std::max(before >> bits, now);
    if (SNOWFLEET_UNLIKELY(borrowed > 0))
      ms_borrowed_.fetch_add(static_cast<uint64_t>(borrowed), std::memory_order_relaxed);
  }
}

inline void GeneratorCore::check_usable() const {
  // One load and compare per call: the fork generation moves in a forked child, the
  // token moves to kClosedToken on close().
  if (SNOWFLEET_UNLIKELY(detail::fork_generation() !=
                         usable_token_.load(std::memory_order_acquire)))
    throw_unusable();
}

}  // namespace snowfleet
