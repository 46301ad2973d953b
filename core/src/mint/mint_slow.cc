// Minting's slow path: reserve_slow(), every case the fast path (mint.cc, which describes
// the state word and the arithmetic at the edges) declines. What to do at each reading is
// decided by decide_slow() (slow_decision.cc, pure); this file carries it out: the lease
// checks, the mark limit, the CAS, the waits and their one deadline, the messages. Its
// sleeps and keeper waits are in mint_wait.cc.
#include <algorithm>
#include <string>

#include "base/internal.hpp"
#include "generator_internal.hpp"
#include "mark_keeper.hpp"
#include "mint_wait.hpp"
#include "node_lease.hpp"
#include "slow_decision.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {

using detail::kNsPerMs;
using detail::SlowDecision;
using detail::SlowRefusal;
using detail::SlowStep;
using detail::SlowWait;

// One call: a state and a clock reading taken after it, carried from decision to decision.
// One deadline on the clock's monotonic time, set at the first wait, bounds how long the
// call waits for a clock that does not move forward.
class GeneratorCore::SlowCall {
 public:
  SlowCall(GeneratorCore& g, int64_t want, Reading r)
      : g_(g), want_(want), r_(r), keeper_budget_ns_(g.budget_ns_) {}

  Run run() {
    if (r_.elided) reread();  // a TSC-window answer is trusted only on the fast path
    for (;;) {
      check_lease_and_note();
      const SlowDecision d = decide();
      if (d.step == SlowStep::kRefuse) refuse_decision(d);
      Run out{};
      if (d.step == SlowStep::kIssue ? issue(d, &out) : wait(d)) return out;
    }
  }

 private:
  GeneratorCore& g_;
  const int64_t want_;
  Reading r_;
  bool waited_ = false;
  bool reserving_ = false;    // contention seen: reserve ahead instead of waiting again
  bool noted_ = false;        // note_wall ran for the current reading
  int64_t real_started_ = 0;  // injected clocks: real time at the first wait (see wait())
  int64_t wait_started_ = 0, deadline_ = 0, waited_for_ = 0;
  // Real time this call may still wait for the mark keeper. On a real-time clock the keeper
  // and the clock share one budget per call (whichever wait comes first starts it); a
  // virtual time is not real time, so there the keeper gets its own.
  int64_t keeper_budget_ns_;

  void reread() {
    noted_ = false;
    r_.state = g_.state_->load(std::memory_order_acquire);
    g_.check_usable();
    r_.high = g_.wall_high_.load(std::memory_order_acquire);
    r_.now = g_.read_elapsed_ms_exact(&r_.wall_ns);
  }

  void finish_wait() {
    if (!waited_) return;
    const uint64_t w = static_cast<uint64_t>(g_.clock_->monotonic_ns() - wait_started_);
    g_.waited_total_.fetch_add(w, std::memory_order_relaxed);
    detail::atomic_max(g_.waited_max_, w);
  }

  [[noreturn]] void refuse(ErrorKind kind, const std::string& message, int64_t drift) {
    g_.refusals_.fetch_add(1, std::memory_order_relaxed);
    finish_wait();
    throw Error(kind, message, drift);
  }

  [[noreturn]] void lease_lost() {
    finish_wait();
    g_.throw_lease_lost();
  }

  // The lease first, before this reading is noted: past the deadline nothing is issued,
  // and near it nothing is noted, so every later call of this millisecond comes here too.
  void check_lease_and_note() {
    bool fenced = false;
    if (g_.lease_) {
      if (g_.lease_->lost() || (g_.deadline_ && g_.past_deadline())) lease_lost();
      fenced = g_.deadline_ && g_.near_deadline();
    }
    if (!fenced && !noted_) g_.note_wall(r_.now, r_.high);
    noted_ = true;
  }

  SlowDecision decide() const {
    const detail::SlowRules rules{
        g_.layout_.sequence_bits(), g_.seq_mask_,     g_.max_elapsed_,           g_.max_packed_,
        g_.mode_ == Mode::kStrict,  g_.max_drift_ms_, g_.max_wait_ns_ / kNsPerMs};
    const SlowDecision d = detail::decide_slow(rules, {r_.state, r_.now, want_, false, 0});
    if (d.step != SlowStep::kWait || !reserving_) return d;
    // Would wait again under contention: reserve ahead, within what is left of the budget,
    // but never further ahead of the clock than another call waits for (rules.wait_ms):
    // that call reads the clock after the state, and would take a lead beyond its budget
    // for the clock moving back.
    const int64_t left = deadline_ - g_.clock_->monotonic_ns();
    const int64_t extra_ms =
        std::min((left > 0 ? left : g_.budget_ns_) / kNsPerMs + 1, rules.wait_ms);
    return detail::decide_slow(rules, {r_.state, r_.now, want_, true, extra_ms});
  }

  bool claimed_mark() const { return g_.at_start(r_.state); }
  std::string node() const { return std::to_string(g_.node_id_); }
  std::string budget() const { return detail::ms_text(g_.max_wait_ms_); }

  [[noreturn]] void refuse_decision(const SlowDecision& d) {
    const int64_t epoch = g_.layout_.epoch_ms();
    const std::string layout = g_.layout_.to_string();
    switch (d.refusal) {
      case SlowRefusal::kOutOfWindow:
        refuse(ErrorKind::kTimestampOutOfRange,
               "wall clock reads " + std::to_string(r_.now + epoch) + " ms, outside the window [" +
                   std::to_string(epoch) + ", " + std::to_string(g_.layout_.max_timestamp_ms()) +
                   "] of layout " + layout,
               0);
      case SlowRefusal::kWindowSpent:
        refuse(ErrorKind::kTimestampOutOfRange,
               "the logical clock of node " + node() +
                   " has issued the last id of the window of layout " + layout,
               0);
      case SlowRefusal::kBehind:
        if (claimed_mark())  // nothing issued yet: the state's millisecond is the claimed mark
          refuse(ErrorKind::kClockMovedBackwards,
                 "wall clock is " + std::to_string(d.drift) + " ms behind the high-water mark " +
                     g_.mark_text() + " of node " + node() +
                     (g_.lease_ ? std::string()
                                : ": ids issued before the space started may reach that "
                                  "millisecond, so none is issued until the clock passes it") +
                     " (wait budget " + budget() + " ms); refusing to issue ids",
                 d.drift);
        refuse(ErrorKind::kClockMovedBackwards,
               "clock moved backwards by " + std::to_string(d.drift) + " ms on node " + node() +
                   " (behind the last millisecond issued in its id space; wait budget " + budget() +
                   " ms); refusing to issue ids",
               d.drift);
      case SlowRefusal::kAhead:
        break;
    }
    refuse(ErrorKind::kClockMovedBackwards,
           "node " + node() + " would run " + std::to_string(d.drift) +
               " ms ahead of the wall clock (max_drift_ms " + std::to_string(g_.max_drift_ms_) +
               ", wait budget " + budget() + " ms" +
               (claimed_mark() ? "; it starts after the high-water mark " + g_.mark_text()
                               : std::string()) +
               "); refusing to issue ids",
           d.drift);
  }

  // Issues the run `d` decided, within what the persisted mark covers. True with *out set
  // when done; false to decide again from a new reading (the keeper moved the mark, or
  // another call took the state first).
  bool issue(SlowDecision d, Run* out) {
    const int64_t limit = g_.limit_->load(std::memory_order_acquire);
    if (d.first + (d.count - 1) > limit) {
      if (limit == INT64_MIN && g_.lease_) lease_lost();
      if (d.first > limit) {
        if (g_.keeper_)
          await_keeper(d.first);
        else
          await_shared_mark(d.first);
        reread();
        return false;
      }
      d.count = limit - d.first + 1;  // issue what the persisted mark covers
    }
    g_.settle_bias(detail::thread_pointer(), g_.system_clock_);  // see reserve()
    int64_t expected = r_.state;
    if (!g_.state_->compare_exchange_strong(expected, d.first + (d.count - 1),
                                            std::memory_order_acq_rel)) {
      reread();  // lost a race: read the clock again after the new state
      return false;
    }
    *out = Run{d.first, d.count};
    g_.account(r_.state, *out, r_.now);
    if (d.hold_until != INT64_MIN) hold(d.hold_until);
    finish_wait();
    return true;
  }

  // The mark keeper's thread persists marks; this thread only waits for it, within the
  // call's budget, and not at all while its writes fail.
  void await_keeper(int64_t first) {
    if (waited_ && !g_.virtual_time_)
      keeper_budget_ns_ = std::min(keeper_budget_ns_, deadline_ - g_.clock_->monotonic_ns());
    if (detail::wait_for_keeper(*g_.keeper_, g_.hooks_, first, &keeper_budget_ns_)) return;
    if (g_.lease_->lost()) lease_lost();
    g_.lease_refusals_.fetch_add(1, std::memory_order_relaxed);
    finish_wait();
    std::string why = g_.keeper_->failure();
    if (why.empty()) why = g_.lease_->problem();
    throw Error(
        ErrorKind::kLeaseLost,
        "node " + node() + ": the high-water mark of " + g_.lease_->where() +
            " is not persisted beyond " +
            std::to_string(g_.keeper_->persisted_ms() + g_.layout_.epoch_ms()) + " ms" +
            (why.empty() ? std::string(" in time (wait budget ") + budget() + " ms)" : ": " + why) +
            "; refusing ids it does not cover");
  }

  // A shared space's mark is moved by the caller's own writer (PostgreSQL's background
  // worker): naps on the clock, a millisecond at a time within the call's budget, until
  // the limit covers `first`, then refuses.
  void await_shared_mark(int64_t first) {
    const int64_t start = g_.clock_->monotonic_ns();
    const int64_t until = waited_ ? deadline_ : detail::saturating_add(start, g_.budget_ns_);
    for (int64_t left = until - start; left > 0; left = until - g_.clock_->monotonic_ns()) {
      void* token = g_.hooks_.enter ? g_.hooks_.enter(g_.hooks_.context) : nullptr;
      g_.clock_->sleep_ns(std::min(left, kNsPerMs));
      if (g_.hooks_.leave) g_.hooks_.leave(g_.hooks_.context, token);
      if (g_.limit_->load(std::memory_order_acquire) >= first) return;
    }
    g_.lease_refusals_.fetch_add(1, std::memory_order_relaxed);
    finish_wait();
    const Layout& l = g_.layout_;
    throw Error(ErrorKind::kLeaseLost,
                "node " + node() + ": the high-water mark in " + g_.shared_.where +
                    " is not persisted beyond " +
                    std::to_string(ms_of_packed(l, g_.limit_->load(std::memory_order_acquire))) +
                    " ms, and the next id is at " + std::to_string(ms_of_packed(l, first)) +
                    " ms (wait budget " + budget() + " ms); refusing ids it does not cover");
  }

  // Reserved ahead: holds the ids until their time (or, if the clock stalls, until the
  // deadline plus a millisecond). If the clock then still leaves them more than max_wait_ms
  // ahead (it went back while they were held), they are refused like any rewind, and
  // skipped: taken from the state, never issued to anyone (as the ids a failed batch had
  // reserved).
  void hold(int64_t hold_until) {
    const int64_t epoch = g_.layout_.epoch_ms();
    const int64_t hold_deadline =
        detail::saturating_add(std::max(deadline_, g_.clock_->monotonic_ns()), kNsPerMs);
    int64_t at = r_.now;
    while (at < hold_until) {
      const int64_t left = hold_deadline - g_.clock_->monotonic_ns();
      if (left <= 0) break;
      detail::nap_toward(*g_.clock_, g_.hooks_, r_.wall_ns, hold_until + epoch, left);
      at = g_.read_elapsed_ms_exact(&r_.wall_ns);
    }
    if (hold_until - at > g_.max_wait_ns_ / kNsPerMs)
      refuse(ErrorKind::kClockMovedBackwards,
             "clock moved backwards by " + std::to_string(hold_until - at) + " ms on node " +
                 node() + " while this call held ids reserved for " +
                 std::to_string(hold_until + epoch) + " ms (wait budget " + budget() +
                 " ms); refusing them (they are skipped, never issued)",
             hold_until - at);
  }

  // Waits for the wall clock to reach what `d` waits for, within one deadline per call, set
  // at the first wait and never renewed: no call waits longer than its budget. When the
  // clock did reach what this call waited for and other threads took that millisecond
  // first (contention, not a broken clock), waiting again could lose again, for ever under
  // saturation; the call reserves ahead instead (decide_slow). False: decide again.
  bool wait(const SlowDecision& d) {
    const int64_t mono = g_.clock_->monotonic_ns();
    if (!waited_) {
      waited_ = true;
      wait_started_ = mono;
      // What this call already waited for the mark keeper counts against the same budget.
      deadline_ = detail::saturating_add(
          mono, g_.virtual_time_ ? g_.budget_ns_ : std::min(g_.budget_ns_, keeper_budget_ns_));
      g_.waits_.fetch_add(1, std::memory_order_relaxed);
    } else if (r_.now >= waited_for_ && !reserving_) {
      reserving_ = true;
      return false;  // decide again from this reading, reserving ahead
    }
    waited_for_ = d.wait_until;
    check_real_time();
    const int64_t remaining = deadline_ - mono;
    if (remaining <= 0) refuse_timed_out(d);
    detail::nap_toward(*g_.clock_, g_.hooks_, r_.wall_ns, d.wait_until + g_.layout_.epoch_ms(),
                       remaining);
    reread();
    return false;
  }

  // An injected clock whose monotonic time does not advance while it sleeps (a test double
  // whose sleep_ns does nothing) would keep the wait from ever reaching the deadline: a
  // second of real time ends the call instead of spinning for ever.
  void check_real_time() {
    if (g_.system_clock_) return;
    if (real_started_ == 0) real_started_ = detail::monotonic_ns();
    if (detail::monotonic_ns() - real_started_ > g_.budget_ns_ + 1'000'000'000)
      refuse(ErrorKind::kClockMovedBackwards,
             "the clock's monotonic time did not advance while node " + node() + " waited " +
                 detail::ms_text(g_.budget_ns_ / 1e6) +
                 " ms for it (does its sleep_ns advance monotonic_ns?)",
             0);
  }

  [[noreturn]] void refuse_timed_out(const SlowDecision& d) {
    const int bits = g_.layout_.sequence_bits();
    const int64_t epoch = g_.layout_.epoch_ms(), s = r_.state, now = r_.now;
    const std::string waited = detail::ms_text(g_.budget_ns_ / 1e6);
    if (reserving_)  // the clock moved; other calls took every id this one could reach
      refuse(ErrorKind::kClockMovedBackwards,
             "node " + node() + ": every id up to " + std::to_string((s >> bits) + epoch) +
                 " ms is taken by other calls (more waiting calls than the " +
                 std::to_string(g_.seq_mask_ + 1) + " ids per ms of one node id); " +
                 "refusing after the wait budget of " + waited + " ms",
             std::max<int64_t>(0, (s >> bits) - now));
    if (d.wait == SlowWait::kSpent)
      refuse(ErrorKind::kClockMovedBackwards,
             "clock stuck at " + std::to_string(now + epoch) + " ms on node " + node() +
                 ": the sequence for this millisecond is spent and the clock has not advanced "
                 "within " +
                 waited + " ms",
             0);
    refuse(ErrorKind::kClockMovedBackwards,
           "clock still " + std::to_string(d.drift) + " ms behind " +
               (claimed_mark() ? "the high-water mark " + g_.mark_text() + " " : std::string()) +
               "on node " + node() + " after waiting " + waited + " ms",
           d.drift);
  }
};

// The complete algorithm, from a state and a clock reading taken after it. It handles
// every case the fast path declines: rewinds, a spent millisecond, the drift limit, the
// ends of the layout's window, the mark limit, the lease deadline, CAS races.
GeneratorCore::Run GeneratorCore::reserve_slow(int64_t want, Reading r) {
  return SlowCall(*this, want, r).run();
}

}  // namespace snowfleet
