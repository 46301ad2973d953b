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
#include <string>

#include "internal.hpp"
#include "node_source.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace detail {
namespace {
std::atomic<uint64_t> g_fork_generation{1};
void on_fork_child() { g_fork_generation.fetch_add(1, std::memory_order_relaxed); }
}  // namespace

uint64_t fork_generation() noexcept {
  // Registered once, before the first generator exists: a child forked after that sees a
  // new generation, so every generator it inherited refuses to mint (no getpid() per id).
  static const int registered = pthread_atfork(nullptr, nullptr, on_fork_child);
  (void)registered;
  return g_fork_generation.load(std::memory_order_relaxed);
}
}  // namespace detail

using detail::kNsPerMs;

namespace {
constexpr uint64_t kClosedToken = 0;  // fork generations start at 1

[[noreturn]] void bad(const std::string& what) { throw Error(ErrorKind::kInvalidArgument, what); }

std::string ms_text(double ms) {
  std::string s = std::to_string(ms);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

void atomic_max(std::atomic<uint64_t>& a, uint64_t v) noexcept {
  uint64_t cur = a.load(std::memory_order_relaxed);
  while (v > cur && !a.compare_exchange_weak(cur, v, std::memory_order_relaxed)) {
  }
}
}  // namespace

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

  if (o.node_source.empty()) {
    if (o.node_id < 0 || o.node_id > layout_.max_node_id())
      bad("node_id must be in [0, " + std::to_string(layout_.max_node_id()) + "] for layout " +
          layout_.to_string() + ", got " + std::to_string(o.node_id));
    node_id_ = o.node_id;
  } else {
    detail::NodeClaim claim = detail::claim_node(o.node_source, layout_);
    node_id_ = claim.node_id;
    node_lease_ = std::move(claim.lease);
  }
  node_part_ = node_id_ << layout_.node_shift();
  seq_mask_ = layout_.max_sequence();
  max_elapsed_ = layout_.max_elapsed_ms();
  created_token_ = detail::fork_generation();
  usable_token_.store(created_token_, std::memory_order_release);
}

Generator::~Generator() { close(); }

void Generator::close() noexcept {
  usable_token_.store(kClosedToken, std::memory_order_release);
  node_lease_.reset();
}

bool Generator::closed() const noexcept {
  return usable_token_.load(std::memory_order_acquire) == kClosedToken;
}

void Generator::check_usable() const {
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

void Generator::account(int64_t before, const Run& run, int64_t now) noexcept {
  ids_issued_.fetch_add(static_cast<uint64_t>(run.count), std::memory_order_relaxed);
  if (mode_ == Mode::kMonotonic) {
    // Borrowing happens only at a sequence overflow, so this add is rare.
    const int bits = layout_.sequence_bits();
    const int64_t borrowed = ((run.first + run.count - 1) >> bits) - std::max(before >> bits, now);
    if (borrowed > 0)
      ms_borrowed_.fetch_add(static_cast<uint64_t>(borrowed), std::memory_order_relaxed);
  }
}

Generator::Run Generator::reserve(int64_t want) {
  check_usable();
  const int bits = layout_.sequence_bits();
  for (;;) {
    int64_t s = state_.load(std::memory_order_acquire);
    const int64_t high = wall_high_.load(std::memory_order_acquire);
    bool elided;
    int64_t wall_ns = 0;
    const int64_t now = read_elapsed_ms(&elided, &wall_ns);
    // Fast path: the reading is not behind anything seen, lies inside the layout's window,
    // and the id needs no wait. Everything else (including an elided reading that looks
    // behind) goes to reserve_slow, which decides from an exact reading.
    if (now < high || now < 0 || now > max_elapsed_)
      return reserve_slow(want, Reading{s, high, now, wall_ns, elided});
    if (now > high) note_wall(now, high);
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
    const int64_t before = s;
    if (state_.compare_exchange_strong(s, first + count - 1, std::memory_order_acq_rel)) {
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
    r.state = state_.load(std::memory_order_acquire);
    r.high = wall_high_.load(std::memory_order_acquire);
    r.now = read_elapsed_ms_exact(&r.wall_ns);
  }
  bool waited = false;
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
    note_wall(now, r.high);
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
        if (drift * kNsPerMs > max_wait_ns_)
          return refuse(ErrorKind::kClockMovedBackwards,
                        "clock moved backwards by " + std::to_string(drift) + " ms on node " +
                            std::to_string(node_id_) + " (wait budget " +
                            ms_text(max_wait_ms_) + " ms); refusing to issue ids",
                        drift);
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
                            ms_text(max_wait_ms_) + " ms); refusing to issue ids",
                        drift);
        wait = Wait::kDrift;
        wait_until = first_ms - max_drift_ms_;
      } else {
        const int64_t limit_ms = std::min(now + max_drift_ms_, max_elapsed_);
        count = std::min(want, ((limit_ms << bits) | seq_mask_) - first + 1);
      }
    }

    if (wait == Wait::kNone) {
      int64_t expected = s;
      if (state_.compare_exchange_strong(expected, first + count - 1,
                                         std::memory_order_acq_rel)) {
        const Run run{first, count};
        account(s, run, now);
        finish_wait();
        return run;
      }
      // Lost a race: read the clock again after the new state.
      r.state = expected;
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
                    "clock still " + std::to_string(drift) + " ms behind on node " +
                        std::to_string(node_id_) + " after waiting " +
                        ms_text(budget_ns_ / 1e6) + " ms",
                    drift);
    }
    const int64_t need = (wait_until + epoch) * kNsPerMs - r.wall_ns;
    const int64_t nap = std::max<int64_t>(1, std::min(need, remaining));
    void* token = hooks_.enter ? hooks_.enter(hooks_.context) : nullptr;
    clock_->sleep_ns(nap);
    if (hooks_.leave) hooks_.leave(hooks_.context, token);
    r.state = state_.load(std::memory_order_acquire);
    r.high = wall_high_.load(std::memory_order_acquire);
    r.now = read_elapsed_ms_exact(&r.wall_ns);
  }
}

int64_t Generator::next_id() {
  const Run r = reserve(1);
  return id_of(r.first);
}

void Generator::next_ids(int64_t* out, size_t n) {
  if (n > kMaxBatch)
    bad("batch size must be in [0, " + std::to_string(kMaxBatch) + "], got " + std::to_string(n));
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
  if (n > kMaxBatch)
    bad("batch size must be in [0, " + std::to_string(kMaxBatch) + "], got " + std::to_string(n));
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
  return st;
}

Status Generator::status() {
  Status st;
  st.node_id = node_id_;
  st.mode = mode_;
  int64_t wall_ns;
  const int64_t s = state_.load(std::memory_order_acquire);
  const int64_t now = read_elapsed_ms_exact(&wall_ns);
  const int64_t epoch = layout_.epoch_ms();
  st.wall_ms = now + epoch;
  st.last_ms = s < 0 ? -1 : (s >> layout_.sequence_bits()) + epoch;
  const int64_t ahead = s < 0 ? 0 : (s >> layout_.sequence_bits()) - now;
  st.drift_ms = std::max<int64_t>(0, ahead);
  const uint64_t token = usable_token_.load(std::memory_order_acquire);
  if (token == kClosedToken) {
    st.reason = "generator is closed";
  } else if (token != detail::fork_generation()) {
    st.reason = "generator was created before fork()";
  } else if (now < 0 || now > max_elapsed_) {
    st.reason = "wall clock is outside the window of layout " + layout_.to_string();
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
  const int64_t s = state_.load(std::memory_order_acquire);
  const int64_t now = read_elapsed_ms_exact(&wall_ns);
  return s < 0 ? 0 : std::max<int64_t>(0, (s >> layout_.sequence_bits()) - now);
}

}  // namespace snowfleet
