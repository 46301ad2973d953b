// Runs one id call N times inside count_loop(), for callgrind to count the instructions of
// that call alone (bench/run.py runs it under `valgrind --tool=callgrind
// --toggle-collect=count_loop` and divides by N):
//   snowfleet_count_instructions clock|next_id|uuid7 N
// Before the loop, the generator is made and warmed for 30 ms: the TSC window calibrates
// after 20 ms of real reads, and the loop must measure the steady path, not the start.
#include <time.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "snowfleet/snowfleet.hpp"

namespace {

int64_t clock_read() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return int64_t{ts.tv_sec} * 1000 + ts.tv_nsec / 1000000;
}

template <typename F>
void warm(F call) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(30);
  while (std::chrono::steady_clock::now() < until) {
    call();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// The counted region: callgrind collects only while this function is on the stack.
template <typename F>
__attribute__((noinline)) uint64_t count_loop(F call, int64_t n) {
  uint64_t sink = 0;
  for (int64_t i = 0; i < n; ++i) sink += static_cast<uint64_t>(call());
  return sink;
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t n = argc == 3 ? std::atoll(argv[2]) : 0;
  if (n <= 0) {
    std::fprintf(stderr, "usage: %s clock|next_id|uuid7 N (N > 0)\n", argv[0]);
    return 2;
  }
  uint64_t sink = 0;
  if (std::strcmp(argv[1], "clock") == 0) {
    sink = count_loop(clock_read, n);
  } else if (std::strcmp(argv[1], "next_id") == 0) {
    snowfleet::GeneratorOptions o;
    o.node_id = 1;
    o.mode = snowfleet::Mode::kMonotonic;
    snowfleet::Generator g(o);
    warm([&g] { return g.next_id(); });
    sink = count_loop([&g] { return g.next_id(); }, n);
  } else if (std::strcmp(argv[1], "uuid7") == 0) {
    snowfleet::Uuid7Options o;
    o.mode = snowfleet::Mode::kMonotonic;
    snowfleet::Uuid7Generator g(o);
    warm([&g] { return g.next().lo; });
    sink = count_loop([&g] { return g.next().lo; }, n);
  } else {
    std::fprintf(stderr, "%s: unknown call %s (clock, next_id or uuid7)\n", argv[0], argv[1]);
    return 2;
  }
  std::printf("%llu\n", static_cast<unsigned long long>(sink));
  return 0;
}
