// The leased node id (node_lease.hpp), claimed through the core's node sources: "local:"
// and "postgres://" (the extension is built without etcd, whose source then refuses).
#include "node_lease.hpp"

#include <pthread.h>
#include <signal.h>
#include <time.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>

#include "bridge.hpp"
#include "lease/node_source.hpp"  // claim_node, NodeLease, redact_node_source
#include "pg.hpp"
#include "snowfleet/generator.hpp"

namespace snowfleet_pg {
namespace {

constexpr int64_t kMaintainNs = 100 * 1000000;

int64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

void publish_deadline(SharedMint* m, const snowfleet::detail::NodeLease& lease) {
  const std::atomic<int64_t>* d = lease.deadline();
  m->lease_deadline_ns.store(lease.lost() ? INT64_MIN : d ? d->load() : INT64_MAX);
}

}  // namespace

void set_lease_problem(SharedMint* m, const char* why) noexcept {
  SpinLockAcquire(&m->lease_lock);
  snprintf(m->lease_problem, sizeof m->lease_problem, "%s", why);
  SpinLockRelease(&m->lease_lock);
}

void lease_problem(SharedMint* m, char* out, size_t size) noexcept {
  SpinLockAcquire(&m->lease_lock);
  snprintf(out, size, "%s", m->lease_problem);
  SpinLockRelease(&m->lease_lock);
}

bool LeaseHolder::claim(SharedMint* m, const char* spec, const snowfleet::Layout& layout) {
  Failure f;
  snowfleet::detail::NodeClaim claim;
  // A source may start a thread of its own (postgres://: the renewals): it must not take
  // the worker's signals, whose handlers are PostgreSQL's.
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  const bool ok = attempt(f, [&] {
    claim = snowfleet::detail::claim_node(spec, layout, snowfleet::system_clock());
    if (!claim.lease)
      throw snowfleet::Error(snowfleet::ErrorKind::kInvalidArgument,
                             "snowfleet.node_source '" +
                                 snowfleet::detail::redact_node_source(spec) + "'" +
                                 " does not lease a node id; use local:DIR or postgres://..., "
                                 "or snowfleet.node_id for a fixed one");
  });
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  if (!ok) {
    char why[sizeof m->lease_problem];
    snprintf(why, sizeof why, "%s: %s", snowfleet::error_code(f.kind), f.message);
    set_lease_problem(m, why);
    return false;
  }
  lease_ = std::move(claim.lease);
  // The slot's earlier holders may have issued ids up to its mark: continue after it.
  int64_t state = m->state.load();
  const int64_t after = snowfleet::last_packed_of_ms(layout, lease_->claimed_mark_ms());
  while (state < after && !m->state.compare_exchange_weak(state, after)) {
  }
  m->start.store(m->state.load());
  m->mark_limit.store(m->state.load());  // nothing more until a mark is in this slot
  publish_deadline(m, *lease_);
  set_lease_problem(m, "");
  m->leased_node.store(lease_->node_id());
  return true;
}

bool LeaseHolder::write_mark(int64_t mark_ms, std::string* why) noexcept {
  if (!lease_) return true;
  Failure f;
  if (attempt(f, [&] { lease_->write_mark(mark_ms); })) return true;
  *why = f.message;
  return false;
}

bool LeaseHolder::keep(SharedMint* m) noexcept {
  if (!lease_) return true;
  const int64_t now = monotonic_ns();
  if (now - maintained_ns_ >= kMaintainNs) {
    maintained_ns_ = now;
    Failure f;
    (void)attempt(f, [&] { lease_->maintain(); });
  }
  publish_deadline(m, *lease_);
  if (!lease_->lost()) return true;
  m->leased_node.store(-1);
  return false;
}

void LeaseHolder::release(SharedMint* m) noexcept {
  if (!lease_) return;
  m->leased_node.store(-1);
  lease_->release();
  lease_.reset();
}

}  // namespace snowfleet_pg
