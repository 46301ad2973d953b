// What a generator reports: its counters (stats()), whether a call now would be served
// (status()) and how far ahead it runs (drift_ms()).
#include <algorithm>
#include <string>
#include <vector>

#include "base/internal.hpp"
#include "base/quote.hpp"
#include "generator_internal.hpp"
#include "id_space.hpp"
#include "mark_keeper.hpp"
#include "node_lease.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {

using detail::kClosedToken;
using detail::kNsPerMs;

Stats GeneratorCore::stats() const noexcept {
  Stats st;
  st.ids_issued = ids_issued_.load(std::memory_order_relaxed) +
                  owned_ids_issued_.load(std::memory_order_relaxed);
  st.rewinds_seen = rewinds_seen_.load(std::memory_order_relaxed);
  st.waits = waits_.load(std::memory_order_relaxed);
  st.waited_ns_total = waited_total_.load(std::memory_order_relaxed);
  st.waited_ns_max = waited_max_.load(std::memory_order_relaxed);
  st.refusals = refusals_.load(std::memory_order_relaxed);
  st.ms_borrowed = ms_borrowed_.load(std::memory_order_relaxed);
  st.mark_writes = mark_writes_.load(std::memory_order_relaxed);
  st.lease_refusals = lease_refusals_.load(std::memory_order_relaxed);
  st.mark_write_failures = mark_write_failures_.load(std::memory_order_relaxed);
  st.lease_renewal_failures = lease_renewal_failures_.load(std::memory_order_relaxed);
  return st;
}

Status GeneratorCore::status() {
  const uint64_t before = usable_token_.load(std::memory_order_acquire);
  if (leased_ && before != kClosedToken && before != detail::fork_generation()) {
    // A forked child's first look: claim now, as a call would.
    try {
      revive_or_throw();
    } catch (const Error& e) {
      Status st;
      st.node_id = node_id_;
      st.mode = mode_;
      st.lease_state = LeaseState::kLost;
      st.reason = std::string("forked child could not claim a node id of its own: ") + e.what();
      return st;
    }
  }
  Status st;
  st.node_id = node_id_;
  st.mode = mode_;
  int64_t wall_ns;
  const int64_t s = current_state();
  const int64_t now = read_elapsed_ms_exact(&wall_ns);
  const int64_t epoch = layout_.epoch_ms();
  const int bits = layout_.sequence_bits();
  st.wall_ms = now + epoch;
  // A claimed mark is not an issued id: last_ms stays -1 until this id space issues one.
  st.last_ms = s < 0 || (lease_ && s == initial_state_) ? -1 : (s >> bits) + epoch;
  // Both terms are within +-2^53 (a 52-bit window, a scripted clock within +-2^43 ms), so
  // the difference cannot overflow.
  st.drift_ms = std::max<int64_t>(0, s < 0 ? 0 : (s >> bits) - now);
  const uint64_t token = usable_token_.load(std::memory_order_acquire);
  if (lease_) lease_status(&st, s, token);
  // A forked child's close() before its first call dropped the parent's lease: released too.
  if (leased_ && token == kClosedToken) st.lease_state = LeaseState::kReleased;
  st.reason = status_reason(st, token, s, now);
  st.healthy = st.reason.empty();
  return st;
}

// The lease's part of a status (a leased generator), from the state `s`.
void GeneratorCore::lease_status(Status* st, int64_t s, uint64_t token) {
  const int bits = layout_.sequence_bits();
  st->mark_ms = lease_->mark_ms();
  // Against the later of the wall clock and the state word (which starts at the claimed
  // mark): what the next ids need covered.
  const int64_t need = std::max(st->wall_ms, s < 0 ? INT64_MIN : (s >> bits) + layout_.epoch_ms());
  if (st->mark_ms >= 0) st->mark_headroom_ms = std::max<int64_t>(0, st->mark_ms - need);
  bool unconfirmed = false;
  if (deadline_) {
    const int64_t d = deadline_->load(std::memory_order_acquire);
    const int64_t mono = monotonic_now();
    if (d != INT64_MIN) st->lease_expires_in_ms = detail::floor_div(d - mono, kNsPerMs);
    unconfirmed = mono > d;
  }
  st->lease_state = token == kClosedToken ? LeaseState::kReleased
                    : lease_->lost()      ? LeaseState::kLost
                    : unconfirmed         ? LeaseState::kUnconfirmed
                                          : LeaseState::kHeld;
}

// Why the next call would refuse (empty when it would not), first reason first. The
// comparisons stay in ms: `ahead` is within +-2^53 (see status()).
std::string GeneratorCore::status_reason(const Status& st, uint64_t token, int64_t s,
                                     int64_t now) const {
  if (token == kClosedToken) return "generator is closed";
  if (token != detail::fork_generation()) return "generator was created before fork()";
  if (st.lease_state == LeaseState::kLost) return "node-id lease lost: " + lease_->problem();
  if (st.lease_state == LeaseState::kUnconfirmed) {
    const std::string why = lease_->problem();
    return "node-id lease " + lease_->where() + " is unconfirmed (past its local deadline)" +
           (why.empty() ? std::string() : ": " + why);
  }
  const std::string failure = keeper_ ? keeper_->failure() : std::string();
  if (!failure.empty() && st.mark_headroom_ms == 0)
    // The keeper's last write failed and the persisted mark is spent: calls refuse at once.
    return "calls past the persisted high-water mark " + std::to_string(st.mark_ms) +
           " are refused until a mark write succeeds: " + failure;
  return clock_reason(s, now);
}

// Why the clock and the state `s` would make the next call refuse (empty when they would
// not).
std::string GeneratorCore::clock_reason(int64_t s, int64_t now) const {
  const int64_t ahead = s < 0 ? 0 : (s >> layout_.sequence_bits()) - now;
  const int64_t wait_ms = max_wait_ns_ / kNsPerMs;  // ahead * 1e6 > max_wait_ns <=> this
  const bool strict = mode_ == Mode::kStrict;
  if (now < 0 || now > max_elapsed_)
    return "wall clock is outside the window of layout " + layout_.to_string();
  if (strict && ahead > wait_ms)
    return "clock is " + std::to_string(ahead) + " ms behind " +
           (at_start(s) ? "the high-water mark " + mark_text() + " "
                                          : std::string("the last issued millisecond ")) +
           "(wait budget " + detail::ms_text(max_wait_ms_) + " ms)";
  if (!strict && ahead - max_drift_ms_ > wait_ms)
    return "generator runs " + std::to_string(ahead) + " ms ahead of the wall clock " +
           "(max_drift_ms " + std::to_string(max_drift_ms_) + ")";
  if (s == max_packed_)
    return "every id of the window of layout " + layout_.to_string() + " is issued";
  return std::string();
}

int64_t GeneratorCore::drift_ms() {
  int64_t wall_ns;
  const int64_t s = current_state();
  const int64_t now = read_elapsed_ms_exact(&wall_ns);
  return s < 0 ? 0 : std::max<int64_t>(0, (s >> layout_.sequence_bits()) - now);
}

}  // namespace snowfleet
