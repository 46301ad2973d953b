// The slow path's decision (mint_slow.cc carries it out): from the state, a clock reading
// and what is left of the call's budget, whether to issue a run of ids, wait for the wall
// clock, or refuse. Pure: no clock, no atomics, no lease; the loop in mint_slow.cc reads the
// clock, checks the lease and the mark limit, and writes messages. Internal.
#pragma once

#include <cstdint>

namespace snowfleet {
namespace detail {

/// A generator's fixed rules, as the decision needs them.
struct SlowRules {
  int sequence_bits;
  int64_t max_sequence;  // 2^sequence_bits - 1
  int64_t max_elapsed;   // last ms of the layout's window, since the epoch
  int64_t max_packed;    // (max_elapsed << sequence_bits) | max_sequence
  bool strict;           // false: monotonic
  int64_t max_drift_ms;  // monotonic only
  int64_t wait_ms;       // whole ms of max_wait_ms: drift * 1e6 > max_wait_ns <=> drift > this
};

/// One moment of a call: the state (last packed value issued, -1 before the first), the
/// wall clock in ms since the epoch read after it, the ids still wanted, and whether the
/// call reserves ahead instead of waiting again (contention), within `extra_ms`.
struct SlowInput {
  int64_t state;
  int64_t now;
  int64_t want;  // >= 1
  bool reserving;
  int64_t extra_ms;  // what is left of the budget, in ms, plus one (reserving only)
};

enum class SlowStep { kIssue, kWait, kRefuse };
enum class SlowWait { kRewind, kSpent, kDrift };
enum class SlowRefusal {
  kOutOfWindow,  // the wall clock reads outside the layout's window
  kWindowSpent,  // monotonic: the window's last id is issued
  kBehind,       // strict: the clock is further behind the state than the budget
  kAhead,        // monotonic: the state would run further ahead than max_drift_ms + budget
};

struct SlowDecision {
  SlowStep step;
  // kIssue: the run [first, first + count), held until the wall clock reaches hold_until
  // (ms since the epoch; INT64_MIN: not held) when it was reserved ahead.
  int64_t first = 0, count = 0, hold_until = INT64_MIN;
  // kWait: for the wall clock to reach wait_until (ms since the epoch).
  SlowWait wait = SlowWait::kRewind;
  int64_t wait_until = 0;
  SlowRefusal refusal = SlowRefusal::kOutOfWindow;  // kRefuse
  int64_t drift = 0;  // kWait, kRefuse: ms behind (strict) or ahead (monotonic); else 0
};

SlowDecision decide_slow(const SlowRules& rules, const SlowInput& in) noexcept;

}  // namespace detail
}  // namespace snowfleet
