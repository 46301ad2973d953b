// Internal helpers shared by the core's sources. Not installed, not part of the API.
#pragma once

#include <time.h>

#include <atomic>
#include <cstdint>
#include <string_view>

#include "strict_int.hpp"

#if defined(__x86_64__) && defined(__linux__)
#include <x86intrin.h>
#define SNOWFLEET_HAVE_TSC 1
#else
#define SNOWFLEET_HAVE_TSC 0
#endif

namespace snowfleet {
namespace detail {

constexpr int64_t kNsPerMs = 1'000'000;

/// a + b, saturated at the int64 limits (monotonic readings from an injected clock, or a
/// TTL from a store, may be anything).
inline int64_t saturating_add(int64_t a, int64_t b) noexcept {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return b > 0 ? INT64_MAX : INT64_MIN;
  return r;
}

/// Floor division (rounds toward negative infinity), for times before 1970.
inline int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

/// Reads CLOCK_REALTIME (a vDSO call, no system call): Unix ms (the floor), and the exact
/// ns in *wall_ns. tv_nsec lies in [0, 1e9), so the floor of the whole reading is tv_sec *
/// 1000 + tv_nsec / 1e6 for any sign of tv_sec: a 32-bit division, no signed correction.
inline int64_t realtime_ms(int64_t* wall_ns) noexcept {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  *wall_ns = int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
  return int64_t{ts.tv_sec} * 1000 + static_cast<uint32_t>(ts.tv_nsec) / 1'000'000u;
}
/// Reads CLOCK_REALTIME in ns (a vDSO call, no system call).
inline int64_t realtime_ns() noexcept {
  int64_t ns;
  realtime_ms(&ns);
  return ns;
}
/// Reads CLOCK_MONOTONIC in ns.
inline int64_t monotonic_ns() noexcept {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

/// The TSC window (see clock.cc): "until the TSC reaches begin + length, the wall clock is
/// still in Unix millisecond `ms`". A seqlock guards it; it is written at most a few times
/// per millisecond, read by every id.
struct alignas(64) TscWindow {
  std::atomic<uint64_t> seq{0};  // odd while a writer updates the fields
  std::atomic<uint64_t> begin{0};
  std::atomic<uint64_t> length{0};  // 0: no window
  std::atomic<int64_t> ms{0};
};
extern TscWindow g_window;
extern std::atomic<bool> g_tsc_on;

/// Reads CLOCK_REALTIME and, when the TSC window is on, publishes a new window. Returns
/// Unix ms and stores the exact reading in *wall_ns.
int64_t system_wall_ms_refresh(int64_t* wall_ns) noexcept;

/// Branch hints for the minting path: the common case laid out as the straight line (there,
/// each taken branch costs about a cycle of an id's forty).
#define SNOWFLEET_LIKELY(x) __builtin_expect(!!(x), 1)
#define SNOWFLEET_UNLIKELY(x) __builtin_expect(!!(x), 0)

/// The system wall clock in Unix ms for the generator's hot path. When the TSC window is
/// usable and still open, answers from it without calling clock_gettime and sets
/// *elided; otherwise reads CLOCK_REALTIME (refreshing the window) and stores the exact
/// reading in *wall_ns. An elided answer is exact to the millisecond unless the wall
/// clock was stepped inside the window, which is noticed at the next millisecond
/// boundary at the latest. Inline: it is most of the cost of an id.
inline int64_t system_wall_ms(bool* elided, int64_t* wall_ns) noexcept {
#if SNOWFLEET_HAVE_TSC
  if (g_tsc_on.load(std::memory_order_relaxed)) {
    // Acquire loads pair with the writer's release stores: a reader that sees any field of
    // a window being written also sees its odd sequence, so a torn read fails the check.
    const uint64_t q = g_window.seq.load(std::memory_order_acquire);
    const uint64_t begin = g_window.begin.load(std::memory_order_acquire);
    const uint64_t length = g_window.length.load(std::memory_order_acquire);
    const int64_t ms = g_window.ms.load(std::memory_order_acquire);
    if (SNOWFLEET_LIKELY(!(q & 1) && g_window.seq.load(std::memory_order_relaxed) == q &&
                         __rdtsc() - begin < length)) {
      *elided = true;
      return ms;
    }
    *elided = false;
    return system_wall_ms_refresh(wall_ns);  // publishes the next window
  }
#endif
  *elided = false;
  return realtime_ms(wall_ns);
}

/// Spins `rounds` pause instructions: a thread that lost a CAS race waits this long before
/// its next attempt, so the winner runs a few calls on a cache line it keeps instead of
/// every call moving the line between cores.
inline void spin_pause(int rounds) noexcept {
  for (int i = 0; i < rounds; ++i) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
  }
}

/// The calling thread's thread pointer: an address no other live thread has, read in one
/// instruction (x86-64 keeps it at %fs:0, AArch64 in tpidr_el0; glibc and musl alike). 0
/// where it is not known, which callers must treat as "not the owner".
inline uintptr_t thread_pointer() noexcept {
  uintptr_t tp = 0;
#if defined(__linux__) && defined(__x86_64__)
  __asm__("mov %%fs:0, %0" : "=r"(tp));
#elif defined(__linux__) && defined(__aarch64__)
  __asm__("mrs %0, tpidr_el0" : "=r"(tp));
#endif
  return tp;
}

/// Fork generation: starts at 1, incremented in every forked child (pthread_atfork, see
/// register_fork_handlers). One relaxed load per id, never getpid().
extern std::atomic<uint64_t> g_fork_generation;
inline uint64_t fork_generation() noexcept {
  return g_fork_generation.load(std::memory_order_relaxed);
}
/// Installs the pthread_atfork handlers (once per process, before the first generator).
void register_fork_handlers();

}  // namespace detail
}  // namespace snowfleet
