// The system clock, with its TSC window fast path.
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>

#include "base/internal.hpp"
#include "generator_internal.hpp"
#include "id_space.hpp"
#include "snowfleet/snowfleet.hpp"

namespace snowfleet {
namespace detail {

TscWindow g_window;
std::atomic<bool> g_tsc_on{false};

namespace {

// ---- TSC window ---------------------------------------------------------------------
// clock_gettime(CLOCK_REALTIME) costs ~25 ns here, most of it an ordered rdtsc; a bare
// rdtsc costs ~10 ns. After every real read we publish "until the TSC reaches `end`, the
// wall clock is still in millisecond `ms`", with `end` computed from a deliberately low
// estimate of the TSC rate (90% of the calibrated one) so the window always closes before
// the millisecond boundary. Readers inside the window skip clock_gettime. Any doubt (window
// being written, TSC outside it, platform without an invariant TSC) means a real read.
std::once_flag g_tsc_once;

#if SNOWFLEET_HAVE_TSC
std::atomic<uint64_t> g_ticks_per_ms{0};  // 90% of the calibrated rate; 0 = not calibrated
std::mutex g_calib_mu;
uint64_t g_calib_tsc = 0;
int64_t g_calib_ns = 0;

bool file_contains(const char* path, const char* needle, bool first_line_only) {
  std::ifstream f(path);
  if (!f) return false;
  std::string line;
  while (std::getline(f, line)) {
    if (line.find(needle) != std::string::npos) return true;
    if (first_line_only) return false;
  }
  return false;
}

int64_t monotonic_raw_ns() noexcept {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
  return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}
#endif

void decide_tsc() {
#if SNOWFLEET_HAVE_TSC
  const char* env = std::getenv("SNOWFLEET_TSC_WINDOW");
  if (env && std::strcmp(env, "0") == 0) return;
  // The kernel only keeps "tsc" as its clocksource when the TSC is invariant and
  // synchronized across CPUs; constant_tsc/nonstop_tsc say its rate never changes.
  if (!file_contains("/sys/devices/system/clocksource/clocksource0/current_clocksource", "tsc",
                     true))
    return;
  if (!file_contains("/proc/cpuinfo", " constant_tsc", false) ||
      !file_contains("/proc/cpuinfo", " nonstop_tsc", false))
    return;
  g_calib_tsc = __rdtsc();
  g_calib_ns = monotonic_raw_ns();
  g_tsc_on.store(true, std::memory_order_release);
#endif
}

#if SNOWFLEET_HAVE_TSC
// Called after a real read while the TSC window is on but not yet calibrated: once 20 ms
// have passed since the anchor, fix the rate.
void calibrate() {
  std::unique_lock<std::mutex> lock(g_calib_mu, std::try_to_lock);
  if (!lock.owns_lock() || g_ticks_per_ms.load(std::memory_order_relaxed) != 0) return;
  const uint64_t t = __rdtsc();
  const int64_t ns = monotonic_raw_ns();
  const int64_t dns = ns - g_calib_ns;
  if (dns < 20 * kNsPerMs) return;
  const double ticks_per_ns = static_cast<double>(t - g_calib_tsc) / static_cast<double>(dns);
  if (!(ticks_per_ns > 0.05 && ticks_per_ns < 20.0)) {
    g_tsc_on.store(false, std::memory_order_relaxed);  // implausible: never elide
    return;
  }
  g_ticks_per_ms.store(static_cast<uint64_t>(ticks_per_ns * 0.9 * 1e6), std::memory_order_release);
}

void publish(uint64_t tsc, int64_t wall_ns, int64_t ms) noexcept {
  const uint64_t tpm = g_ticks_per_ms.load(std::memory_order_acquire);
  if (tpm == 0) {
    calibrate();
    return;
  }
  const int64_t remaining = (ms + 1) * kNsPerMs - wall_ns;  // ns to the next boundary
  // remaining <= 1e6 and tpm <= 2e10 (see calibrate), so the product fits in 64 bits.
  const uint64_t length = static_cast<uint64_t>(remaining) * tpm / kNsPerMs;
  uint64_t q = g_window.seq.load(std::memory_order_relaxed);
  if ((q & 1) || !g_window.seq.compare_exchange_strong(q, q + 1, std::memory_order_acquire))
    return;  // another thread is publishing; its window is as good as ours
  // Release stores: a reader whose acquire load sees any of them also sees the odd
  // sequence taken above, so a torn read always fails its sequence check. (No fences: on
  // x86 these are plain moves, and ThreadSanitizer understands them.)
  g_window.begin.store(tsc, std::memory_order_release);
  g_window.length.store(length, std::memory_order_release);
  g_window.ms.store(ms, std::memory_order_release);
  g_window.seq.store(q + 2, std::memory_order_release);
}
#endif

}  // namespace

int64_t system_wall_ms_refresh(int64_t* wall_ns) noexcept {
#if SNOWFLEET_HAVE_TSC
  if (g_tsc_on.load(std::memory_order_relaxed)) {
    // The TSC is read before the wall clock, so the window can only close early.
    const uint64_t tsc = __rdtsc();
    const int64_t ns = realtime_ns();
    const int64_t now_ms = floor_div(ns, kNsPerMs);
    publish(tsc, ns, now_ms);
    *wall_ns = ns;
    return now_ms;
  }
#endif
  return realtime_ms(wall_ns);
}

}  // namespace detail

namespace {

class SystemClock final : public Clock {
 public:
  int64_t wall_ns() override { return detail::realtime_ns(); }
  int64_t monotonic_ns() override { return detail::monotonic_ns(); }

  // Waits up to a millisecond (a spent millisecond rolling over) yield the CPU until the
  // target instead of sleeping. On the VMs we run on, a sleeping thread lets its vCPU halt,
  // and a halted vCPU sometimes takes the host 5-15 ms to wake: measured, that left ~4% of
  // the milliseconds of a saturated strict generator empty (3.85-3.92M ids/s against the
  // 4,096,000 cap); yielding keeps them (4.02-4.08M). The thread holds no lock and gives its
  // core to any other runnable thread on every iteration. Longer waits (a rewind inside
  // max_wait_ms) sleep to kYieldWindow before the target, then yield: nanosleep itself
  // overshoots by 100-200 us here.
  void sleep_ns(int64_t ns) override {
    if (ns <= 0) return;
    const int64_t end = detail::monotonic_ns() + ns;
    constexpr int64_t kYieldOnly = 1'100'000, kYieldWindow = 400'000;
    if (ns > kYieldOnly) {
      const int64_t wake = end - kYieldWindow;
      timespec ts{static_cast<time_t>(wake / 1'000'000'000), static_cast<long>(wake % 1'000'000'000)};
      while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
      }
    }
    while (detail::monotonic_ns() < end) sched_yield();
  }
};

}  // namespace

std::shared_ptr<Clock> system_clock() {
  static const std::shared_ptr<Clock> clock = [] {
    std::call_once(detail::g_tsc_once, detail::decide_tsc);
    return std::make_shared<SystemClock>();
  }();
  return clock;
}

}  // namespace snowfleet
