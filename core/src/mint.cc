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
#include <algorithm>
#include <string>

#include "generator_internal.hpp"
#include "internal.hpp"
#include "mark_keeper.hpp"
#include "node_lease.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {

using detail::kNsPerMs;

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

// Tracks the highest wall reading for rewinds_seen (and, near a lease deadline, is not
// called, so that the next call of the millisecond takes the slow path and checks again).
// `high` must have been loaded before the clock was read, so a concurrent thread's newer
// reading cannot look like a rewind.
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
    const int64_t borrowed = ((run.first + (run.count - 1)) >> bits) - std::max(before >> bits, now);
    if (borrowed > 0)
      ms_borrowed_.fetch_add(static_cast<uint64_t>(borrowed), std::memory_order_relaxed);
  }
}

inline void Generator::check_usable() const {
  // One load and compare per call: the fork generation moves in a forked child, the
  // token moves to kClosedToken on close().
  if (detail::fork_generation() != usable_token_.load(std::memory_order_relaxed))
    throw_unusable();
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
    if (deadline_) {
      // A lease that can expire (etcd): the first call of each wall millisecond checks the
      // deadline, and within kFenceMarginNs of it every call goes to the slow path, which
      // checks exactly. A pause (SIGSTOP, a VM freeze) always moves the wall clock on, so
      // the first call after one checks before minting. An injected clock may stand still
      // while its monotonic time moves: every call checks.
      if ((now > high || !system_clock_) && near_deadline())
        return reserve_slow(want, Reading{s, high, now, wall_ns, elided});
    }
    if (now > high) note_wall(now, high);
    int64_t first, count;
    if (mode_ == Mode::kStrict) {
      const int64_t last = s >> bits;  // -1 before the first id
      if (now > last) {
        first = now << bits;
        count = std::min(want, seq_mask_ + 1);
      } else if (now == last) {
        const int64_t room = seq_mask_ - (s & seq_mask_);
        if (room == 0) return reserve_slow(want, Reading{s, now, now, wall_ns, elided});
        first = s + 1;
        count = std::min(want, room);
      } else {
        // The space's last millisecond is ahead of this reading although the reading is
        // not behind this generator's own: another generator of the space (a monotonic one
        // that ran ahead, an earlier one) issued there. Wait or refuse, never issue ahead.
        return reserve_slow(want, Reading{s, now, now, wall_ns, elided});
      }
    } else {
      if (s >= max_packed_) return reserve_slow(want, Reading{s, now, now, wall_ns, elided});
      first = std::max(s + 1, now << bits);
      const int64_t limit_ms = std::min(now + max_drift_ms_, max_elapsed_);
      const int64_t limit = (limit_ms << bits) | seq_mask_;  // last packed value allowed
      if (first > limit) return reserve_slow(want, Reading{s, now, now, wall_ns, elided});
      count = std::min(want - 1, limit - first) + 1;  // limit - first + 1 may be 2^63
    }
    // A leased node id issues nothing above its persisted high-water mark (INT64_MAX
    // without a lease): one compare on the hot cache line.
    if (first + (count - 1) > mark_limit_.load(std::memory_order_relaxed))
      return reserve_slow(want, Reading{s, now, now, wall_ns, elided});
    const int64_t before = s;
    if (state_->compare_exchange_strong(s, first + (count - 1), std::memory_order_acq_rel)) {
      const Run run{first, count};
      account(before, run, now);
      return run;
    }
    // Lost a race: another thread moved the state; read the clock again.
  }
}

// The complete algorithm, from a state and a clock reading taken after it. It handles
// every case the fast path declines: rewinds, a spent millisecond, the drift limit, the
// ends of the layout's window, the mark limit, the lease deadline, CAS races. One deadline
// on the monotonic clock, set at the first wait, bounds how long the call waits for a clock
// that does not move forward.
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
  int64_t real_started = 0;  // injected clocks: real time at the first wait (see below)
  bool reserving = false;    // contention seen: reserve ahead instead of waiting again
  bool noted = false;      // note_wall ran for the current reading
  int64_t wait_started = 0, deadline = 0, waited_for = 0;
  // Real time this call may still wait for the mark keeper. On a real-time clock the keeper
  // and the clock share one budget per call (whichever wait comes first starts it); a
  // scripted clock's time is not real time, so there the keeper gets its own.
  int64_t keeper_budget_ns = budget_ns_;
  auto finish_wait = [&] {
    if (!waited) return;
    const uint64_t w = static_cast<uint64_t>(clock_->monotonic_ns() - wait_started);
    waited_total_.fetch_add(w, std::memory_order_relaxed);
    detail::atomic_max(waited_max_, w);
  };
  auto refuse = [&](ErrorKind kind, const std::string& message, int64_t drift) -> Run {
    refusals_.fetch_add(1, std::memory_order_relaxed);
    finish_wait();
    throw Error(kind, message, drift);
  };
  auto reread = [&] {
    noted = false;
    r.state = state_->load(std::memory_order_acquire);
    check_usable();
    r.high = wall_high_.load(std::memory_order_acquire);
    r.now = read_elapsed_ms_exact(&r.wall_ns);
  };

  for (;;) {
    const int64_t s = r.state, now = r.now;
    // The lease first, before this reading is noted: past the deadline nothing is issued,
    // and near it nothing is noted, so every later call of this millisecond comes here too.
    bool fenced = false;
    if (lease_) {
      if (lease_->lost() || (deadline_ && past_deadline())) {
        finish_wait();
        throw_lease_lost();
      }
      fenced = deadline_ && near_deadline();
    }
    if (!fenced && !noted) note_wall(now, r.high);
    noted = true;
    if (now < 0 || now > max_elapsed_)
      return refuse(ErrorKind::kTimestampOutOfRange,
                    "wall clock reads " + std::to_string(now + epoch) +
                        " ms, outside the window [" + std::to_string(epoch) + ", " +
                        std::to_string(layout_.max_timestamp_ms()) + "] of layout " +
                        layout_.to_string(),
                    0);

    enum class Wait { kNone, kRewind, kSpent, kDrift } wait = Wait::kNone;
    int64_t first = 0, count = 0, wait_until = 0, drift = 0;
    const int64_t wait_ms = max_wait_ns_ / kNsPerMs;  // drift * 1e6 > max_wait_ns <=> this
    if (mode_ == Mode::kStrict) {
      const int64_t last = s >> bits;
      if (now < last) {
        drift = last - now;
        if (drift > wait_ms) {
          if (lease_ && s == initial_state_)  // nothing issued yet: `last` is the claimed mark
            return refuse(ErrorKind::kClockMovedBackwards,
                          "wall clock is " + std::to_string(drift) +
                              " ms behind the high-water mark " + mark_text() + " of node " +
                              std::to_string(node_id_) + " (wait budget " +
                              detail::ms_text(max_wait_ms_) + " ms); refusing to issue ids",
                          drift);
          return refuse(ErrorKind::kClockMovedBackwards,
                        "clock moved backwards by " + std::to_string(drift) + " ms on node " +
                            std::to_string(node_id_) +
                            " (behind the last millisecond issued in its id space; wait "
                            "budget " +
                            detail::ms_text(max_wait_ms_) + " ms); refusing to issue ids",
                        drift);
        }
        wait = Wait::kRewind;
        wait_until = last;
      } else if (now == last && (s & seq_mask_) == seq_mask_) {
        wait = Wait::kSpent;
        wait_until = now + 1;  // now <= max_elapsed_: no overflow
      } else if (now == last) {
        first = s + 1;
        count = std::min(want, seq_mask_ - (s & seq_mask_));
      } else {
        first = now << bits;
        count = std::min(want, seq_mask_ + 1);
      }
    } else {
      if (s >= max_packed_)
        return refuse(ErrorKind::kTimestampOutOfRange,
                      "the logical clock of node " + std::to_string(node_id_) +
                          " has issued the last id of the window of layout " + layout_.to_string(),
                      0);
      first = std::max(s + 1, now << bits);
      const int64_t first_ms = first >> bits;
      drift = first_ms - now;
      if (drift > max_drift_ms_) {
        if (drift - max_drift_ms_ > wait_ms)
          return refuse(ErrorKind::kClockMovedBackwards,
                        "node " + std::to_string(node_id_) + " would run " +
                            std::to_string(drift) + " ms ahead of the wall clock (max_drift_ms " +
                            std::to_string(max_drift_ms_) + ", wait budget " +
                            detail::ms_text(max_wait_ms_) + " ms" +
                            (lease_ && s == initial_state_
                                 ? "; it starts after the high-water mark " + mark_text()
                                 : std::string()) +
                            "); refusing to issue ids",
                        drift);
        wait = Wait::kDrift;
        wait_until = first_ms - max_drift_ms_;
      } else {
        const int64_t limit_ms = std::min(now + max_drift_ms_, max_elapsed_);
        count = std::min(want - 1, ((limit_ms << bits) | seq_mask_) - first) + 1;
      }
    }

    // Under contention (see below) a call that would wait again reserves its ids ahead
    // instead: the first ids of the millisecond the state reaches next, if that lies within
    // what is left of its budget plus one millisecond. It holds them until the wall clock
    // reaches their millisecond (strict) or brings them within max_drift_ms (monotonic),
    // then returns them, so none returns an id ahead of its clock unless the clock stalls
    // meanwhile. A call that woke up past its deadline (descheduled, or waiting for a GIL:
    // time the generator did not make it wait) may reserve up to a whole budget ahead:
    // the clock did move, other calls took it. No call waits on the generator longer than
    // its budget for the clock plus one budget and a millisecond for its turn.
    int64_t hold_until = INT64_MIN;  // wall ms (since the epoch) to hold the ids until
    if (wait != Wait::kNone && reserving) {
      const int64_t left = deadline - clock_->monotonic_ns();
      const int64_t extra = (left > 0 ? left : budget_ns_) / kNsPerMs + 1;
      int64_t target, rfirst, rcount, allowed;
      if (mode_ == Mode::kStrict) {
        const bool spent = (s & seq_mask_) == seq_mask_;
        target = (s >> bits) + (spent ? 1 : 0);  // s >> bits >= now whenever strict waits
        rfirst = spent ? target << bits : s + 1;
        rcount = std::min(want, spent ? seq_mask_ + 1 : seq_mask_ - (s & seq_mask_));
        allowed = target;
      } else {
        target = first >> bits;
        rfirst = first;
        rcount = std::min(want - 1, ((target << bits) | seq_mask_) - first) + 1;
        allowed = target - max_drift_ms_;
      }
      if (target <= max_elapsed_ && allowed - now <= extra) {
        wait = Wait::kNone;
        first = rfirst;
        count = rcount;
        hold_until = allowed;
      }
    }

    if (wait == Wait::kNone) {
      const int64_t limit = mark_limit_.load(std::memory_order_acquire);
      if (first + (count - 1) > limit) {
        if (limit == INT64_MIN) {
          finish_wait();
          throw_lease_lost();
        }
        if (first <= limit) {
          count = limit - first + 1;  // issue what the persisted mark covers
        } else {
          // The mark keeper's thread persists marks; this thread only waits for it, within
          // the call's budget, and not at all while its writes fail.
          const auto t0 = detail::monotonic_ns();
          bool covered = false;
          if (waited && !scripted_clock_)
            keeper_budget_ns = std::min(keeper_budget_ns, deadline - clock_->monotonic_ns());
          if (!keeper_->failing() && keeper_budget_ns > 0) {
            detail::HooksReleased released(hooks_);
            covered = keeper_->wait_for(first, keeper_budget_ns);
          }
          keeper_budget_ns -= detail::monotonic_ns() - t0;
          if (!covered) {
            if (lease_->lost()) {
              finish_wait();
              throw_lease_lost();
            }
            lease_refusals_.fetch_add(1, std::memory_order_relaxed);
            finish_wait();
            const std::string why = lease_->problem();
            throw Error(ErrorKind::kLeaseLost,
                        "node " + std::to_string(node_id_) + ": the high-water mark of " +
                            lease_->where() + " is not persisted beyond " +
                            std::to_string(keeper_->persisted_ms() + epoch) + " ms" +
                            (why.empty() ? std::string(" in time (wait budget ") +
                                               detail::ms_text(max_wait_ms_) + " ms)"
                                         : ": " + why) +
                            "; refusing ids it does not cover");
          }
          reread();
          continue;
        }
      }
      int64_t expected = s;
      if (state_->compare_exchange_strong(expected, first + (count - 1),
                                         std::memory_order_acq_rel)) {
        const Run run{first, count};
        account(s, run, now);
        // Reserved ahead: hold the ids until their time (or, if the clock stalls, until the
        // deadline plus a millisecond). If the clock then still leaves them more than
        // max_wait_ms ahead (it went back while they were held), they are refused like any
        // rewind, and skipped: taken from the state, never issued to anyone (as the ids a
        // failed batch had reserved).
        const int64_t hold_deadline =
            detail::saturating_add(std::max(deadline, clock_->monotonic_ns()), kNsPerMs);
        int64_t at = now;
        while (at < hold_until) {
          const int64_t left = hold_deadline - clock_->monotonic_ns();
          if (left <= 0) break;
          const int64_t wall_ms = detail::floor_div(r.wall_ns, kNsPerMs);
          const int64_t need = hold_until - at > left / kNsPerMs + 1
                                   ? left
                                   : (hold_until + epoch - wall_ms) * kNsPerMs -
                                         (r.wall_ns - wall_ms * kNsPerMs);
          void* token = hooks_.enter ? hooks_.enter(hooks_.context) : nullptr;
          clock_->sleep_ns(std::max<int64_t>(1, std::min(need, left)));
          if (hooks_.leave) hooks_.leave(hooks_.context, token);
          at = read_elapsed_ms_exact(&r.wall_ns);
        }
        if (hold_until != INT64_MIN && hold_until - at > wait_ms)
          return refuse(ErrorKind::kClockMovedBackwards,
                        "clock moved backwards by " + std::to_string(hold_until - at) +
                            " ms on node " + std::to_string(node_id_) +
                            " while this call held ids reserved for " +
                            std::to_string(hold_until + epoch) + " ms (wait budget " +
                            detail::ms_text(max_wait_ms_) +
                            " ms); refusing them (they are skipped, never issued)",
                        hold_until - at);
        finish_wait();
        return run;
      }
      // Lost a race: read the clock again after the new state.
      reread();
      continue;
    }

    // Wait for the wall clock to reach `wait_until`, within one deadline per call, set at
    // the first wait and never renewed: no call waits longer than its budget. When the
    // clock did reach what this call waited for and other threads took that millisecond
    // first (contention, not a broken clock), waiting again could lose again, for ever
    // under saturation; the call reserves ahead instead (above).
    const int64_t mono = clock_->monotonic_ns();
    if (!waited) {
      waited = true;
      wait_started = mono;
      // What this call already waited for the mark keeper counts against the same budget.
      deadline = detail::saturating_add(
          mono, scripted_clock_ ? budget_ns_ : std::min(budget_ns_, keeper_budget_ns));
      waits_.fetch_add(1, std::memory_order_relaxed);
    } else if (now >= waited_for && !reserving) {
      reserving = true;
      continue;  // decide again from this reading, reserving ahead
    }
    waited_for = wait_until;
    // An injected clock whose monotonic time does not advance while it sleeps (a test
    // double whose sleep_ns does nothing) would keep this loop from ever reaching the
    // deadline: a second of real time ends the call instead of spinning for ever.
    if (!system_clock_) {
      if (real_started == 0) real_started = detail::monotonic_ns();
      if (detail::monotonic_ns() - real_started > budget_ns_ + 1'000'000'000)
        return refuse(ErrorKind::kClockMovedBackwards,
                      "the clock's monotonic time did not advance while node " +
                          std::to_string(node_id_) + " waited " +
                          detail::ms_text(budget_ns_ / 1e6) +
                          " ms for it (does its sleep_ns advance monotonic_ns?)",
                      0);
    }
    const int64_t remaining = deadline - mono;
    if (remaining <= 0) {
      if (reserving)  // the clock moved; other calls took every id this one could reach
        return refuse(ErrorKind::kClockMovedBackwards,
                      "node " + std::to_string(node_id_) + ": every id up to " +
                          std::to_string((s >> bits) + epoch) +
                          " ms is taken by other calls (more waiting calls than the " +
                          std::to_string(seq_mask_ + 1) + " ids per ms of one node id); " +
                          "refusing after the wait budget of " +
                          detail::ms_text(budget_ns_ / 1e6) + " ms",
                      std::max<int64_t>(0, (s >> bits) - now));
      if (wait == Wait::kSpent)
        return refuse(ErrorKind::kClockMovedBackwards,
                      "clock stuck at " + std::to_string(now + epoch) + " ms on node " +
                          std::to_string(node_id_) +
                          ": the sequence for this millisecond is spent and the clock has not "
                          "advanced within " +
                          detail::ms_text(budget_ns_ / 1e6) + " ms",
                      0);
      return refuse(ErrorKind::kClockMovedBackwards,
                    "clock still " + std::to_string(drift) + " ms behind " +
                        (lease_ && s == initial_state_
                             ? "the high-water mark " + mark_text() + " "
                             : std::string()) +
                        "on node " + std::to_string(node_id_) + " after waiting " +
                        detail::ms_text(budget_ns_ / 1e6) + " ms",
                    drift);
    }
    // How long until the wall clock reaches wait_until, in ms first (both terms are small
    // there), then in ns once it is known to be below the remaining budget.
    const int64_t wall_ms = detail::floor_div(r.wall_ns, kNsPerMs);
    const int64_t need_ms = wait_until + epoch - wall_ms;
    const int64_t need = need_ms > remaining / kNsPerMs + 1
                             ? remaining
                             : need_ms * kNsPerMs - (r.wall_ns - wall_ms * kNsPerMs);
    const int64_t nap = std::max<int64_t>(1, std::min(need, remaining));
    void* token = hooks_.enter ? hooks_.enter(hooks_.context) : nullptr;
    clock_->sleep_ns(nap);
    if (hooks_.leave) hooks_.leave(hooks_.context, token);
    reread();
  }
}

int64_t Generator::next_id() {
  const Run r = reserve(1);
  return id_of(r.first);
}

void Generator::next_ids(int64_t* out, size_t n) {
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

std::vector<int64_t> Generator::next_ids(size_t n) {
  batch_size(static_cast<int64_t>(n));
  std::vector<int64_t> v(n);
  next_ids(v.data(), n);
  return v;
}

}  // namespace snowfleet
