// Internal helpers shared by the core's sources. Not installed, not part of the API.
#pragma once

#include <cstdint>

namespace snowfleet {
namespace detail {

constexpr int64_t kNsPerMs = 1'000'000;

/// Floor division (rounds toward negative infinity), for times before 1970.
inline int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

/// Reads CLOCK_REALTIME in ns (a vDSO call, no system call).
int64_t realtime_ns() noexcept;
/// Reads CLOCK_MONOTONIC in ns.
int64_t monotonic_ns() noexcept;

/// The system wall clock in Unix ms for the generator's hot path. When the TSC window is
/// usable and still open, answers from it without calling clock_gettime and sets
/// *elided; otherwise reads CLOCK_REALTIME (refreshing the window) and stores the exact
/// reading in *wall_ns. An elided answer is exact to the millisecond unless the wall
/// clock was stepped inside the window, which is noticed at the next millisecond
/// boundary at the latest.
int64_t system_wall_ms(bool* elided, int64_t* wall_ns) noexcept;

/// Fork generation: starts at 1, incremented in every forked child (pthread_atfork).
uint64_t fork_generation() noexcept;

}  // namespace detail
}  // namespace snowfleet
