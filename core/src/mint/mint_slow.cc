// Minting's slow path: reserve_slow(), the complete algorithm for every case the fast path
// (mint.cc, which describes the state word and the arithmetic at the edges) declines. Its
// sleeps and keeper waits are in mint_wait.cc.
#include <algorithm>
#include <string>

#include "base/internal.hpp"
#include "generator_internal.hpp"
#include "mark_keeper.hpp"
#include "mint_wait.hpp"
#include "node_lease.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {

using detail::kNsPerMs;

// The complete algorithm, from a state and a clock reading taken after it. It handles
// every case the fast path declines: rewinds, a spent millisecond, the drift limit, the
// ends of the layout's window, the mark limit, the lease deadline, CAS races. One deadline
// on the monotonic clock, set at the first wait, bounds how long the call waits for a clock
// that does not move forward.
GeneratorCore::Run GeneratorCore::reserve_slow(int64_t want, Reading r) {
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
  bool noted = false;        // note_wall ran for the current reading
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
                        "node " + std::to_string(node_id_) + " would run " + std::to_string(drift) +
                            " ms ahead of the wall clock (max_drift_ms " +
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
          if (waited && !scripted_clock_)
            keeper_budget_ns = std::min(keeper_budget_ns, deadline - clock_->monotonic_ns());
          if (!detail::wait_for_keeper(*keeper_, hooks_, first, &keeper_budget_ns)) {
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
          detail::nap_toward(*clock_, hooks_, r.wall_ns, hold_until + epoch, left);
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
                          "refusing after the wait budget of " + detail::ms_text(budget_ns_ / 1e6) +
                          " ms",
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
                        (lease_ && s == initial_state_ ? "the high-water mark " + mark_text() + " "
                                                       : std::string()) +
                        "on node " + std::to_string(node_id_) + " after waiting " +
                        detail::ms_text(budget_ns_ / 1e6) + " ms",
                    drift);
    }
    detail::nap_toward(*clock_, hooks_, r.wall_ns, wait_until + epoch, remaining);
    reread();
  }
}

}  // namespace snowfleet
