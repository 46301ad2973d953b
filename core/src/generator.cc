// The generator: strict and monotonic modes over one packed atomic word.
//
// State is `elapsed_ms << sequence_bits | sequence` of the last issued id (-1 before the
// first). Both modes are "read the clock, compute the next packed value, CAS it in": the
// CAS is the only write, so every error path leaves the state exactly as it was (Twitter
// snowflake issue #6 cannot happen), and no mutex sits on the hot path. Every wait goes
// through Clock::sleep_ns under one monotonic deadline per call.
#include <pthread.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>

#include "internal.hpp"
#include "node_lease.hpp"
#include "node_source.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace detail {

std::atomic<uint64_t> g_fork_generation{1};

// The packed state word. Generators of one process that share a node id (same layout, same
// clock, not leased) share one word, so two of them, in two threads or two language
// runtimes of one process, cannot issue the same id.
struct SharedState {
  alignas(64) std::atomic<int64_t> word{-1};
};

namespace {

struct StateKey {
  const void* clock;
  int64_t epoch_ms, node_id;
  int timestamp_bits, datacenter_bits, machine_bits, sequence_bits;
  uint64_t fork_generation;
  bool operator<(const StateKey& o) const {
    return std::tie(clock, epoch_ms, node_id, timestamp_bits, datacenter_bits, machine_bits,
                    sequence_bits, fork_generation) <
           std::tie(o.clock, o.epoch_ms, o.node_id, o.timestamp_bits, o.datacenter_bits,
                    o.machine_bits, o.sequence_bits, o.fork_generation);
  }
};

// Leaked on purpose: generators may be destroyed during static destruction.
std::mutex& states_mu() {
  static auto* mu = new std::mutex;
  return *mu;
}
std::map<StateKey, std::weak_ptr<SharedState>>& states() {
  static auto* m = new std::map<StateKey, std::weak_ptr<SharedState>>;
  return *m;
}

// A fork() must not copy states_mu() while another thread holds it.
void before_fork() { states_mu().lock(); }
void after_fork_parent() { states_mu().unlock(); }
void after_fork_child() {
  states_mu().unlock();  // the forking thread locked it, and is the child's only thread
  g_fork_generation.fetch_add(1, std::memory_order_relaxed);
}

std::shared_ptr<SharedState> shared_state(const StateKey& key) {
  std::lock_guard<std::mutex> lock(states_mu());
  auto& m = states();
  for (auto it = m.begin(); it != m.end();) it = it->second.expired() ? m.erase(it) : std::next(it);
  std::weak_ptr<SharedState>& slot = m[key];
  if (auto live = slot.lock()) return live;
  auto fresh = std::make_shared<SharedState>();
  slot = fresh;
  return fresh;
}

}  // namespace

void register_fork_handlers() {
  // Once, before the first generator exists: a child forked after that sees a new
  // generation, so every generator it inherited refuses to mint.
  static const int registered = pthread_atfork(before_fork, after_fork_parent, after_fork_child);
  (void)registered;
}

}  // namespace detail

using detail::kNsPerMs;

namespace {
constexpr uint64_t kClosedToken = 0;  // fork generations start at 1
// state_ after close(): below every real state (those are >= -1), so a CAS that expected a
// real state fails, and every reader checks usability after loading the state.
constexpr int64_t kClosedState = INT64_MIN;
// How far past the ids about to be issued a leased generator persists its high-water mark:
// one write per this many ms of minting, never one per id. It is also the longest a
// successor of a crashed holder may have to wait (plus the lease's lead, see extend_mark).
constexpr int64_t kMarkAheadMs = 1000;

[[noreturn]] void bad(const std::string& what) { throw Error(ErrorKind::kInvalidArgument, what); }

std::string ms_text(double ms) {
  std::string s = std::to_string(ms);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

// Calls the wait hooks around a blocking step that is not a clock wait: a mark write
// (fsync, an etcd round trip), a release, or waiting for the thread doing one. The Python
// binding releases the GIL here, so a thread blocked on the lease never holds it.
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

void atomic_max(std::atomic<uint64_t>& a, uint64_t v) noexcept {
  uint64_t cur = a.load(std::memory_order_relaxed);
  while (v > cur && !a.compare_exchange_weak(cur, v, std::memory_order_relaxed)) {
  }
}
}  // namespace

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
  bad("mode must be 'strict' or 'monotonic', got '" + std::string(text.substr(0, 40)) + "'");
}

Generator::Generator(GeneratorOptions o)
    : layout_(o.layout), mode_(o.mode), hooks_(o.wait_hooks) {
  if (mode_ != Mode::kStrict && mode_ != Mode::kMonotonic)
    bad("mode must be strict (0) or monotonic (1), got " + std::to_string(static_cast<int>(mode_)));
  if (!std::isfinite(o.max_wait_ms) || o.max_wait_ms < 0 || o.max_wait_ms > 60000)
    bad("max_wait_ms must be a number in [0, 60000], got " + ms_text(o.max_wait_ms));
  if (o.max_drift_ms < 0 || o.max_drift_ms > 86'400'000)
    bad("max_drift_ms must be in [0, 86400000], got " + std::to_string(o.max_drift_ms));
  max_wait_ms_ = o.max_wait_ms;
  max_wait_ns_ = std::llround(o.max_wait_ms * kNsPerMs);
  budget_ns_ = std::max<int64_t>(max_wait_ns_, kNsPerMs);
  max_drift_ms_ = o.max_drift_ms;
  clock_ = o.clock ? o.clock : system_clock();
  system_clock_ = clock_ == system_clock();

  detail::register_fork_handlers();
  if (!o.node_source.empty() && o.node_id != -1)
    bad("give node_id or node_source, not both (node_id " + std::to_string(o.node_id) +
        ", node_source '" + o.node_source.substr(0, 200) + "')");
  if (o.node_source.empty()) {
    if (o.node_id < 0 || o.node_id > layout_.max_node_id())
      bad("node_id must be in [0, " + std::to_string(layout_.max_node_id()) + "] for layout " +
          layout_.to_string() + ", got " + std::to_string(o.node_id));
    node_id_ = o.node_id;
  } else {
    detail::NodeClaim claim = detail::claim_node(o.node_source, layout_, clock_);
    node_id_ = claim.node_id;
    lease_ = std::move(claim.lease);
  }
  node_part_ = node_id_ << layout_.node_shift();
  seq_mask_ = layout_.max_sequence();
  max_elapsed_ = layout_.max_elapsed_ms();
  // A leased node id is ours alone; any other id may also be used by another generator of
  // this process, and then both must mint from one state word.
  shared_ = lease_ ? std::make_shared<detail::SharedState>()
                   : detail::shared_state({clock_.get(), layout_.epoch_ms(), node_id_,
                                           layout_.timestamp_bits(), layout_.datacenter_bits(),
                                           layout_.machine_bits(), layout_.sequence_bits(),
                                           detail::fork_generation()});
  state_ = &shared_->word;
  if (lease_) {
    // The slot's previous holders may have issued ids up to the claimed mark: start with
    // that millisecond fully spent, so strict mode waits or refuses until the clock passes
    // it and monotonic mode continues after it. Nothing may be issued before a mark of our
    // own is persisted (mark_limit_ = -1), so the first call writes one.
    deadline_ = lease_->deadline();
    const int64_t mark = lease_->claimed_mark_ms();
    if (mark >= layout_.epoch_ms()) {
      const int64_t elapsed = std::min(mark - layout_.epoch_ms(), max_elapsed_);
      initial_state_ = (elapsed << layout_.sequence_bits()) | seq_mask_;
      state_->store(initial_state_, std::memory_order_relaxed);
      mark_persisted_ = elapsed;
    }
    mark_limit_.store(-1, std::memory_order_relaxed);
  }
  created_token_ = detail::fork_generation();
  usable_token_.store(created_token_, std::memory_order_release);
}

Generator::~Generator() { close(); }

void Generator::close() noexcept {
  if (!lease_) {
    // The state word may be shared with other generators of this node id: leave it alone.
    usable_token_.store(kClosedToken, std::memory_order_release);
    return;
  }
  // In a forked child only this thread exists: lease_mu_ may have been copied locked by a
  // parent thread that was writing a mark, so do not wait for it there.
  const bool forked_child = created_token_ != detail::fork_generation();
  std::unique_lock<std::mutex> lock(lease_mu_, std::defer_lock);
  if (forked_child) {
    (void)lock.try_lock();
  } else {
    lock_lease(lock);
  }
  if (usable_token_.load(std::memory_order_acquire) == kClosedToken) return;
  usable_token_.store(kClosedToken, std::memory_order_seq_cst);
  // Swap in kClosedState so that a call which passed its usability check before the token
  // moved cannot complete its CAS afterwards: the state recorded here is final. The state
  // is published in closed_state_ before the swap that makes it final.
  int64_t last = state_->load(std::memory_order_acquire);
  closed_state_.store(last, std::memory_order_relaxed);
  while (!state_->compare_exchange_weak(last, kClosedState, std::memory_order_acq_rel))
    closed_state_.store(last, std::memory_order_relaxed);
  if (forked_child) {
    // The slot (lock, etcd lease) belongs to the parent: drop our descriptors and leak the
    // object on purpose. Its keepalive thread does not exist here, and destroying the
    // mutex and condition variable that thread was waiting on could block.
    lease_->abandon_after_fork();
    new std::shared_ptr<detail::NodeLease>(std::move(lease_));
    return;
  }
  // Persist the millisecond actually reached, so the next holder need not wait out the
  // reservation made ahead. (last covers the claimed mark when nothing was issued.)
  if (last >= 0 && !lease_->lost()) {
    const int64_t last_ms = last >> layout_.sequence_bits();
    if (last_ms < mark_persisted_) {
      try {
        HooksReleased released(hooks_);
        lease_->write_mark(last_ms + layout_.epoch_ms());
        mark_writes_.fetch_add(1, std::memory_order_relaxed);
        mark_persisted_ = last_ms;
      } catch (...) {
        // The reservation made ahead stays: safe, the next holder only waits longer.
      }
    }
  }
  HooksReleased released(hooks_);
  lease_->release();
}

// Takes lease_mu_; if another thread holds it (writing a mark), waits with the hooks
// called, so that thread can get back whatever the hooks released (the GIL).
void Generator::lock_lease(std::unique_lock<std::mutex>& lock) {
  if (lock.try_lock()) return;
  HooksReleased released(hooks_);
  lock.lock();
}

// "1737747358021 (2025-01-24T19:35:58.021Z) persisted in local:/run/ids slot 7": the
// claimed mark, for messages.
std::string Generator::mark_text() const {
  const int64_t ms = (initial_state_ >> layout_.sequence_bits()) + layout_.epoch_ms();
  return std::to_string(ms) + " (" + format_iso8601(ms) + ") persisted in " +
         (lease_ ? lease_->where() : std::string("the node source"));
}

int64_t Generator::current_state() const noexcept {
  const int64_t s = state_->load(std::memory_order_acquire);
  return s == kClosedState ? closed_state_.load(std::memory_order_relaxed) : s;
}

// True when the lease's local deadline has passed on the generator's monotonic clock.
bool Generator::past_deadline() const {
  const int64_t mono = system_clock_ ? detail::monotonic_ns() : clock_->monotonic_ns();
  return mono > deadline_->load(std::memory_order_acquire);
}

void Generator::throw_lease_lost(int64_t now) {
  (void)now;
  lease_refusals_.fetch_add(1, std::memory_order_relaxed);
  std::string msg = "node " + std::to_string(node_id_) + ": ";
  if (lease_->lost()) {
    msg += "the node-id lease is lost (" + lease_->problem() +
           "); this generator will not issue ids again, create a new one";
  } else {
    const int64_t mono = system_clock_ ? detail::monotonic_ns() : clock_->monotonic_ns();
    const int64_t past = mono - deadline_->load(std::memory_order_acquire);
    msg += "the node-id lease " + lease_->where() + " is unconfirmed: its local deadline passed " +
           std::to_string(detail::floor_div(past, kNsPerMs)) + " ms ago";
    const std::string why = lease_->problem();
    if (!why.empty()) msg += " (" + why + ")";
    msg += "; refusing to issue ids until a keepalive confirms it";
  }
  throw Error(ErrorKind::kLeaseLost, msg);
}

// Write-ahead persistence of the high-water mark, before issuing a run whose last packed
// value `last_packed` lies above mark_limit_. The mark written covers the run plus
// kMarkAheadMs plus the lease's lead; mark_limit_ then allows issuing up to the mark minus
// the lead, so the next write comes about kMarkAheadMs later, and if that write fails
// (store unreachable) the ids up to the persisted mark can still be issued: with etcd the
// lead is the TTL, so minting rides out an outage until the lease's local deadline.
void Generator::extend_mark(int64_t last_packed, int64_t now) {
  std::unique_lock<std::mutex> lock(lease_mu_, std::defer_lock);
  lock_lease(lock);
  if (last_packed <= mark_limit_.load(std::memory_order_acquire)) return;  // done meanwhile
  if (usable_token_.load(std::memory_order_acquire) == kClosedToken) throw_unusable();
  if (lease_->lost()) {
    mark_limit_.store(INT64_MIN, std::memory_order_release);
    throw_lease_lost(now);
  }
  const int bits = layout_.sequence_bits();
  const int64_t last_ms = last_packed >> bits;
  const int64_t lead = lease_->mark_lead_ms();
  const int64_t target = std::min(std::max(last_ms, now) + lead + kMarkAheadMs, max_elapsed_);
  try {
    HooksReleased released(hooks_);
    lease_->write_mark(target + layout_.epoch_ms());
  } catch (const Error&) {
    if (lease_->lost()) {
      mark_limit_.store(INT64_MIN, std::memory_order_release);
      throw_lease_lost(now);
    }
    if (mark_persisted_ >= 0 && last_ms <= mark_persisted_) {
      // Covered by the mark persisted earlier: go on issuing up to it, retry past it.
      mark_limit_.store((mark_persisted_ << bits) | seq_mask_, std::memory_order_release);
      return;
    }
    lease_refusals_.fetch_add(1, std::memory_order_relaxed);
    throw;
  }
  mark_writes_.fetch_add(1, std::memory_order_relaxed);
  mark_persisted_ = target;
  const int64_t limit_ms = target == max_elapsed_ ? target : target - lead;
  mark_limit_.store((limit_ms << bits) | seq_mask_, std::memory_order_release);
}

bool Generator::closed() const noexcept {
  return usable_token_.load(std::memory_order_acquire) == kClosedToken;
}

inline void Generator::check_usable() const {
  // One load and compare per call: the fork generation moves in a forked child, the
  // token moves to kClosedToken on close().
  if (detail::fork_generation() != usable_token_.load(std::memory_order_relaxed))
    throw_unusable();
}

void Generator::throw_unusable() const {
  if (closed())
    throw Error(ErrorKind::kGeneratorClosed,
                "generator for node " + std::to_string(node_id_) + " is closed");
  throw Error(ErrorKind::kForkDetected,
              "generator for node " + std::to_string(node_id_) +
                  " was created before fork(); in the child it would mint the parent's ids. "
                  "Create a new generator with its own node id in the child");
}

// Wall clock in ms since the layout's epoch. For the system clock this may be answered
// from the TSC window (*elided = true, *wall_ns untouched); otherwise *wall_ns holds the
// exact reading, which decides how long a wait must sleep.
inline int64_t Generator::read_elapsed_ms(bool* elided, int64_t* wall_ns) {
  if (system_clock_) return detail::system_wall_ms(elided, wall_ns) - layout_.epoch_ms();
  *elided = false;
  *wall_ns = clock_->wall_ns();
  return detail::floor_div(*wall_ns, kNsPerMs) - layout_.epoch_ms();
}

int64_t Generator::read_elapsed_ms_exact(int64_t* wall_ns) {
  *wall_ns = clock_->wall_ns();
  return detail::floor_div(*wall_ns, kNsPerMs) - layout_.epoch_ms();
}

// Tracks the highest wall reading for rewinds_seen. `high` must have been loaded before
// the clock was read, so a concurrent thread's newer reading cannot look like a rewind.
void Generator::note_wall(int64_t now, int64_t high) noexcept {
  if (now > high) {
    while (now > high &&
           !wall_high_.compare_exchange_weak(high, now, std::memory_order_relaxed)) {
    }
  } else if (now < high) {
    rewinds_seen_.fetch_add(1, std::memory_order_relaxed);
  }
}

inline void Generator::account(int64_t before, const Run& run, int64_t now) noexcept {
  ids_issued_.fetch_add(static_cast<uint64_t>(run.count), std::memory_order_relaxed);
  if (mode_ == Mode::kMonotonic) {
    // Borrowing happens only at a sequence overflow, so this add is rare.
    const int bits = layout_.sequence_bits();
    const int64_t borrowed = ((run.first + run.count - 1) >> bits) - std::max(before >> bits, now);
    if (borrowed > 0)
      ms_borrowed_.fetch_add(static_cast<uint64_t>(borrowed), std::memory_order_relaxed);
  }
}

inline Generator::Run Generator::reserve(int64_t want) {
  const int bits = layout_.sequence_bits();
  for (;;) {
    int64_t s = state_->load(std::memory_order_acquire);
    check_usable();  // after loading the state: see close()
    const int64_t high = wall_high_.load(std::memory_order_acquire);
    bool elided;
    int64_t wall_ns = 0;
    const int64_t now = read_elapsed_ms(&elided, &wall_ns);
    // Fast path: the reading is not behind anything seen, lies inside the layout's window,
    // and the id needs no wait. Everything else (including an elided reading that looks
    // behind) goes to reserve_slow, which decides from an exact reading.
    if (now < high || now < 0 || now > max_elapsed_)
      return reserve_slow(want, Reading{s, high, now, wall_ns, elided});
    if (now > high) {
      // A new millisecond: with an expiring lease (etcd), check its local deadline, at
      // most about once per ms rather than per id. A pause (SIGSTOP, a VM freeze) always
      // moves the wall clock on, or behind (slow path, which checks too), so the first
      // call after one checks before minting.
      if (deadline_ && past_deadline())
        return reserve_slow(want, Reading{s, high, now, wall_ns, elided});
      note_wall(now, high);
    }
    int64_t first, count;
    if (mode_ == Mode::kStrict) {
      const int64_t last = s >> bits;  // -1 before the first id
      if (now > last) {
        first = now << bits;
        count = std::min(want, seq_mask_ + 1);
      } else {  // now == last, since now >= high >= last in strict mode
        const int64_t room = seq_mask_ - (s & seq_mask_);
        if (room == 0) return reserve_slow(want, Reading{s, now, now, wall_ns, elided});
        first = s + 1;
        count = std::min(want, room);
      }
    } else {
      first = std::max(s + 1, now << bits);
      const int64_t limit_ms = std::min(now + max_drift_ms_, max_elapsed_);
      const int64_t limit = (limit_ms << bits) | seq_mask_;  // last packed value allowed
      if (first > limit) return reserve_slow(want, Reading{s, now, now, wall_ns, elided});
      count = std::min(want, limit - first + 1);
    }
    // A leased node id issues nothing above its persisted high-water mark (INT64_MAX
    // without a lease): one compare on the hot cache line.
    if (first + count - 1 > mark_limit_.load(std::memory_order_relaxed))
      return reserve_slow(want, Reading{s, now, now, wall_ns, elided});
    const int64_t before = s;
    if (state_->compare_exchange_strong(s, first + count - 1, std::memory_order_acq_rel)) {
      const Run run{first, count};
      account(before, run, now);
      return run;
    }
    // Lost a race: another thread moved the state; read the clock again.
  }
}

// The complete algorithm, from a state and a clock reading taken after it. It handles
// every case the fast path declines: rewinds, a spent millisecond, the drift limit, the
// ends of the layout's window, CAS races. One deadline on the monotonic clock, set at the
// first wait, bounds how long the call waits for a clock that does not move forward.
Generator::Run Generator::reserve_slow(int64_t want, Reading r) {
  const int bits = layout_.sequence_bits();
  const int64_t epoch = layout_.epoch_ms();
  if (r.elided) {
    // A TSC-window answer is trusted only on the fast path; decide everything else from
    // an exact reading. (Never happens with an injected clock, so scripts stay exact.)
    r.state = state_->load(std::memory_order_acquire);
    check_usable();
    r.high = wall_high_.load(std::memory_order_acquire);
    r.now = read_elapsed_ms_exact(&r.wall_ns);
  }
  bool waited = false;
  bool noted = false;  // note_wall ran for the current reading
  int64_t wait_started = 0, deadline = 0, waited_for = 0;
  auto finish_wait = [&] {
    if (!waited) return;
    const uint64_t w = static_cast<uint64_t>(clock_->monotonic_ns() - wait_started);
    waited_total_.fetch_add(w, std::memory_order_relaxed);
    atomic_max(waited_max_, w);
  };
  auto refuse = [&](ErrorKind kind, const std::string& message, int64_t drift) -> Run {
    refusals_.fetch_add(1, std::memory_order_relaxed);
    finish_wait();
    throw Error(kind, message, drift);
  };

  for (;;) {
    const int64_t s = r.state, now = r.now;
    if (!noted) note_wall(now, r.high);
    noted = true;
    if (lease_ && (lease_->lost() || (deadline_ && past_deadline()))) {
      finish_wait();
      throw_lease_lost(now);
    }
    if (now < 0 || now > max_elapsed_)
      return refuse(ErrorKind::kTimestampOutOfRange,
                    "wall clock reads " + std::to_string(now + epoch) +
                        " ms, outside the window [" + std::to_string(epoch) + ", " +
                        std::to_string(layout_.max_timestamp_ms()) + "] of layout " +
                        layout_.to_string(),
                    0);

    enum class Wait { kNone, kRewind, kSpent, kDrift } wait = Wait::kNone;
    int64_t first = 0, count = 0, wait_until = 0, drift = 0;
    if (mode_ == Mode::kStrict) {
      const int64_t last = s >> bits;
      if (now < last) {
        drift = last - now;
        if (drift * kNsPerMs > max_wait_ns_) {
          if (s == initial_state_)  // nothing issued yet: `last` is the claimed mark
            return refuse(ErrorKind::kClockMovedBackwards,
                          "wall clock is " + std::to_string(drift) +
                              " ms behind the high-water mark " + mark_text() + " of node " +
                              std::to_string(node_id_) + " (wait budget " +
                              ms_text(max_wait_ms_) + " ms); refusing to issue ids",
                          drift);
          return refuse(ErrorKind::kClockMovedBackwards,
                        "clock moved backwards by " + std::to_string(drift) + " ms on node " +
                            std::to_string(node_id_) + " (wait budget " +
                            ms_text(max_wait_ms_) + " ms); refusing to issue ids",
                        drift);
        }
        wait = Wait::kRewind;
        wait_until = last;
      } else if (now == last && (s & seq_mask_) == seq_mask_) {
        wait = Wait::kSpent;
        wait_until = now + 1;
      } else if (now == last) {
        first = s + 1;
        count = std::min(want, seq_mask_ - (s & seq_mask_));
      } else {
        first = now << bits;
        count = std::min(want, seq_mask_ + 1);
      }
    } else {
      first = std::max(s + 1, now << bits);
      const int64_t first_ms = first >> bits;
      if (first_ms > max_elapsed_)
        return refuse(ErrorKind::kTimestampOutOfRange,
                      "the logical clock of node " + std::to_string(node_id_) +
                          " has reached the end of the window of layout " + layout_.to_string(),
                      0);
      drift = first_ms - now;
      if (drift > max_drift_ms_) {
        if ((drift - max_drift_ms_) * kNsPerMs > max_wait_ns_)
          return refuse(ErrorKind::kClockMovedBackwards,
                        "node " + std::to_string(node_id_) + " would run " +
                            std::to_string(drift) + " ms ahead of the wall clock (max_drift_ms " +
                            std::to_string(max_drift_ms_) + ", wait budget " +
                            ms_text(max_wait_ms_) + " ms" +
                            (s == initial_state_ ? "; it starts after the high-water mark " +
                                                       mark_text()
                                                 : std::string()) +
                            "); refusing to issue ids",
                        drift);
        wait = Wait::kDrift;
        wait_until = first_ms - max_drift_ms_;
      } else {
        const int64_t limit_ms = std::min(now + max_drift_ms_, max_elapsed_);
        count = std::min(want, ((limit_ms << bits) | seq_mask_) - first + 1);
      }
    }

    if (wait == Wait::kNone && first + count - 1 > mark_limit_.load(std::memory_order_acquire)) {
      try {
        extend_mark(first + count - 1, now);
      } catch (const Error&) {
        finish_wait();
        throw;
      }
      continue;  // decide again from the same reading: the state may have moved meanwhile
    }
    if (wait == Wait::kNone) {
      int64_t expected = s;
      if (state_->compare_exchange_strong(expected, first + count - 1,
                                         std::memory_order_acq_rel)) {
        const Run run{first, count};
        account(s, run, now);
        finish_wait();
        return run;
      }
      // Lost a race: read the clock again after the new state.
      r.state = expected;
      check_usable();
      noted = false;
      r.high = wall_high_.load(std::memory_order_acquire);
      r.now = read_elapsed_ms_exact(&r.wall_ns);
      continue;
    }

    // Wait for the wall clock to reach `wait_until`. The deadline bounds waiting for the
    // *clock*: it is set at the first wait and renewed only when the clock did reach what
    // we last waited for (other threads then took that millisecond first). A clock that
    // retreats or stands still never renews it, so such a call ends within the budget.
    const int64_t mono = clock_->monotonic_ns();
    if (!waited) {
      waited = true;
      wait_started = mono;
      deadline = mono + budget_ns_;
      waits_.fetch_add(1, std::memory_order_relaxed);
    } else if (now >= waited_for) {
      deadline = mono + budget_ns_;
    }
    waited_for = wait_until;
    const int64_t remaining = deadline - mono;
    if (remaining <= 0) {
      if (wait == Wait::kSpent)
        return refuse(ErrorKind::kClockMovedBackwards,
                      "clock stuck at " + std::to_string(now + epoch) + " ms on node " +
                          std::to_string(node_id_) +
                          ": the sequence for this millisecond is spent and the clock has not "
                          "advanced within " +
                          ms_text(budget_ns_ / 1e6) + " ms",
                      0);
      return refuse(ErrorKind::kClockMovedBackwards,
                    "clock still " + std::to_string(drift) + " ms behind " +
                        (s == initial_state_ ? "the high-water mark " + mark_text() + " "
                                             : std::string()) +
                        "on node " + std::to_string(node_id_) + " after waiting " +
                        ms_text(budget_ns_ / 1e6) + " ms",
                    drift);
    }
    const int64_t need = (wait_until + epoch) * kNsPerMs - r.wall_ns;
    const int64_t nap = std::max<int64_t>(1, std::min(need, remaining));
    void* token = hooks_.enter ? hooks_.enter(hooks_.context) : nullptr;
    clock_->sleep_ns(nap);
    if (hooks_.leave) hooks_.leave(hooks_.context, token);
    r.state = state_->load(std::memory_order_acquire);
    check_usable();
    noted = false;
    r.high = wall_high_.load(std::memory_order_acquire);
    r.now = read_elapsed_ms_exact(&r.wall_ns);
  }
}

int64_t Generator::next_id() {
  const Run r = reserve(1);
  return id_of(r.first);
}

size_t Generator::batch_size(int64_t n) {
  if (n < 0 || static_cast<uint64_t>(n) > kMaxBatch)
    bad("batch size must be in [0, " + std::to_string(kMaxBatch) + "], got " + std::to_string(n));
  return static_cast<size_t>(n);
}

void Generator::next_ids(int64_t* out, size_t n) {
  // A size_t above INT64_MAX is a negative count converted on the way in: report it so.
  if (n > kMaxBatch) batch_size(static_cast<int64_t>(n));
  size_t done = 0;
  while (done < n) {
    const Run r = reserve(static_cast<int64_t>(n - done));
    // Unrolled by the compiler: a shift, a mask and two ORs per id.
    const int bits = layout_.sequence_bits(), shift = layout_.timestamp_shift();
    const int64_t node = node_part_, mask = seq_mask_;
    int64_t* dst = out + done;
    for (int64_t i = 0; i < r.count; ++i) {
      const int64_t p = r.first + i;
      dst[i] = ((p >> bits) << shift) | node | (p & mask);
    }
    done += static_cast<size_t>(r.count);
  }
}

std::vector<int64_t> Generator::next_ids(size_t n) {
  if (n > kMaxBatch) batch_size(static_cast<int64_t>(n));
  std::vector<int64_t> v(n);
  next_ids(v.data(), n);
  return v;
}

Stats Generator::stats() const noexcept {
  Stats st;
  st.ids_issued = ids_issued_.load(std::memory_order_relaxed);
  st.rewinds_seen = rewinds_seen_.load(std::memory_order_relaxed);
  st.waits = waits_.load(std::memory_order_relaxed);
  st.waited_ns_total = waited_total_.load(std::memory_order_relaxed);
  st.waited_ns_max = waited_max_.load(std::memory_order_relaxed);
  st.refusals = refusals_.load(std::memory_order_relaxed);
  st.ms_borrowed = ms_borrowed_.load(std::memory_order_relaxed);
  st.mark_writes = mark_writes_.load(std::memory_order_relaxed);
  st.lease_refusals = lease_refusals_.load(std::memory_order_relaxed);
  return st;
}

Status Generator::status() {
  Status st;
  st.node_id = node_id_;
  st.mode = mode_;
  int64_t wall_ns;
  const int64_t s = current_state();
  const int64_t now = read_elapsed_ms_exact(&wall_ns);
  const int64_t epoch = layout_.epoch_ms();
  st.wall_ms = now + epoch;
  // A claimed mark is not an issued id: last_ms stays -1 until this generator issues one.
  st.last_ms = s < 0 || s == initial_state_ ? -1 : (s >> layout_.sequence_bits()) + epoch;
  const int64_t ahead = s < 0 ? 0 : (s >> layout_.sequence_bits()) - now;
  st.drift_ms = std::max<int64_t>(0, ahead);
  const uint64_t token = usable_token_.load(std::memory_order_acquire);
  bool unconfirmed = false;
  if (lease_) {
    st.mark_ms = lease_->mark_ms();
    if (deadline_) {
      const int64_t d = deadline_->load(std::memory_order_acquire);
      const int64_t mono = system_clock_ ? detail::monotonic_ns() : clock_->monotonic_ns();
      if (d != INT64_MIN) st.lease_expires_in_ms = detail::floor_div(d - mono, kNsPerMs);
      unconfirmed = mono > d;
    }
    st.lease_state = token == kClosedToken ? LeaseState::kReleased
                     : lease_->lost()      ? LeaseState::kLost
                     : unconfirmed         ? LeaseState::kUnconfirmed
                                           : LeaseState::kHeld;
  }
  if (token == kClosedToken) {
    st.reason = "generator is closed";
  } else if (token != detail::fork_generation()) {
    st.reason = "generator was created before fork()";
  } else if (st.lease_state == LeaseState::kLost) {
    st.reason = "node-id lease lost: " + lease_->problem();
  } else if (st.lease_state == LeaseState::kUnconfirmed) {
    st.reason = "node-id lease " + lease_->where() + " is unconfirmed (past its local deadline)";
    const std::string why = lease_->problem();
    if (!why.empty()) st.reason += ": " + why;
  } else if (now < 0 || now > max_elapsed_) {
    st.reason = "wall clock is outside the window of layout " + layout_.to_string();
  } else if (mode_ == Mode::kStrict && s == initial_state_ && ahead * kNsPerMs > max_wait_ns_) {
    st.reason = "clock is " + std::to_string(ahead) + " ms behind the high-water mark " +
                mark_text() + " (wait budget " + ms_text(max_wait_ms_) + " ms)";
  } else if (mode_ == Mode::kStrict && ahead * kNsPerMs > max_wait_ns_) {
    st.reason = "clock is " + std::to_string(ahead) + " ms behind the last issued millisecond " +
                "(wait budget " + ms_text(max_wait_ms_) + " ms)";
  } else if (mode_ == Mode::kMonotonic && (ahead - max_drift_ms_) * kNsPerMs > max_wait_ns_) {
    st.reason = "generator runs " + std::to_string(ahead) + " ms ahead of the wall clock " +
                "(max_drift_ms " + std::to_string(max_drift_ms_) + ")";
  }
  st.healthy = st.reason.empty();
  return st;
}

int64_t Generator::drift_ms() {
  int64_t wall_ns;
  const int64_t s = current_state();
  const int64_t now = read_elapsed_ms_exact(&wall_ns);
  return s < 0 ? 0 : std::max<int64_t>(0, (s >> layout_.sequence_bits()) - now);
}

}  // namespace snowfleet
