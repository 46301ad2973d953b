// The generator's life cycle: options, the id space it mints in, the lease and its mark
// keeper, moves. close(): generator_close.cc; forked children: generator_fork.cc; stats()
// and status(): generator_status.cc; minting: mint.cc (the fast path), mint_slow.cc and
// mint_wait.cc.
#include <pthread.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "base/internal.hpp"
#include "base/quote.hpp"
#include "generator_internal.hpp"
#include "id_space.hpp"
#include "mark_keeper.hpp"
#include "node_claim.hpp"
#include "node_lease.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace detail {

std::string ms_text(double ms) {
  // The shortest text that reads back as `ms` (not "%f", which made 60000.0000001 "60000"
  // and -1e-7 "-0": a value outside the range shown as one inside it).
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, ms);
  return std::string(buf, r.ptr);
}

}  // namespace detail

using detail::bad;
using detail::kClosedState;
using detail::kClosedToken;
using detail::kNsPerMs;

const char* lease_state_name(LeaseState state) noexcept {
  switch (state) {
    case LeaseState::kHeld: return "held";
    case LeaseState::kUnconfirmed: return "unconfirmed";
    case LeaseState::kLost: return "lost";
    case LeaseState::kReleased: return "released";
    case LeaseState::kNone: break;
  }
  return "none";
}

const char* mode_name(Mode mode) noexcept {
  return mode == Mode::kMonotonic ? "monotonic" : "strict";
}

Mode parse_mode(std::string_view text) {
  if (text == "strict") return Mode::kStrict;
  if (text == "monotonic") return Mode::kMonotonic;
  bad("mode must be 'strict' or 'monotonic', got " + detail::quote(text));
}

namespace {
// The rules of SharedIdSpace: a limit comes with its word, and the word's users share one
// given node id.
void check_shared(const SharedIdSpace& shared, const std::string& node_source) {
  if (shared.state == nullptr && shared.mark_limit != nullptr)
    bad("a shared id space's mark_limit needs its state word");
  if (shared.state == nullptr && shared.start != nullptr)
    bad("a shared id space's start needs its state word");
  if (shared.state != nullptr && !node_source.empty())
    bad("a shared id space needs a node_id, not node_source " +
        detail::quote(detail::redact_node_source(node_source)) +
        " (its users share one node id)");
}
}  // namespace

// The state word minting uses. `ownable`: the id space's registry word, which a thread
// may own (registry/abi.h); any other word (the caller's memory, a word other processes
// mint on too: they cannot see an owner's store in flight) is compare-and-swap only.
void GeneratorCore::point_at(std::atomic<int64_t>* state, bool ownable) noexcept {
  state_ = state;
  bias_ = ownable ? space_->bias() : detail::revoked_bias();
  busy_ = ownable ? space_->busy() : detail::unused_busy();
}

// Moves the state word up to at least `value`, never down. An unowned word is borrowed for
// the write and handed back, so that the thread that mints may still own it.
void GeneratorCore::raise_state(int64_t value) noexcept {
  const uintptr_t me = detail::thread_pointer();
  uint64_t unset = detail::kBiasUnset;
  const bool lent = me != 0 && bias_->compare_exchange_strong(unset, me, std::memory_order_acq_rel);
  settle_bias(me, false);
  int64_t seen = state_->load(std::memory_order_acquire);
  while (seen < value && !state_->compare_exchange_weak(seen, value, std::memory_order_acq_rel)) {
  }
  uint64_t mine = me;
  if (lent) bias_->compare_exchange_strong(mine, detail::kBiasUnset, std::memory_order_acq_rel);
}

GeneratorCore::GeneratorCore(GeneratorOptions o, bool uuid7)
    : layout_(o.layout), mode_(o.mode), hooks_(o.wait_hooks), uuid7_(uuid7) {
  if (mode_ != Mode::kStrict && mode_ != Mode::kMonotonic)
    bad("mode must be strict (0) or monotonic (1), got " + std::to_string(static_cast<int>(mode_)));
  if (!std::isfinite(o.max_wait_ms) || o.max_wait_ms < 0 || o.max_wait_ms > 60000)
    bad("max_wait_ms must be a number in [0, 60000], got " + detail::ms_text(o.max_wait_ms));
  if (o.max_drift_ms < 0 || o.max_drift_ms > 86'400'000)
    bad("max_drift_ms must be in [0, 86400000], got " + std::to_string(o.max_drift_ms));
  max_wait_ms_ = o.max_wait_ms;
  max_wait_ns_ = std::llround(o.max_wait_ms * kNsPerMs);
  budget_ns_ = std::max<int64_t>(max_wait_ns_, kNsPerMs);
  max_drift_ms_ = o.max_drift_ms;
  clock_ = o.clock ? o.clock : system_clock();
  system_clock_ = clock_ == system_clock();
  virtual_time_ = clock_->virtual_time();

  detail::register_fork_handlers();
  if (!o.node_source.empty() && o.node_id != -1)
    bad("give node_id or node_source, not both (node_id " + std::to_string(o.node_id) +
        ", node_source " + detail::quote(detail::redact_node_source(o.node_source)) + ")");
  node_source_ = std::move(o.node_source);
  shared_ = std::move(o.shared);
  check_shared(shared_, node_source_);
  if (shared_.mark_limit != nullptr) limit_ = shared_.mark_limit;
  seq_mask_ = layout_.max_sequence();
  max_elapsed_ = layout_.max_elapsed_ms();
  max_packed_ = (max_elapsed_ << layout_.sequence_bits()) | seq_mask_;
  attach(o.node_id);
  leased_ = lease_ != nullptr;
  created_token_ = detail::fork_generation();
  usable_token_.store(created_token_, std::memory_order_release);
}

// Takes the node id (claiming a slot for a leased source) and its id space, and for a
// lease starts the mark keeper. The constructor's work, and a forked child's re-claim
// (whose `floor_state`, the state inherited from the parent, the new space starts after).
void GeneratorCore::attach(int64_t node_id, int64_t floor_state) {
  if (node_source_.empty()) {
    if (node_id < 0 || node_id > layout_.max_node_id())
      bad("node_id must be in [0, " + std::to_string(layout_.max_node_id()) + "] for layout " +
          layout_.to_string() + ", got " + std::to_string(node_id));
    node_id_ = node_id;
  } else {
    // A lease is exclusive: skip slots whose id space an open generator of this process
    // already uses (a static node id, the same slot from another registry).
    detail::NodeClaim claim =
        detail::claim_node(node_source_, layout_, clock_, [this](int64_t node) {
          return !detail::IdSpace::would_conflict(layout_, node, *clock_, true);
        });
    node_id_ = claim.node_id;
    lease_ = std::move(claim.lease);
  }
  node_part_ = node_id_ << layout_.node_shift();
  if (shared_.state != nullptr) {
    // The caller's memory holds the space's state; the registry is not involved.
    point_at(shared_.state, false);
    return;
  }

  // Throws (and the lease member releases the slot) when an open generator of this
  // process overlaps the id space but cannot share its word. A host-shared node id takes
  // its place in the registry too (exclusive, as every lease), so that no other generator
  // of this process mints that node's ids, but mints on the word its lease maps, with the
  // other processes of the share.
  space_ = std::make_unique<detail::IdSpace>(layout_, node_id_, *clock_, lease_ != nullptr,
                                             describe(), uuid7_);
  host_shared_ = lease_ && lease_->shared_state() != nullptr;
  point_at(host_shared_ ? lease_->shared_state() : space_->word(), !host_shared_);
  if (lease_) {
    try {
      // The slot's previous holders may have issued ids up to the claimed mark: start with
      // that millisecond fully spent, so strict mode waits or refuses until the clock passes
      // it and monotonic mode continues after it (unless this process issued later ids in
      // the space already). Raised, never stored: on a host-shared node id other processes
      // mint on the word meanwhile.
      deadline_ = lease_->deadline();
      const int64_t mark = lease_->claimed_mark_ms();
      int64_t start = state_->load(std::memory_order_acquire);
      if (mark >= layout_.epoch_ms()) {
        const int64_t elapsed = std::min(mark - layout_.epoch_ms(), max_elapsed_);
        start = std::max(start, (elapsed << layout_.sequence_bits()) | seq_mask_);
      }
      // Ids keep ascending per generator across a fork: the ones issued before it (maybe
      // borrowed ahead of the wall) sort below the child's, whatever its node.
      if (floor_state >= 0) start = std::max(start, floor_state | seq_mask_);
      raise_state(start);
      initial_state_ = start;
      detail::MarkKeeper::Inputs in;
      in.lease = lease_;
      in.clock = clock_;
      in.system_clock = system_clock_;
      in.state = state_;
      in.wall_high = &wall_high_;
      in.mark_limit = &mark_limit_;
      in.mark_writes = &mark_writes_;
      in.mark_write_failures = &mark_write_failures_;
      in.renewal_failures = &lease_renewal_failures_;
      in.sequence_bits = layout_.sequence_bits();
      in.epoch_ms = layout_.epoch_ms();
      in.max_elapsed_ms = max_elapsed_;
      in.extra_ahead_ms =
          mode_ == Mode::kMonotonic ? std::min(max_drift_ms_, detail::MarkKeeper::kAheadMs) : 0;
      keeper_ = std::make_unique<detail::MarkKeeper>(std::move(in));
      int64_t wall_ns;
      keeper_->start(read_elapsed_ms_exact(&wall_ns));
    } catch (...) {
      keeper_.reset();
      if (space_) space_->close(false, 0);
      throw;
    }
  }
}


bool GeneratorCore::closed() const noexcept {
  return usable_token_.load(std::memory_order_acquire) == kClosedToken;
}

void GeneratorCore::throw_unusable() const {
  if (closed())
    throw Error(ErrorKind::kGeneratorClosed,
                "generator for node " + std::to_string(node_id_) + " is closed");
  throw Error(ErrorKind::kForkDetected,
              "generator for node " + std::to_string(node_id_) +
                  " was created before fork(); in the child it would mint the parent's ids. "
                  "Create a new generator with its own node id in the child, or use a leased "
                  "node source (local, etcd): such a generator claims a slot of its own in "
                  "each forked child");
}

// "generator for node 37 of layout 41.10.12@1704067200000 (strict, leased from
// local:/run/ids slot 37)": names this generator in another one's refusal.
std::string GeneratorCore::describe() const {
  std::string d = "generator for node " + std::to_string(node_id_) + " of layout " +
                  layout_.to_string() + " (" + mode_name(mode_);
  if (lease_) d += ", leased from " + lease_->where();
  if (shared_.state != nullptr) d += ", in " + shared_.where;
  if (virtual_time_) d += ", on a scripted clock";
  return d + ")";
}

// "1737747358021 (2025-01-24T19:35:58.021Z) persisted in local:/run/ids slot 7": the
// claimed mark, for messages.
// A shared space's: "... (...) in PostgreSQL shared memory (...)", where it started.
std::string GeneratorCore::mark_text() const {
  const int64_t start = lease_ ? initial_state_ : shared_start();
  const int64_t ms = (start >> layout_.sequence_bits()) + layout_.epoch_ms();
  if (!lease_) return std::to_string(ms) + " (" + format_iso8601(ms) + ") in " + shared_.where;
  return std::to_string(ms) + " (" + format_iso8601(ms) + ") persisted in " + lease_->where();
}

int64_t GeneratorCore::shared_start() const noexcept {
  return shared_.start ? shared_.start->load(std::memory_order_acquire) : INT64_MIN;
}

bool GeneratorCore::at_start(int64_t state) const noexcept {
  return lease_ ? state == initial_state_ : state >= 0 && state == shared_start();
}

int64_t GeneratorCore::current_state() const noexcept {
  const int64_t s = state_->load(std::memory_order_acquire);
  return s == kClosedState ? closed_state_.load(std::memory_order_relaxed) : s;
}

int64_t GeneratorCore::monotonic_now() const {
  return system_clock_ ? detail::monotonic_ns() : clock_->monotonic_ns();
}

// True when the lease's local deadline has passed on the generator's monotonic clock.
bool GeneratorCore::past_deadline() const {
  return monotonic_now() > deadline_->load(std::memory_order_acquire);
}

// True within kFenceMarginNs of the deadline (or past it): from then on every call checks
// the deadline exactly, none trusts the check made at its millisecond's first call.
bool GeneratorCore::near_deadline() const {
  return detail::saturating_add(monotonic_now(), detail::kFenceMarginNs) >
         deadline_->load(std::memory_order_acquire);
}

void GeneratorCore::throw_lease_lost() {
  lease_refusals_.fetch_add(1, std::memory_order_relaxed);
  std::string msg = "node " + std::to_string(node_id_) + ": ";
  if (lease_->lost()) {
    msg += "the node-id lease is lost (" + lease_->problem() +
           "); this generator will not issue ids again, create a new one";
  } else {
    const int64_t past = monotonic_now() - deadline_->load(std::memory_order_acquire);
    msg += "the node-id lease " + lease_->where() + " is unconfirmed: its local deadline passed " +
           std::to_string(detail::floor_div(past, kNsPerMs)) + " ms ago";
    const std::string why = lease_->problem();
    if (!why.empty()) msg += " (" + why + ")";
    msg += "; refusing to issue ids until a keepalive confirms it";
  }
  throw Error(ErrorKind::kLeaseLost, msg);
}

size_t GeneratorCore::batch_size(int64_t n) const {
  const uint64_t token = usable_token_.load(std::memory_order_acquire);
  // A leased generator in a forked child re-claims in the call itself (revive_or_throw).
  if (token != detail::fork_generation() && (token == kClosedToken || !leased_))
    throw_unusable();
  if (n < 0 || static_cast<uint64_t>(n) > kMaxBatch)
    bad("batch size n must be in [0, " + std::to_string(kMaxBatch) + "], got " +
        std::to_string(n));
  return static_cast<size_t>(n);
}

Generator::Generator(GeneratorOptions o) : Generator(std::move(o), false) {}

Generator::Generator(GeneratorOptions o, bool uuid7)
    : core_(std::make_unique<GeneratorCore>(std::move(o), uuid7)) {}

Generator::~Generator() = default;

Generator::Generator(Generator&& other) noexcept = default;

Generator& Generator::operator=(Generator&& other) noexcept {
  // Destroying our core closes it, releasing a leased node id, before other's is ours.
  if (this != &other) core_ = std::move(other.core_);
  return *this;
}

void Generator::throw_moved_from() {
  throw Error(ErrorKind::kGeneratorClosed,
              "generator is closed: it was moved from (its node id and state went to the "
              "generator it was moved into)");
}

std::vector<int64_t> Generator::next_ids(size_t n) { return core().next_ids(n); }

Stats Generator::stats() const noexcept { return core_ ? core_->stats() : Stats{}; }

Status Generator::status() {
  if (core_) return core_->status();
  Status st;
  st.node_id = -1;
  st.reason = "generator is closed: it was moved from";
  return st;
}

int64_t Generator::drift_ms() { return core().drift_ms(); }

const Layout& Generator::layout() const noexcept {
  static const Layout none;
  return core_ ? core_->layout() : none;
}

int64_t Generator::node_id() const noexcept { return core_ ? core_->node_id() : -1; }
Mode Generator::mode() const noexcept { return core_ ? core_->mode() : Mode::kStrict; }
double Generator::max_wait_ms() const noexcept { return core_ ? core_->max_wait_ms() : 0; }
int64_t Generator::max_drift_ms() const noexcept { return core_ ? core_->max_drift_ms() : 0; }

void Generator::close() noexcept {
  if (core_) core_->close();
}

bool Generator::closed() const noexcept { return !core_ || core_->closed(); }

}  // namespace snowfleet
