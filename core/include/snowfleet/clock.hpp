// snowfleet public API: the injectable Clock, the system clock and ScriptedClock.
// Included by <snowfleet/snowfleet.hpp>.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "snowfleet/errors.hpp"

namespace snowfleet {

/// Everything the generator knows about time comes through this interface, so every
/// rewind, freeze and exhaustion path can be driven deterministically.
///
/// A clock tells real time unless its time_domain() names a time of its own: generators on
/// the system clock and on any other real-time Clock object mint in one time, so those of
/// one id space share one state word (see Generator). Each ScriptedClock is a time of its
/// own: its generators share state only with generators on that same clock object.
class Clock {
 public:
  virtual ~Clock() = default;
  /// Wall-clock time in ns since the Unix epoch. May jump backwards: that is the fault
  /// the generator guards against.
  virtual int64_t wall_ns() = 0;
  /// Monotonic time in ns (arbitrary origin). Never decreases; bounds every wait.
  virtual int64_t monotonic_ns() = 0;
  /// Blocks the calling thread for about `ns` nanoseconds (ns > 0).
  virtual void sleep_ns(int64_t ns) = 0;
  /// Whether monotonic_ns() is a time of the clock's own that passes only when something
  /// sleeps on it (a test clock), not real time. A generator on such a clock gives waiting
  /// for its lease's mark writer a budget of its own, since that wait takes real time.
  virtual bool virtual_time() const noexcept { return false; }
  /// The time this clock tells: 0 for real time (every real-time clock of the process
  /// shares id spaces), otherwise an even value no other clock of the process returns, so
  /// generators on different times never share an id space. The process remembers the id
  /// spaces of such a time for its life (a ScriptedClock's destructor forgets its own), so
  /// a clock of one's own should not reuse a value another clock returned.
  virtual uint64_t time_domain() const noexcept { return 0; }
};

/// The process's real clock: CLOCK_REALTIME, CLOCK_MONOTONIC, and a sleep that does not
/// overshoot millisecond boundaries. Generators using it take a faster path that reads the
/// wall clock through a TSC window where the platform allows it (see README, "Clock").
std::shared_ptr<Clock> system_clock();

/// A clock for tests: wall readings come from a script; monotonic time is virtual and
/// advances only when something sleeps on it. Thread-safe. Every reading must lie within
/// [-kMaxAbsMs, kMaxAbsMs] (what nanoseconds in an int64 can hold, about +-292 years
/// around 1970): a script that would read outside it throws kInvalidArgument naming the
/// value, when it is set or at the reading that would leave the range.
///
/// The script is a list of segments. Segment {ms, count, step_ms, every} yields `count`
/// readings: ms + step_ms * (i / every) for i = 0 .. count-1. After the last segment the
/// clock keeps extending the last segment's pattern, so
///   {{t}}                        is a frozen clock,
///   {{a}, {b, 1, 1}}             returns a, b, b+1, b+2, ... (the reference model's scripted_clock),
///   {{t, 1, -4}}                 retreats 4 ms per read,
///   {{t, 1, 1, 2}}               advances 1 ms every 2 reads.
class ScriptedClock : public Clock {
 public:
  struct Segment {
    int64_t ms = 0;       ///< Unix ms of the segment's first reading
    int64_t count = 1;    ///< readings in this segment (>= 1)
    int64_t step_ms = 0;  ///< added every `every` readings (may be negative)
    int64_t every = 1;    ///< >= 1
  };
  /// Largest |reading| in ms: INT64_MAX / 1,000,000.
  static constexpr int64_t kMaxAbsMs = 9223372036854;

  /// A clock frozen at `ms`.
  explicit ScriptedClock(int64_t ms = 0);
  /// Throws kInvalidArgument for an empty script or a count/every below 1.
  explicit ScriptedClock(std::vector<Segment> script);
  /// Forgets the id spaces of generators that ran on this clock.
  ~ScriptedClock() override;

  /// Replaces the remaining script (readings restart at its first segment).
  void set_script(std::vector<Segment> script);
  /// Appends one segment to the script.
  void append(int64_t ms, int64_t count = 1, int64_t step_ms = 0, int64_t every = 1);
  /// Freezes the wall clock at `ms` (replaces the script).
  void set_wall_ms(int64_t ms);
  /// Moves the wall clock by `delta_ms` from the reading it would return next, and
  /// freezes it there.
  void advance_wall_ms(int64_t delta_ms);
  /// The reading the next wall_ns() call would return, in ms (does not consume it).
  int64_t peek_wall_ms() const;
  /// Ticking: while on, time slept on this clock passes on the wall too (every reading is
  /// the script's plus the ns slept since ticking was turned on or the script last set), so a
  /// test of a wait (a rewind waited out, a spent millisecond) sees the clock move while the
  /// generator waits, as a real clock would. Off by default: a frozen script stays frozen.
  void set_ticking(bool on);
  bool ticking() const;

  int64_t wall_ns() override;
  int64_t monotonic_ns() override;
  void sleep_ns(int64_t ns) override;
  bool virtual_time() const noexcept override { return true; }
  /// Its own time, named by its address (the clock forgets its id spaces when it is
  /// destroyed, before the address can be reused).
  uint64_t time_domain() const noexcept override {
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(this));
  }

  int64_t reads() const;         ///< wall readings consumed so far
  int64_t sleep_count() const;   ///< sleep_ns calls so far
  int64_t slept_ns() const;      ///< total virtual time slept (== monotonic_ns())
  int64_t max_sleep_ns() const;  ///< longest single sleep (0 when none)
  int64_t min_sleep_ns() const;  ///< shortest single sleep (0 when none)

 private:
  int64_t current_locked() const;
  mutable std::mutex mu_;
  std::vector<Segment> script_;
  size_t segment_ = 0;
  int64_t index_ = 0;  // reading index inside the current segment
  int64_t reads_ = 0, sleeps_ = 0, mono_ns_ = 0, max_sleep_ = 0, min_sleep_ = 0;
  bool ticking_ = false;
  int64_t tick_base_ns_ = 0;  // mono_ns_ when ticking began or the script was last set
};

}  // namespace snowfleet
