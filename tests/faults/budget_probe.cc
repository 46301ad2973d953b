// budget_probe: one strict call on a clock that steps back (a wait within max_wait_ms) and
// then, while the call waits, forward past the persisted mark (so the call must also wait
// for the mark keeper). Prints how long the call took against its budget.
//
//   budget_probe SOURCE MAX_WAIT_MS
//
// Output: "call_us=<n> budget_us=<n> outcome=<id|CODE>".
#include <time.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "snowfleet/snowfleet.hpp"

namespace {
int64_t mono_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

// Real time plus an offset that a script changes: the first reading after arm() is
// `back_ms` behind, every reading after the next sleep `jump_ms` ahead.
class SteppingClock final : public snowfleet::Clock {
 public:
  void arm(int64_t back_ms, int64_t jump_ms) {
    back_ns_ = -back_ms * 1'000'000;
    jump_ns_ = jump_ms * 1'000'000;
    armed_ = true;
  }
  int64_t wall_ns() override {
    const int64_t real = snowfleet::system_clock()->wall_ns();
    if (armed_ && !slept_) return real + back_ns_;
    if (armed_) return real + jump_ns_;
    return real;
  }
  int64_t monotonic_ns() override { return mono_ns(); }
  void sleep_ns(int64_t ns) override {
    snowfleet::system_clock()->sleep_ns(ns);
    if (armed_) slept_ = true;
  }

 private:
  std::atomic<bool> armed_{false}, slept_{false};
  std::atomic<int64_t> back_ns_{0}, jump_ns_{0};
};
}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: budget_probe SOURCE MAX_WAIT_MS\n");
    return 64;
  }
  auto clock = std::make_shared<SteppingClock>();
  snowfleet::GeneratorOptions o;
  o.node_source = argv[1];
  o.max_wait_ms = std::atof(argv[2]);
  o.clock = clock;
  try {
    snowfleet::Generator g(o);
    g.next_id();
    // Back by 60% of the budget (waited out), then 3 s ahead: past the 1 s the mark covers.
    clock->arm(static_cast<int64_t>(o.max_wait_ms * 0.6), 3000);
    const int64_t t0 = mono_ns();
    std::string outcome;
    try {
      outcome = std::to_string(g.next_id());
    } catch (const snowfleet::Error& e) {
      outcome = e.code();
    }
    const int64_t took = mono_ns() - t0;
    std::printf("call_us=%lld budget_us=%lld outcome=%s\n", static_cast<long long>(took / 1000),
                static_cast<long long>(o.max_wait_ms * 1000), outcome.c_str());
  } catch (const snowfleet::Error& e) {
    std::printf("error %s %s\n", e.code(), e.what());
    return 2;
  }
  return 0;
}
