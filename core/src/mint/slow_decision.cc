// The slow path's decision: see slow_decision.hpp. mint.cc describes the state word and
// the arithmetic at the edges; every sum here stays inside the layout's window.
#include "slow_decision.hpp"

#include <algorithm>

namespace snowfleet {
namespace detail {
namespace {

SlowDecision issue(int64_t first, int64_t count) {
  SlowDecision d{SlowStep::kIssue};
  d.first = first;
  d.count = count;
  return d;
}

SlowDecision wait(SlowWait why, int64_t until, int64_t drift) {
  SlowDecision d{SlowStep::kWait};
  d.wait = why;
  d.wait_until = until;
  d.drift = drift;
  return d;
}

SlowDecision refuse(SlowRefusal why, int64_t drift) {
  SlowDecision d{SlowStep::kRefuse};
  d.refusal = why;
  d.drift = drift;
  return d;
}

// Strict: never an id below the state's millisecond; wait out a rewind within the budget,
// and a spent millisecond.
SlowDecision decide_strict(const SlowRules& k, const SlowInput& in) {
  const int64_t s = in.state, now = in.now, mask = k.max_sequence;
  const int64_t last = s >> k.sequence_bits;
  if (now < last) {
    const int64_t drift = last - now;
    if (drift > k.wait_ms) return refuse(SlowRefusal::kBehind, drift);
    return wait(SlowWait::kRewind, last, drift);
  }
  if (now == last && (s & mask) == mask) return wait(SlowWait::kSpent, now + 1, 0);
  if (now == last) return issue(s + 1, std::min(in.want, mask - (s & mask)));
  return issue(now << k.sequence_bits, std::min(in.want, mask + 1));
}

// Monotonic: borrow milliseconds ahead of the clock, up to max_drift_ms; beyond it, wait
// within the budget.
SlowDecision decide_monotonic(const SlowRules& k, const SlowInput& in) {
  const int64_t s = in.state, now = in.now;
  if (s >= k.max_packed) return refuse(SlowRefusal::kWindowSpent, 0);
  const int64_t first = std::max(s + 1, now << k.sequence_bits);
  const int64_t first_ms = first >> k.sequence_bits;
  const int64_t drift = first_ms - now;
  if (drift > k.max_drift_ms) {
    if (drift - k.max_drift_ms > k.wait_ms) return refuse(SlowRefusal::kAhead, drift);
    return wait(SlowWait::kDrift, first_ms - k.max_drift_ms, drift);
  }
  const int64_t limit_ms = std::min(now + k.max_drift_ms, k.max_elapsed);
  return issue(first,
               std::min(in.want - 1, ((limit_ms << k.sequence_bits) | k.max_sequence) - first) + 1);
}

// Under contention a call that would wait again reserves its ids ahead instead: the first
// ids of the millisecond the state reaches next, if that lies within what is left of its
// budget plus one millisecond, held until the clock reaches their millisecond (strict) or
// brings them within max_drift_ms (monotonic).
void reserve_ahead(const SlowRules& k, const SlowInput& in, SlowDecision* d) {
  const int64_t s = in.state, mask = k.max_sequence;
  const int bits = k.sequence_bits;
  int64_t target, first, count, allowed;
  if (k.strict) {
    const bool spent = (s & mask) == mask;
    target = (s >> bits) + (spent ? 1 : 0);  // s >> bits >= now whenever strict waits
    first = spent ? target << bits : s + 1;
    count = std::min(in.want, spent ? mask + 1 : mask - (s & mask));
    allowed = target;
  } else {
    first = std::max(s + 1, in.now << bits);
    target = first >> bits;
    count = std::min(in.want - 1, ((target << bits) | mask) - first) + 1;
    allowed = target - k.max_drift_ms;
  }
  if (target <= k.max_elapsed && allowed - in.now <= in.extra_ms) {
    *d = issue(first, count);
    d->hold_until = allowed;
  }
}

}  // namespace

SlowDecision decide_slow(const SlowRules& rules, const SlowInput& in) noexcept {
  if (in.now < 0 || in.now > rules.max_elapsed) return refuse(SlowRefusal::kOutOfWindow, 0);
  SlowDecision d = rules.strict ? decide_strict(rules, in) : decide_monotonic(rules, in);
  if (d.step == SlowStep::kWait && in.reserving) reserve_ahead(rules, in, &d);
  return d;
}

}  // namespace detail
}  // namespace snowfleet
