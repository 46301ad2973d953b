// The generator's close(): an unleased generator's, a leased one's (its keeper stopped,
// the state made final, the millisecond reached written back, the slot given back) and a
// host-shared one's (the word left to the other sharers, or made final by the last).
#include <algorithm>
#include <memory>
#include <mutex>
#include <new>

#include "base/internal.hpp"
#include "generator_internal.hpp"
#include "id_space.hpp"
#include "mark_keeper.hpp"
#include "node_lease.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {

using detail::kClosedState;
using detail::kClosedToken;

GeneratorCore::~GeneratorCore() { close(); }

void GeneratorCore::close() noexcept {
  // In a forked process a re-claim (another thread's call) may be replacing the lease and
  // the id space: wait for it, so that it neither sees them half-made nor undoes the close.
  std::unique_lock<std::mutex> revive;
  if (leased_ && detail::fork_generation() > 1) revive = detail::lock_revive(hooks_);
  if (leased_ && !lease_) {
    // A forked child whose re-claim failed holds nothing of its own.
    usable_token_.store(kClosedToken, std::memory_order_release);
    return;
  }
  if (lease_) return close_leased();
  // The state word may be shared with other generators of the id space: leave it alone.
  if (created_token_ != detail::fork_generation()) {
    // A forked child: only this thread exists, close_mu_ may have been copied locked by a
    // parent thread closing this generator, and the registry does not count the parent's
    // generators as open here. Nothing to release: just refuse from now on.
    usable_token_.store(kClosedToken, std::memory_order_release);
    return;
  }
  std::lock_guard<std::mutex> lock(close_mu_);
  if (usable_token_.load(std::memory_order_acquire) == kClosedToken) return;
  usable_token_.store(kClosedToken, std::memory_order_release);
  closed_state_.store(state_->load(std::memory_order_acquire), std::memory_order_relaxed);
  if (space_) space_->close(false, 0);
}

void GeneratorCore::close_leased() noexcept {
  // In a forked child only this thread exists: close_mu_ may have been copied locked.
  const bool forked_child = created_token_ != detail::fork_generation();
  std::unique_lock<std::mutex> lock(close_mu_, std::defer_lock);
  if (forked_child) {
    (void)lock.try_lock();
  } else {
    lock.lock();
  }
  if (usable_token_.load(std::memory_order_acquire) == kClosedToken) return;
  usable_token_.store(kClosedToken, std::memory_order_seq_cst);
  if (forked_child) {
    // The slot (lock, etcd lease) and the keeper's thread belong to the parent: drop our
    // descriptors and leak the objects on purpose (destroying a mutex or condition
    // variable the parent's thread was using could block).
    closed_state_.store(state_->load(std::memory_order_acquire), std::memory_order_relaxed);
    keeper_->abandon_after_fork();
    new std::unique_ptr<detail::MarkKeeper>(std::move(keeper_));
    lease_->abandon_after_fork();
    new std::shared_ptr<detail::NodeLease>(std::move(lease_));
    return;
  }
  {
    detail::HooksReleased released(hooks_);
    lease_->cancel_pending();  // a write in flight to a store that hangs fails at once
    keeper_->stop();           // no mark write runs after this
  }
  if (host_shared_) return close_shared();
  // Swap in kClosedState so that a call which passed its usability check before the token
  // moved cannot complete its CAS afterwards: the state recorded here is final. The state
  // is published in closed_state_ before the swap that makes it final.
  settle_bias(detail::thread_pointer(), false);  // an owner's store in flight ends first
  int64_t last = state_->load(std::memory_order_acquire);
  closed_state_.store(last, std::memory_order_relaxed);
  while (!state_->compare_exchange_weak(last, kClosedState, std::memory_order_acq_rel))
    closed_state_.store(last, std::memory_order_relaxed);
  // Persist the millisecond actually reached, so the next holder need not wait out the
  // reservation made ahead. (last covers the claimed mark when nothing was issued.)
  // (Not when the keeper's last write failed: the store would not answer this one either,
  // and the reservation made ahead is safe, the next holder only waits longer.)
  // A generator that issued nothing (no id in the space, no claimed mark in the layout's
  // window: last is -1) puts back the mark the slot had, or 0 if it had none: the keeper's
  // first write ran a second ahead, and a strict generator claiming the slot next refused
  // until the wall clock passed it.
  if (!lease_->lost() && !keeper_->failing()) {
    const int64_t last_ms = last >> layout_.sequence_bits();  // -1 when last is -1
    if (last_ms < keeper_->persisted_ms()) {
      try {
        detail::HooksReleased released(hooks_);
        lease_->write_mark(last >= 0 ? last_ms + layout_.epoch_ms()
                                     : std::max<int64_t>(lease_->claimed_mark_ms(), 0));
        mark_writes_.fetch_add(1, std::memory_order_relaxed);
      } catch (...) {
        // The reservation made ahead stays: safe, the next holder only waits longer.
        mark_write_failures_.fetch_add(1, std::memory_order_relaxed);
      }
    }
  }
  // Later generators of this process continue after `last` in a fresh word; this one keeps
  // the sentinel.
  space_->close(true, last);
  detail::HooksReleased released(hooks_);
  lease_->release();
}

// A host-shared node id. While other sharers live the word stays (they mint on it), and a
// call of ours still in flight stays under the mark limit the keeper reached. The last
// sharer makes the word final as an exclusive holder does, and writes back the millisecond
// the share reached: else every next group's first mark would start a lead further ahead.
void GeneratorCore::close_shared() noexcept {
  detail::HooksReleased released(hooks_);
  const bool last_sharer = lease_->leaving_last();
  int64_t last = state_->load(std::memory_order_acquire);
  closed_state_.store(last, std::memory_order_relaxed);
  if (last_sharer) {
    while (!state_->compare_exchange_weak(last, kClosedState, std::memory_order_acq_rel))
      closed_state_.store(last, std::memory_order_relaxed);
    if (!keeper_->failing()) {
      const int64_t reached = last >= 0 ? (last >> layout_.sequence_bits()) + layout_.epoch_ms()
                                        : std::max<int64_t>(lease_->claimed_mark_ms(), 0);
      if (lease_->write_final_mark(reached)) mark_writes_.fetch_add(1, std::memory_order_relaxed);
    }
  }
  space_->close(true, last);  // a later generator of this process continues after it
  lease_->release();
}

}  // namespace snowfleet
