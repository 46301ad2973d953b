// Generators across fork(): the fork generation every call compares against, and the
// re-claim by which a leased generator inherited by a forked child gets a slot of its own.
#include <pthread.h>

#include <memory>
#include <mutex>
#include <new>
#include <string>

#include "base/internal.hpp"
#include "base/quote.hpp"
#include "generator_internal.hpp"
#include "id_space.hpp"
#include "mark_keeper.hpp"
#include "node_lease.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace detail {

std::atomic<uint64_t> g_fork_generation{1};

// Serialises the re-claims of leased generators in a forked child. Built anew in every
// child (a parent thread may have held it at the fork), never destroyed.
alignas(std::mutex) unsigned char g_revive_mu_storage[sizeof(std::mutex)];
std::mutex* revive_mu() {
  static std::mutex* mu = new (g_revive_mu_storage) std::mutex();
  return mu;
}

// Takes revive_mu(). When another thread holds it (a re-claim in progress, with the hooks
// released: the Python GIL), waits without the hooks, or that thread could never take them
// back.
std::unique_lock<std::mutex> lock_revive(const WaitHooks& hooks) {
  std::unique_lock<std::mutex> lock(*revive_mu(), std::try_to_lock);
  if (!lock.owns_lock()) {
    HooksReleased released(hooks);
    lock.lock();
  }
  return lock;
}

void register_fork_handlers() {
  // Once, before the first generator exists: a child forked after that sees a new
  // generation, so every generator it inherited refuses to mint (or, leased, claims a
  // slot of its own first: GeneratorCore::revive_or_throw).
  static const int registered = pthread_atfork(nullptr, nullptr, [] {
    g_fork_generation.fetch_add(1, std::memory_order_relaxed);
    new (g_revive_mu_storage) std::mutex();
  });
  (void)registered;
  revive_mu();
}

}  // namespace detail

using detail::kClosedToken;

// A call found the usability token moved. A closed generator, or an unleased one in a
// forked child, refuses (ForkDetected: its node id is the parent's). A leased one in a
// forked child claims a slot of its own from the same source, once, whichever thread
// comes first, and mints from there: pre-fork servers (gunicorn --preload, Celery,
// multiprocessing) make the generator in the parent. The parent's slot, lease, keeper
// thread and id space stay the parent's: this process only drops its references.
void GeneratorCore::revive_or_throw() {
  if (!leased_) throw_unusable();
  const std::unique_lock<std::mutex> lock = detail::lock_revive(hooks_);
  const uint64_t generation = detail::fork_generation();
  const uint64_t token = usable_token_.load(std::memory_order_acquire);
  if (token == generation) return;  // another thread of this child re-claimed already
  if (token == kClosedToken) throw_unusable();
  if (created_token_ != generation) {
    // First time in this child: let go of what belongs to the parent (leaked on purpose:
    // destroying a mutex or condition variable a parent thread was using could block).
    // The parent may itself be a forked child whose claim failed: then it held nothing.
    if (keeper_) {
      keeper_->abandon_after_fork();
      new std::unique_ptr<detail::MarkKeeper>(std::move(keeper_));
    }
    if (lease_) {
      lease_->abandon_after_fork();
      new std::shared_ptr<detail::NodeLease>(std::move(lease_));
    }
    if (space_) new std::unique_ptr<detail::IdSpace>(std::move(space_));
    new (&close_mu_) std::mutex();  // a parent thread may have held it at the fork
    created_token_ = generation;
  }
  // A failed claim (no free slot, the store unreachable) throws and leaves the generator
  // unattached: the next call tries again.
  if (!lease_) {
    detail::HooksReleased released(hooks_);
    deadline_ = nullptr;
    mark_limit_.store(INT64_MAX, std::memory_order_relaxed);
    const int64_t node_id = node_id_;
    std::atomic<int64_t>* const state = state_;
    const int64_t initial_state = initial_state_;
    try {
      attach(-1, current_state());
    } catch (...) {
      // A step after the claim failed (the first mark write, the id space): give the slot
      // back, as the constructor's members do when it throws, and keep pointing at what we
      // had (the old word is leaked, so still valid), so that the next call claims afresh.
      keeper_.reset();
      space_.reset();
      lease_.reset();
      deadline_ = nullptr;
      node_id_ = node_id;
      node_part_ = node_id << layout_.node_shift();
      point_at(state, false);  // no id space to take an owned word from
      initial_state_ = initial_state;
      throw;
    }
  }
  usable_token_.store(generation, std::memory_order_release);
}

}  // namespace snowfleet
