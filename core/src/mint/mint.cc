// Minting: strict and monotonic modes over the id space's packed state word.
//
// State is `elapsed_ms << sequence_bits | sequence` of the last id issued in the id space
// (-1 before the first). Both modes are "read the clock, compute the next packed value, CAS
// it in": the CAS is the only write, so every error path leaves the state exactly as it was
// (Twitter snowflake issue #6 cannot happen), and no mutex sits on the hot path. Every wait
// goes through Clock::sleep_ns under one monotonic deadline per call.
//
// Arithmetic at the edges: a packed value is at most max_packed_ = (max_elapsed <<
// sequence_bits) | max_sequence, which is 2^63 - 1 for a layout without node bits, so
// nothing here adds to a state before checking it is below max_packed_, and every shift
// of a clock reading happens after the reading was checked to lie inside the window.
//
// This file is the fast path: reserve() serves a call from one clock reading and one CAS,
// and hands every other case to reserve_slow() (mint_slow.cc). The thread that owns the
// word (registry/abi.h: the first to mint on it, until another thread or generator
// writes it) stores instead of the CAS: the CAS is about half of an id's cost.
#include <algorithm>
#include <string>

#include "base/internal.hpp"
#include "generator_internal.hpp"
#include "id_space.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {

using detail::kNsPerMs;

// Wall clock in ms since the layout's epoch. For the system clock this may be answered
// from the TSC window (*elided = true, *wall_ns untouched); otherwise *wall_ns holds the
// exact reading, which decides how long a wait must sleep.
inline int64_t GeneratorCore::read_elapsed_ms(bool* elided, int64_t* wall_ns) {
  if (SNOWFLEET_LIKELY(system_clock_))
    return detail::system_wall_ms(elided, wall_ns) - layout_.epoch_ms();
  *elided = false;
  *wall_ns = clock_->wall_ns();
  return detail::floor_div(*wall_ns, kNsPerMs) - layout_.epoch_ms();
}

int64_t GeneratorCore::read_elapsed_ms_exact(int64_t* wall_ns) {
  *wall_ns = clock_->wall_ns();
  return detail::floor_div(*wall_ns, kNsPerMs) - layout_.epoch_ms();
}

// Tracks the highest wall reading for rewinds_seen (and, near a lease deadline, is not
// called, so that the next call of the millisecond takes the slow path and checks again).
// `high` must have been loaded before the clock was read, so a concurrent thread's newer
// reading cannot look like a rewind.
void GeneratorCore::note_wall(int64_t now, int64_t high) noexcept {
  if (now > high) {
    while (now > high && !wall_high_.compare_exchange_weak(high, now, std::memory_order_relaxed)) {
    }
  } else if (now < high) {
    rewinds_seen_.fetch_add(1, std::memory_order_relaxed);
  }
}

namespace {

// The fast path's run from state `s` at a reading `now` inside the window that is not
// behind any seen: [*first, *first + *count), or false when the slow path must decide.
__attribute__((always_inline)) inline bool fast_run(bool strict, int bits, int64_t seq_mask,
                                                    int64_t max_elapsed, int64_t max_packed,
                                                    int64_t max_drift_ms, int64_t s, int64_t now,
                                                    int64_t want, int64_t* first,
                                                    int64_t* count) noexcept {
  if (strict) {
    const int64_t last = s >> bits;  // -1 before the first id
    if (now > last) {
      *first = now << bits;
      *count = std::min(want, seq_mask + 1);
      return true;
    }
    // The space's last millisecond ahead of this reading although the reading is not
    // behind this generator's own: another generator of the space (a monotonic one that
    // ran ahead, an earlier one) issued there. Wait or refuse, never issue ahead.
    if (now < last) return false;
    const int64_t room = seq_mask - (s & seq_mask);
    if (room == 0) return false;
    *first = s + 1;
    *count = std::min(want, room);
    return true;
  }
  if (s >= max_packed) return false;
  *first = std::max(s + 1, now << bits);
  const int64_t limit_ms = std::min(now + max_drift_ms, max_elapsed);
  const int64_t limit = (limit_ms << bits) | seq_mask;  // last packed value allowed
  if (*first > limit) return false;
  *count = std::min(want - 1, limit - *first) + 1;  // limit - first + 1 may be 2^63
  return true;
}

}  // namespace

// Pauses before the retry after a CAS lost to another thread, times the races lost in a
// row (up to 4; at most 128 pauses, a few microseconds): see spin_pause. bench/run.py's
// "shared" row (two threads, one generator) is the figure this is tuned by.
constexpr int kPausesPerLostRace = 32;

// Returns once the state word is this thread's (`me`) or nobody's for good (kBiasRevoked),
// so that the caller may write it: by a plain store if its own, else by compare-and-swap.
// `claim`: take a word nobody owns yet. Only the system clock's generators own: a store
// in flight must end within nanoseconds, and another clock may block while it reads.
__attribute__((noinline, cold)) uintptr_t GeneratorCore::settle_bias(uintptr_t me,
                                                                     bool claim) noexcept {
  for (;;) {
    uint64_t b = bias_->load(std::memory_order_acquire);
    if (b == detail::kBiasRevoked || (me != 0 && b == me)) return b;
    if (b == detail::kBiasUnset && claim && me != 0) {
      if (bias_->compare_exchange_strong(b, me, std::memory_order_acq_rel)) return me;
      continue;
    }
    space_->unbias();  // only registry words have a bias that is not kBiasRevoked
  }
}

// The way out of an owned call to the slow path: the owner's store is no longer in flight.
__attribute__((always_inline)) inline GeneratorCore::Run GeneratorCore::leave_owned(
    bool owned, int64_t want, const Reading& reading) {
  if (owned) busy_->store(0, std::memory_order_release);
  return reserve_slow(want, reading);
}

// Whether this call owns the state word, its store announced in `busy`; false: it writes
// by compare-and-swap. The owner announces its store, then checks it still owns the word:
// a thread taking it away changes `bias` first, then waits for `busy` to clear
// (registry/abi.h). Not async-signal-safe: a handler minting on the word in the middle of
// the owner's call would issue what the call issues.
__attribute__((always_inline)) inline bool GeneratorCore::enter_owned(uintptr_t me) noexcept {
  for (;;) {
    const uint64_t b = bias_->load(std::memory_order_relaxed);
    if (SNOWFLEET_LIKELY(b == me)) {
      busy_->store(1, std::memory_order_relaxed);
      std::atomic_signal_fence(std::memory_order_seq_cst);  // the barrier is the revoker's
      if (SNOWFLEET_LIKELY(bias_->load(std::memory_order_relaxed) == me)) return true;
      busy_->store(0, std::memory_order_release);
    } else if (b == detail::kBiasRevoked) {
      return false;  // for good
    } else {
      settle_bias(me, system_clock_);
    }
  }
}

__attribute__((always_inline)) inline GeneratorCore::Run GeneratorCore::reserve(int64_t want) {
  const int bits = layout_.sequence_bits();
  const bool owned = enter_owned(detail::thread_pointer());
  int lost = 0;  // races lost in a row
  for (;;) {
    int64_t s = state_->load(std::memory_order_acquire);
    // After loading the state (see close()). A leased generator in a forked child claims
    // a slot of its own here, then loads its new state.
    if (SNOWFLEET_UNLIKELY(detail::fork_generation() !=
                           usable_token_.load(std::memory_order_acquire)))
      return reserve_revived(want, owned);  // a tail call: the loop keeps its registers
    const int64_t high = wall_high_.load(std::memory_order_acquire);
    bool elided;
    int64_t wall_ns = 0;
    const int64_t now = read_elapsed_ms(&elided, &wall_ns);
    // Fast path: the reading is not behind anything seen, lies inside the layout's window,
    // and the id needs no wait. Everything else (including an elided reading that looks
    // behind) goes to reserve_slow, which decides from an exact reading.
    if (SNOWFLEET_UNLIKELY(now < high || now < 0 || now > max_elapsed_))
      return leave_owned(owned, want, Reading{s, high, now, wall_ns, elided});
    // A lease that can expire (etcd): the first call of each wall millisecond checks the
    // deadline, and within kFenceMarginNs of it every call goes to the slow path, which
    // checks exactly. A pause (SIGSTOP, a VM freeze) always moves the wall clock on, so the
    // first call after one checks before minting. An injected clock may stand still while
    // its monotonic time moves: every call checks.
    if (SNOWFLEET_UNLIKELY(deadline_ != nullptr) && (now > high || !system_clock_) &&
        near_deadline())
      return leave_owned(owned, want, Reading{s, high, now, wall_ns, elided});
    if (SNOWFLEET_UNLIKELY(now > high)) note_wall(now, high);
    int64_t first, count;
    // A leased node id issues nothing above its persisted high-water mark (INT64_MAX
    // without a lease): one compare on the hot cache line.
    if (SNOWFLEET_UNLIKELY(!fast_run(mode_ == Mode::kStrict, bits, seq_mask_, max_elapsed_,
                                     max_packed_, max_drift_ms_, s, now, want, &first, &count) ||
                           first + (count - 1) > limit_->load(std::memory_order_relaxed)))
      return leave_owned(owned, want, Reading{s, now, now, wall_ns, elided});
    const int64_t before = s;
    if (SNOWFLEET_LIKELY(owned)) {
      state_->store(first + (count - 1), std::memory_order_release);
      busy_->store(0, std::memory_order_release);
    } else if (!state_->compare_exchange_strong(s, first + (count - 1),
                                                std::memory_order_acq_rel)) {
      // Lost a race: another thread moved the state; read the clock again, after a pause.
      detail::spin_pause(std::min(++lost, 4) * kPausesPerLostRace);
      continue;
    }
    const Run run{first, count};
    account(before, run, now);
    return run;
  }
}

// Out of line and cold: re-claims (or throws), then starts over. Called as a tail call so
// the fast path's loop does not have to keep its values across a call that may rewrite the
// generator (4 instructions per id when it was an in-loop call).
__attribute__((noinline, cold)) GeneratorCore::Run GeneratorCore::reserve_revived(int64_t want,
                                                                                  bool owned) {
  if (owned) busy_->store(0, std::memory_order_release);  // no store of this call follows
  revive_or_throw();
  return reserve(want);
}

int64_t GeneratorCore::next_id() {
  const Run r = reserve(1);
  return id_of(r.first);
}

void GeneratorCore::next_ids(int64_t* out, size_t n) {
  // Closed or forked first, whatever n is; a size_t above INT64_MAX is a negative count
  // converted on the way in: report it so.
  batch_size(static_cast<int64_t>(n));
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

std::vector<int64_t> GeneratorCore::next_ids(size_t n) {
  batch_size(static_cast<int64_t>(n));
  std::vector<int64_t> v(n);
  next_ids(v.data(), n);
  return v;
}

}  // namespace snowfleet
