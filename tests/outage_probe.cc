// outage_probe: mints from several threads while a test stops the lease's store, and reports
// how calls behaved around the lease's local deadline (tests/fleet/fleet_test.py drives it).
//
//   outage_probe --source SPEC [--threads 4] [--seconds 10] [--mode strict|monotonic]
//
// Prints "node <id>" once the generator exists, then one summary line of key=value pairs:
//   ok_calls, refused_calls            every call, by outcome
//   slowest_ok_us                      the slowest call that returned an id
//   slowest_ok_outage_us               the same, among calls that started after SIGUSR1
//                                      (the test sends it when it stops the store)
//   deadline_known                     1 when a refusal for the deadline was seen
//   ids_after_deadline                 ids from calls that started after the deadline (must be 0)
//   refused_after_deadline             calls that started after it and raised LEASE_LOST
//   slowest_refusal_us, p99_refusal_us of those
//   first_refusal_after_deadline_us    how long after the deadline the first refusal began
// The deadline is read from status().lease_expires_in_ms, sampled every 200 us by a monitor
// thread: the sample taken last before it passed bounds it to within a millisecond (so a
// call is counted as after the deadline only if it started a millisecond past that bound).
#include <signal.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "snowfleet/snowfleet.hpp"

namespace {
std::atomic<int64_t> g_outage_ns{INT64_MAX};  // set by SIGUSR1

int64_t mono_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

struct Call {
  int64_t start_ns;
  int64_t latency_ns;
  bool ok;
};

// Keeps the last kRing calls of one thread: around the deadline is what matters, and a
// thread that kept minting past it would fill the ring with exactly those calls.
constexpr size_t kRing = size_t{1} << 20;
struct ThreadLog {
  std::vector<Call> ring = std::vector<Call>(kRing);
  size_t n = 0;
  int64_t slowest_ok_ns = 0, slowest_ok_outage_ns = 0;
  uint64_t ok = 0, refused = 0;
  void add(const Call& c) {
    ring[n++ % kRing] = c;
    if (c.ok) {
      ++ok;
      slowest_ok_ns = std::max(slowest_ok_ns, c.latency_ns);
      if (c.start_ns >= g_outage_ns.load(std::memory_order_relaxed))
        slowest_ok_outage_ns = std::max(slowest_ok_outage_ns, c.latency_ns);
    } else {
      ++refused;
    }
  }
};
}  // namespace

int main(int argc, char** argv) {
  snowfleet::GeneratorOptions o;
  int threads = 4;
  double seconds = 10;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--source") o.node_source = v;
    else if (a == "--threads") threads = std::atoi(v.c_str());
    else if (a == "--seconds") seconds = std::atof(v.c_str());
    else if (a == "--mode") o.mode = snowfleet::parse_mode(v);
    else {
      std::fprintf(stderr, "outage_probe: unknown argument %s\n", a.c_str());
      return 64;
    }
  }
  std::unique_ptr<snowfleet::Generator> g;
  try {
    g = std::make_unique<snowfleet::Generator>(o);
  } catch (const snowfleet::Error& e) {
    std::printf("error %s %s\n", e.code(), e.what());
    return 2;
  }
  signal(SIGUSR1, [](int) { g_outage_ns.store(mono_ns()); });
  std::printf("node %lld\n", static_cast<long long>(g->node_id()));
  std::fflush(stdout);

  const int64_t end = mono_ns() + static_cast<int64_t>(seconds * 1e9);
  std::atomic<bool> stop{false};
  // The monitor: the deadline lies in [t + e ms, t + (e + 1) ms) for a sample (t, e) taken
  // while the lease was held; the last such sample bounds the final deadline best.
  std::atomic<int64_t> deadline_hi{INT64_MAX};
  std::thread monitor([&] {
    while (!stop.load()) {
      const int64_t t = mono_ns();
      const snowfleet::Status st = g->status();
      if (st.lease_state == snowfleet::LeaseState::kHeld && st.lease_expires_in_ms >= 0)
        deadline_hi.store(t + (st.lease_expires_in_ms + 1) * 1'000'000);
      struct timespec nap {0, 200'000};
      nanosleep(&nap, nullptr);
    }
  });
  std::vector<ThreadLog> logs(static_cast<size_t>(threads));
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      ThreadLog& log = logs[static_cast<size_t>(t)];
      while (mono_ns() < end) {
        const int64_t t0 = mono_ns();
        bool ok = true;
        try {
          g->next_id();
        } catch (const snowfleet::Error& e) {
          ok = false;
          if (e.kind() != snowfleet::ErrorKind::kLeaseLost &&
              e.kind() != snowfleet::ErrorKind::kClockMovedBackwards) {
            std::printf("unexpected %s %s\n", e.code(), e.what());
            std::fflush(stdout);
          }
        }
        log.add(Call{t0, mono_ns() - t0, ok});
      }
    });
  for (auto& th : pool) th.join();
  stop.store(true);
  monitor.join();

  // Anything that started within a millisecond past the bound is undecidable; after that,
  // a call must have raised.
  const int64_t after = deadline_hi.load() == INT64_MAX ? INT64_MAX : deadline_hi.load() + 1'000'000;
  uint64_t ok = 0, refused = 0, ids_after = 0, refused_after = 0;
  int64_t slowest_ok = 0, slowest_ok_outage = 0, first_refusal = INT64_MAX;
  std::vector<int64_t> refusal_latencies;
  for (const ThreadLog& log : logs) {
    ok += log.ok;
    refused += log.refused;
    slowest_ok = std::max(slowest_ok, log.slowest_ok_ns);
    slowest_ok_outage = std::max(slowest_ok_outage, log.slowest_ok_outage_ns);
    const size_t kept = std::min(log.n, kRing);
    for (size_t i = 0; i < kept; ++i) {
      const Call& c = log.ring[i];
      if (c.start_ns <= after) continue;
      if (c.ok) {
        ++ids_after;
      } else {
        ++refused_after;
        refusal_latencies.push_back(c.latency_ns);
        first_refusal = std::min(first_refusal, c.start_ns);
      }
    }
  }
  std::sort(refusal_latencies.begin(), refusal_latencies.end());
  const auto pct = [&](double p) -> long long {
    if (refusal_latencies.empty()) return -1;
    return refusal_latencies[static_cast<size_t>(p * (refusal_latencies.size() - 1))] / 1000;
  };
  std::printf(
      "summary ok_calls=%llu refused_calls=%llu slowest_ok_us=%lld slowest_ok_outage_us=%lld "
      "deadline_known=%d "
      "ids_after_deadline=%llu refused_after_deadline=%llu slowest_refusal_us=%lld "
      "p99_refusal_us=%lld first_refusal_after_deadline_us=%lld mark_writes=%llu\n",
      static_cast<unsigned long long>(ok), static_cast<unsigned long long>(refused),
      static_cast<long long>(slowest_ok / 1000), static_cast<long long>(slowest_ok_outage / 1000),
      after == INT64_MAX ? 0 : 1,
      static_cast<unsigned long long>(ids_after), static_cast<unsigned long long>(refused_after),
      pct(1.0), pct(0.99),
      first_refusal == INT64_MAX ? -1LL : static_cast<long long>((first_refusal - after) / 1000 + 1000),
      static_cast<unsigned long long>(g->stats().mark_writes));
  std::fflush(stdout);
  g->close();
  return 0;
}
